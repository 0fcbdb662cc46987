import { todayInKorea } from '@cdms/contract';
import { addDays, type StudyDefinition } from '@cdms/study';
import type { Insertable } from 'kysely';
import type {
  SubjectFactsRow,
  SubjectVisitRow,
  SubjectVisitsTable,
  SubjectVisitWindowRow,
} from '../db/schema.ts';
import { ageBandOf } from './dashboard-figures.ts';
import type { SubjectFacts } from './subject-facts.ts';

/**
 * A subject's facts (`loadSubjectFacts`, the one computation from the raw data) as the read
 * model's rows: pure, so the refresh at every write, the rebuild and the property test that
 * compares them all turn facts into rows the same way.
 */

export interface SubjectReadModelRows {
  facts: SubjectFactsRow;
  windows: SubjectVisitWindowRow[];
  visits: SubjectVisitRow[];
}

/**
 * A visit's place in the definition (1-based), as the list sorts the last visit: a key the
 * definition no longer lists after every listed one, no visit null. Stored rather than computed
 * per request so the sort has an index; publishing a version that reorders the visits rebuilds
 * the study's read model (publishStudyDefinition), so the stored places follow the definition.
 */
export function visitPlaceOf(definition: StudyDefinition, visitKey: string | null): number | null {
  if (visitKey === null) return null;
  const index = definition.visits.findIndex((visit) => visit.key === visitKey);
  return index === -1 ? definition.visits.length + 1 : index + 1;
}

/**
 * What the list's search looks in, lowercased once here instead of per row and request: the
 * screening number, the randomization number and the initials, one a line (a search holding a
 * line break is not looked up in it, so a match never spans two of them). The list lowercases the
 * searched text the same way (`toLowerCase`).
 */
export function searchTextOf(subject: SubjectFacts): string {
  return [subject.screeningNumber, subject.randomizationNumber ?? '', subject.initials]
    .map((text) => text.toLowerCase())
    .join('\n');
}

/**
 * The first day one of the subject's visits is overdue: of its windows still to be done while it is
 * in follow-up (those the alarms count), the earliest day that is both inside or after the opening
 * and after the closing — the readiness board's "overdue on today" is `overdue_from <= today`
 * (holds/readiness-board.ts), so the stored date does not go stale as the days pass. Null: none.
 */
export function overdueFromOf(
  status: SubjectFacts['status'],
  windows: SubjectVisitWindowRow[],
): string | null {
  if (status !== 'ongoing') return null;
  let first: string | null = null;
  for (const window of windows) {
    if (window.actual_date !== null) continue;
    const dayAfterClosing = addDays(window.latest_date, 1);
    if (dayAfterClosing === null) continue;
    // biome-ignore lint/complexity/useMathMinMax: dates as YYYY-MM-DD text, not numbers
    const from = window.earliest_date > dayAfterClosing ? window.earliest_date : dayAfterClosing;
    if (first === null || from < first) first = from;
  }
  return first;
}

/** A visit row as written: its role facts as JSON text (the column is jsonb). */
export function insertableVisitRow(row: SubjectVisitRow): Insertable<SubjectVisitsTable> {
  return { ...row, role_facts: JSON.stringify(row.role_facts) };
}

export function readModelRowsOf(
  subject: SubjectFacts,
  studyId: number,
  definition: StudyDefinition,
): SubjectReadModelRows {
  const visitOrder = new Map(definition.visits.map((visit, index) => [visit.key, index]));
  const windows: SubjectVisitWindowRow[] = [];
  for (const entry of subject.schedule) {
    // Visits without a window, or whose anchor visit is not done yet, cannot raise an alarm.
    if (entry.expectedDate === null || entry.earliestDate === null || entry.latestDate === null) continue;
    windows.push({
      subject_id: subject.id,
      visit_key: entry.visitKey,
      study_id: studyId,
      site_id: subject.siteId,
      visit_order: visitOrder.get(entry.visitKey) ?? 0,
      screening_number: subject.screeningNumber,
      subject_status: subject.status,
      actual_date: entry.actualDate,
      expected_date: entry.expectedDate,
      earliest_date: entry.earliestDate,
      latest_date: entry.latestDate,
    });
  }
  return {
    facts: {
      subject_id: subject.id,
      study_id: studyId,
      site_id: subject.siteId,
      site_code: subject.siteCode,
      screening_number: subject.screeningNumber,
      initials: subject.initials,
      search_text: searchTextOf(subject),
      status: subject.status,
      consent_date: subject.consentDate,
      registered_on: todayInKorea(subject.registeredAt),
      randomization_number: subject.randomizationNumber,
      randomized_at: subject.randomizedAt,
      gender: subject.gender,
      age: subject.age,
      first_visit_key: subject.firstVisit?.visitKey ?? null,
      first_visit_date: subject.firstVisit?.date ?? null,
      last_visit_key: subject.lastVisit?.visitKey ?? null,
      last_visit_date: subject.lastVisit?.date ?? null,
      last_visit_order: visitPlaceOf(definition, subject.lastVisit?.visitKey ?? null),
      adverse_event_count: subject.adverseEventCount,
      serious_adverse_event_count: subject.seriousAdverseEventCount,
      open_query_count: subject.openQueryCount,
      answered_query_count: subject.answeredQueryCount,
      manual_open_query_count: subject.manualOpenQueryCount,
      manual_answered_query_count: subject.manualAnsweredQueryCount,
      signature_state: subject.signature,
      screening_failure_reason: subject.screeningFailureReason,
      dropout_reason: subject.dropoutReason,
      saved_form_count: subject.savedFormCount,
      age_band: ageBandOf(subject.age),
      consent_month: subject.consentDate.slice(0, 7),
      sdv_site_rank: subject.sdv.site_rank,
      sdv_planned_items: subject.sdv.planned_items,
      sdv_verified_items: subject.sdv.verified_items,
      sdv_changed_items: subject.sdv.changed_items,
      sdv_planned_forms: subject.sdv.planned_forms,
      sdv_complete_forms: subject.sdv.complete_forms,
      forms_missing_required: subject.formsMissingRequired,
      overdue_from: overdueFromOf(subject.status, windows),
    },
    windows,
    visits: subject.visits.map((visit) => ({
      subject_id: subject.id,
      visit_key: visit.visitKey,
      visit_date: visit.visitDate,
      window_closes: visit.windowCloses,
      empty_forms: visit.emptyForms,
      incomplete_forms: visit.incompleteForms,
      role_facts: visit.roleFacts,
    })),
  };
}
