import type { AgeGroup, SubjectStatus } from '@cdms/contract';
import { SUBJECT_STATUS_COLORS } from '../../../components/status-colors.ts';

/**
 * The five statuses in the order and colours of spec §4 (Drop-out red, Complete blue, Ongoing
 * yellow, Screening teal, Screening-failure purple): the doughnut's segments and its legend.
 */
export const STATUS_SEGMENTS: readonly { status: SubjectStatus; color: string }[] = (
  ['dropout', 'complete', 'ongoing', 'screening', 'screening_failure'] as const
).map((status) => ({ status, color: SUBJECT_STATUS_COLORS[status] }));

/** Spec §9: the doughnut's hole is 70 % of its diameter. */
export const DOUGHNUT_CUTOUT = '70%';

/** A share of a group to one decimal, e.g. 33.3; 0.0 for an empty group. */
export function percentOf(count: number, total: number): string {
  return (total > 0 ? (count / total) * 100 : 0).toFixed(1);
}

export type AgeBandLabel =
  | { key: 'notEntered' }
  | { key: 'under'; age: number }
  | { key: 'over'; age: number }
  | { key: 'range'; min: number; max: number };

/** Which wording an age band takes, from its bounds ("under 30", "30–39", "70 and over"). */
export function ageBandLabel(group: Pick<AgeGroup, 'key' | 'minAge' | 'maxAge'>): AgeBandLabel {
  if (group.minAge === null && group.maxAge === null) return { key: 'notEntered' };
  if (group.minAge === null) return { key: 'under', age: (group.maxAge as number) + 1 };
  if (group.maxAge === null) return { key: 'over', age: group.minAge };
  return { key: 'range', min: group.minAge, max: group.maxAge };
}
