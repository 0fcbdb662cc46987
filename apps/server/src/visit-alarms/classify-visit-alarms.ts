import type { SubjectStatus, VisitAlarmCounts, VisitAlarmState } from '@cdms/contract';
import { daysBetween, type StudyDefinition, type VisitScheduleEntry } from '@cdms/study';

/**
 * How many days ahead a visit window opening counts as "due soon", unless the study definition
 * names its own value in the parameter `VISIT_DUE_SOON_PARAMETER`.
 */
export const DEFAULT_DUE_SOON_DAYS = 7;
export const VISIT_DUE_SOON_PARAMETER = 'visitDueSoonDays';

/**
 * Subjects whose next visits are still to come. Screening subjects have no V2 (anchor) date yet;
 * Screening-failure, Complete and Drop-out subjects have no further visits.
 */
const IN_FOLLOW_UP: readonly SubjectStatus[] = ['ongoing'];

export function dueSoonDaysOf(definition: StudyDefinition): number {
  const value = definition.parameters?.[VISIT_DUE_SOON_PARAMETER]?.value;
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : DEFAULT_DUE_SOON_DAYS;
}

export interface VisitAlarmClass {
  state: VisitAlarmState;
  /** Whole days, never negative; the meaning depends on the state (see the contract). */
  days: number;
  timing: 'early' | 'late' | null;
}

/**
 * The alarm one scheduled visit raises as of `today` (YYYY-MM-DD, Korean day), or null when it
 * raises none: a visit without a window or anchor date, one done in its window, one not yet near.
 */
export function classifyVisit(
  entry: VisitScheduleEntry,
  subjectStatus: SubjectStatus,
  today: string,
  dueSoonDays: number,
): VisitAlarmClass | null {
  const { actualDate, earliestDate, latestDate } = entry;
  if (earliestDate === null || latestDate === null) return null;

  // A visit done outside its window is a protocol deviation whatever became of the subject since.
  if (entry.status === 'early' && actualDate !== null)
    return { state: 'outOfWindow', days: daysBetween(actualDate, earliestDate) ?? 0, timing: 'early' };
  if (entry.status === 'late' && actualDate !== null)
    return { state: 'outOfWindow', days: daysBetween(latestDate, actualDate) ?? 0, timing: 'late' };

  if (actualDate !== null || !IN_FOLLOW_UP.includes(subjectStatus)) return null;
  const untilOpen = daysBetween(today, earliestDate);
  const untilClose = daysBetween(today, latestDate);
  if (untilOpen === null || untilClose === null) return null;
  if (untilClose < 0) return { state: 'overdue', days: -untilClose, timing: null };
  if (untilOpen <= 0) return { state: 'due', days: untilClose, timing: null };
  if (untilOpen <= dueSoonDays) return { state: 'dueSoon', days: untilOpen, timing: null };
  return null;
}

export function emptyAlarmCounts(): VisitAlarmCounts {
  return { overdue: 0, due: 0, dueSoon: 0, outOfWindow: 0 };
}

/** List order: overdue (longest first), due (closing first), due soon (opening first), then deviations. */
export const STATE_ORDER: readonly VisitAlarmState[] = ['overdue', 'due', 'dueSoon', 'outOfWindow'];

/** Compares two alarms for the list: by state, then the most urgent first within a state. */
export function compareAlarms(
  a: { state: VisitAlarmState; days: number; actualDate: string | null },
  b: { state: VisitAlarmState; days: number; actualDate: string | null },
): number {
  const byState = STATE_ORDER.indexOf(a.state) - STATE_ORDER.indexOf(b.state);
  if (byState !== 0) return byState;
  switch (a.state) {
    case 'overdue':
      return b.days - a.days;
    case 'due':
    case 'dueSoon':
      return a.days - b.days;
    case 'outOfWindow':
      // The most recent deviation first.
      return (b.actualDate ?? '').localeCompare(a.actualDate ?? '');
  }
}
