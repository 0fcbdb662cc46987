import type { OverviewResponse, UnscheduledVisit } from '@cdms/contract';
import { type Language, orderVisitKeys, resolveVisit, type StudyDefinition } from '@cdms/study';

/** One column of the overview matrix: a scheduled visit, or one of the subject's unscheduled visits. */
export interface OverviewColumn {
  visitKey: string;
  label: string;
  /** Set for an unscheduled visit: its date, reason and whether it holds data. */
  unscheduled?: UnscheduledVisit;
  /**
   * The study-wide column (visit group `all`: adverse events, medications, end of study, signature): it
   * stays in view at the matrix's right edge, whatever the number of visits.
   */
  studyWide?: true;
}

/**
 * The matrix's columns (issue 19 item 1) in `orderVisitKeys`'s order: the scheduled visits, each
 * unscheduled visit after the last scheduled visit dated on or before it; "all" stays last.
 */
export function overviewColumns(
  definition: StudyDefinition,
  overview: Pick<OverviewResponse, 'unscheduledVisits' | 'visitDates'>,
  language: Language,
): OverviewColumn[] {
  const unscheduled = new Map(overview.unscheduledVisits.map((visit) => [visit.visitKey, visit]));
  return orderVisitKeys(definition, overview.visitDates, overview.unscheduledVisits).map((visitKey) => {
    const visit = unscheduled.get(visitKey);
    const resolved = resolveVisit(definition, visitKey);
    const label = resolved?.label[language] ?? visitKey;
    if (visit) return { visitKey, label, unscheduled: visit };
    return resolved?.group === 'all' ? { visitKey, label, studyWide: true } : { visitKey, label };
  });
}
