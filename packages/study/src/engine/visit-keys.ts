import type { StudyDefinition, VisitDefinition } from '../model/study-definition.ts';

// Every record of a subject's data (form instances, values, queries, SDV marks, holds, comments) names
// its visit by a key. Scheduled visits use their definition key; the n-th unscheduled visit of a subject
// is `unscheduled-<n>` (n from 1, never reused). The hyphen cannot appear in a definition key, so the two
// never collide. `resolveVisit` is the one lookup from any key to the visit it names.

export const UNSCHEDULED_VISIT_PREFIX = 'unscheduled-';

const UNSCHEDULED_KEY = /^unscheduled-([1-9][0-9]{0,8})$/;

/** The visit key of the subject's `repeatKey`-th unscheduled visit. */
export function unscheduledVisitKey(repeatKey: number): string {
  return `${UNSCHEDULED_VISIT_PREFIX}${repeatKey}`;
}

/** The repeat key of an unscheduled visit's key, or undefined for any other key. */
export function unscheduledRepeatKey(visitKey: string): number | undefined {
  const match = UNSCHEDULED_KEY.exec(visitKey);
  return match ? Number(match[1]) : undefined;
}

export function isUnscheduledVisitKey(visitKey: string): boolean {
  return unscheduledRepeatKey(visitKey) !== undefined;
}

/**
 * The visit a key names: a scheduled visit of the definition, or — for `unscheduled-<n>` when the study
 * declares unscheduled visits — a visit holding the declared forms, labelled "<label> <n>", without a
 * window (it never moves the protocol's windows). Whether the subject has that unscheduled visit is the
 * server's to check (its table). Undefined for any other key.
 */
export function resolveVisit(definition: StudyDefinition, visitKey: string): VisitDefinition | undefined {
  const scheduled = definition.visits.find((visit) => visit.key === visitKey);
  if (scheduled) return scheduled;
  const repeatKey = unscheduledRepeatKey(visitKey);
  const declaration = definition.unscheduledVisit;
  if (repeatKey === undefined || !declaration) return undefined;
  return {
    key: visitKey,
    label: { ko: `${declaration.label.ko} ${repeatKey}`, en: `${declaration.label.en} ${repeatKey}` },
    group: 'follow_up',
    forms: declaration.forms,
  };
}

/** An unscheduled visit as far as its place among the visits goes. */
export interface DatedUnscheduledVisit {
  visitKey: string;
  repeatKey: number;
  /** YYYY-MM-DD. */
  visitDate: string;
}

/**
 * The subject's visits in the order screens and the casebook show them: by schedule position, then date.
 * The scheduled visits keep the definition's order. Each unscheduled visit takes the position after the
 * last scheduled visit dated on or before it (`visitDates`: the saved date of each scheduled visit that has
 * one), but never a position before the first visit of the schedule proper: the consent step (group
 * `consent`) records agreement, not a visit, and an unscheduled visit is only ever added to a subject who
 * is in the schedule. Without that floor an unscheduled visit added while V1 had no saved date yet sorted
 * before V1 (issue 43 item 8). Unscheduled visits sharing a position go by date, then repeat key. A visit
 * without any date (the study-wide "all" column) is never passed, so it stays last.
 */
export function orderVisitKeys(
  definition: StudyDefinition,
  visitDates: Readonly<Record<string, string>>,
  unscheduled: readonly DatedUnscheduledVisit[],
): string[] {
  const firstScheduled = definition.visits.findIndex((visit) => visit.group !== 'consent');
  const floor = Math.max(0, firstScheduled);
  const after = new Map<number, string[]>();
  const byDate = [...unscheduled].sort((a, b) =>
    a.visitDate < b.visitDate ? -1 : a.visitDate > b.visitDate ? 1 : a.repeatKey - b.repeatKey,
  );
  for (const visit of byDate) {
    let slot = floor;
    definition.visits.forEach((candidate, index) => {
      const date = visitDates[candidate.key];
      if (index > floor && date !== undefined && date <= visit.visitDate) slot = index;
    });
    after.set(slot, [...(after.get(slot) ?? []), visit.visitKey]);
  }
  return definition.visits.flatMap((visit, index) => [visit.key, ...(after.get(index) ?? [])]);
}
