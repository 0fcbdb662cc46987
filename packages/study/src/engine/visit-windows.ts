import type { StudyDefinition } from '../model/study-definition.ts';
import { addDays, isValidDate } from './dates.ts';

// Visit windows relative to an anchor visit (by default V2, the device application day). The window
// values are configurable in the definition; the engine only does the date arithmetic.

export type VisitWindowStatus =
  | 'noWindow'
  | 'anchorMissing'
  | 'inWindow'
  | 'early'
  | 'late'
  | 'notDue'
  | 'due'
  | 'overdue';

export interface VisitScheduleEntry {
  visitKey: string;
  actualDate: string | null;
  expectedDate: string | null;
  earliestDate: string | null;
  latestDate: string | null;
  status: VisitWindowStatus;
}

function visitDateOf(definition: StudyDefinition, data: unknown, visitKey: string): string | null {
  const where = definition.visitDate;
  if (!where || data === null || typeof data !== 'object') return null;
  const visit = Object.hasOwn(data, visitKey) ? (data as Record<string, unknown>)[visitKey] : undefined;
  if (visit === null || typeof visit !== 'object' || !Object.hasOwn(visit, where.form)) return null;
  const form = (visit as Record<string, unknown>)[where.form];
  if (form === null || typeof form !== 'object' || !Object.hasOwn(form, where.item)) return null;
  const value = (form as Record<string, unknown>)[where.item];
  return isValidDate(value) ? value : null;
}

/** Expected date, window and status of every visit for one subject, as of `today`. */
export function computeVisitSchedule(
  definition: StudyDefinition,
  data: unknown,
  options: { today: string },
): VisitScheduleEntry[] {
  return definition.visits.map((visit) => {
    const actualDate = visitDateOf(definition, data, visit.key);
    const entry: VisitScheduleEntry = {
      visitKey: visit.key,
      actualDate,
      expectedDate: null,
      earliestDate: null,
      latestDate: null,
      status: 'noWindow',
    };
    if (!visit.window) return entry;
    const anchorDate = visitDateOf(definition, data, visit.window.anchorVisit);
    const expectedDate = addDays(anchorDate, visit.window.offsetDays);
    const earliestDate = addDays(expectedDate, -visit.window.minusDays);
    const latestDate = addDays(expectedDate, visit.window.plusDays);
    if (expectedDate === null || earliestDate === null || latestDate === null) {
      return { ...entry, status: 'anchorMissing' };
    }
    let status: VisitWindowStatus;
    if (actualDate !== null) {
      status = actualDate < earliestDate ? 'early' : actualDate > latestDate ? 'late' : 'inWindow';
    } else {
      status = options.today < earliestDate ? 'notDue' : options.today <= latestDate ? 'due' : 'overdue';
    }
    return { ...entry, expectedDate, earliestDate, latestDate, status };
  });
}
