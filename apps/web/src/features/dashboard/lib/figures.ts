import type { AgeGroup, SubjectStatus } from '@cdms/contract';

/**
 * The five statuses in the order and colours of spec §4 (Drop-out red, Complete blue, Ongoing
 * yellow, Screening teal, Screening-failure purple): the doughnut's segments and its legend.
 */
export const STATUS_SEGMENTS: readonly { status: SubjectStatus; color: string }[] = [
  { status: 'dropout', color: '#ef4444' },
  { status: 'complete', color: '#3b82f6' },
  { status: 'ongoing', color: '#facc15' },
  { status: 'screening', color: '#14b8a6' },
  { status: 'screening_failure', color: '#8b5cf6' },
];

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
