import type { OverviewResponse, UnscheduledVisit } from '@cdms/contract';
import { type Language, resolveVisit, type StudyDefinition } from '@cdms/study';

/** One column of the overview matrix: a scheduled visit, or one of the subject's unscheduled visits. */
export interface OverviewColumn {
  visitKey: string;
  label: string;
  /** Set for an unscheduled visit: its date, reason and whether it holds data. */
  unscheduled?: UnscheduledVisit;
}

/**
 * The matrix's columns (issue 19 item 1): the scheduled visits in the definition's order, each
 * unscheduled visit after the last scheduled visit dated on or before it (by the saved visit dates;
 * ties and undated visits keep the schedule's order), unscheduled visits among themselves by date.
 * The study-wide column ("all") has no date and stays last.
 */
export function overviewColumns(
  definition: StudyDefinition,
  overview: Pick<OverviewResponse, 'unscheduledVisits' | 'visitDates'>,
  language: Language,
): OverviewColumn[] {
  const scheduled = definition.visits;
  const after = new Map<number, UnscheduledVisit[]>();
  const byDate = [...overview.unscheduledVisits].sort((a, b) =>
    a.visitDate < b.visitDate ? -1 : a.visitDate > b.visitDate ? 1 : a.repeatKey - b.repeatKey,
  );
  for (const visit of byDate) {
    let slot = 0;
    scheduled.forEach((candidate, index) => {
      const date = overview.visitDates[candidate.key];
      if (date !== undefined && date <= visit.visitDate) slot = index;
    });
    after.set(slot, [...(after.get(slot) ?? []), visit]);
  }
  const columns: OverviewColumn[] = [];
  scheduled.forEach((visit, index) => {
    columns.push({ visitKey: visit.key, label: visit.label[language] });
    for (const unscheduled of after.get(index) ?? []) {
      const label = resolveVisit(definition, unscheduled.visitKey)?.label[language] ?? unscheduled.visitKey;
      columns.push({ visitKey: unscheduled.visitKey, label, unscheduled });
    }
  });
  return columns;
}
