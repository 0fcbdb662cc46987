import { todayInKorea } from '@cdms/contract';
import type { FormValues, StudyDefinition } from '@cdms/study';
import { sql, type Transaction } from 'kysely';
import type { AfterChange } from '../after-change/form-change.ts';
import type { Database } from '../db/schema.ts';
import { definitionOfSubjectVersion } from '../studies/study-definitions.ts';
import { isReportSourceForm, refreshReportRows } from './report-rows.ts';
import { insertableVisitRow, readModelRowsOf, type SubjectReadModelRows } from './subject-fact-rows.ts';
import { isFactSourceForm, loadSubjectFacts, sameSavedForms, savedFormsFact } from './subject-facts.ts';

/**
 * Brings one subject's read-model rows up to date from its raw data, inside the caller's
 * transaction: every command that changes a fact (registration, form saves and resets,
 * randomization, signing, deletion) calls it last, so the rows commit or roll back with the change.
 * It writes only the subject's own rows.
 */
export async function refreshSubjectFacts(
  trx: Transaction<Database>,
  subjectId: number,
  known: {
    definition?: StudyDefinition;
    studyId?: number;
    /** The write cannot have changed the subject's SDV counts: the stored ones are carried over. */
    sdvUnchanged?: boolean;
  } = {},
): Promise<void> {
  // A caller that holds the subject (a save: locked, not deleted) names its study; others look.
  const subject =
    known.studyId !== undefined
      ? { study_id: known.studyId, deleted_at: null }
      : await trx
          .selectFrom('subjects')
          .select(['study_id', 'deleted_at'])
          .where('id', '=', subjectId)
          .executeTakeFirst();
  const definition =
    known.definition ?? (subject ? await definitionOfSubject(trx, subjectId, subject.study_id) : undefined);
  const rows =
    subject && subject.deleted_at === null && definition
      ? await computeSubjectRows(trx, subject.study_id, subjectId, definition, known.sdvUnchanged === true)
      : undefined;
  await storeSubjectRows(trx, subjectId, rows);
  // The reports' rows are computed from the rows just stored (issue 46).
  refreshReportRows(trx, rows ? definition : undefined, [subjectId]);
}

async function computeSubjectRows(
  trx: Transaction<Database>,
  studyId: number,
  subjectId: number,
  definition: StudyDefinition,
  sdvUnchanged: boolean,
): Promise<SubjectReadModelRows | undefined> {
  const [facts] = await loadSubjectFacts(trx, {
    studyId,
    sites: 'all',
    definition,
    today: todayInKorea(),
    subjectIds: [subjectId],
    storedSdv: sdvUnchanged,
  });
  return facts ? readModelRowsOf(facts, studyId, definition) : undefined;
}

/**
 * Makes the subject's rows equal `rows`; none (a deleted subject) removes them. Most saves change
 * no fact (a corrected heart rate), so rows are written only where they differ: an unchanged row
 * costs no new row version, which keeps the read model's tables and indexes from bloating under
 * a steady stream of saves.
 */
export async function storeSubjectRows(
  trx: Transaction<Database>,
  subjectId: number,
  rows: SubjectReadModelRows | undefined,
): Promise<void> {
  if (!rows) {
    await trx.deleteFrom('subject_visit_windows').where('subject_id', '=', subjectId).execute();
    await trx.deleteFrom('subject_visits').where('subject_id', '=', subjectId).execute();
    await trx.deleteFrom('subject_facts').where('subject_id', '=', subjectId).execute();
    return;
  }
  const { subject_id: _, ...changes } = rows.facts;
  // The visits' and windows' rows ride along as data-modifying CTEs of the facts' upsert: every save
  // pays for each round trip here. For each, the keys the definition no longer lists go, and the
  // others are inserted or updated where they differ (different keys, so the two parts of a table
  // cannot collide).
  const visitKeys = rows.visits.map((visit) => visit.visit_key);
  const windowKeys = rows.windows.map((window) => window.visit_key);
  const withVisitsGone = trx.with('visits_gone', (db) => {
    const gone = db.deleteFrom('subject_visits').where('subject_id', '=', subjectId);
    return visitKeys.length > 0 ? gone.where('visit_key', 'not in', visitKeys) : gone;
  });
  const withVisits =
    rows.visits.length === 0
      ? withVisitsGone
      : withVisitsGone.with('visits_stored', (db) =>
          db
            .insertInto('subject_visits')
            .values(rows.visits.map(insertableVisitRow))
            .onConflict((conflict) =>
              conflict
                .columns(['subject_id', 'visit_key'])
                .doUpdateSet((eb) => ({
                  visit_date: eb.ref('excluded.visit_date'),
                  window_closes: eb.ref('excluded.window_closes'),
                  empty_forms: eb.ref('excluded.empty_forms'),
                  incomplete_forms: eb.ref('excluded.incomplete_forms'),
                  role_facts: eb.ref('excluded.role_facts'),
                }))
                .where(sql<boolean>`(subject_visits.*) is distinct from (excluded.*)`),
            ),
        );
  const withWindowsGone = withVisits.with('windows_gone', (db) => {
    const gone = db.deleteFrom('subject_visit_windows').where('subject_id', '=', subjectId);
    return windowKeys.length > 0 ? gone.where('visit_key', 'not in', windowKeys) : gone;
  });
  const withWindows =
    rows.windows.length === 0
      ? withWindowsGone
      : withWindowsGone.with('windows_stored', (db) =>
          db
            .insertInto('subject_visit_windows')
            .values(rows.windows)
            .onConflict((conflict) =>
              conflict
                .columns(['subject_id', 'visit_key'])
                .doUpdateSet((eb) => ({
                  study_id: eb.ref('excluded.study_id'),
                  site_id: eb.ref('excluded.site_id'),
                  visit_order: eb.ref('excluded.visit_order'),
                  screening_number: eb.ref('excluded.screening_number'),
                  subject_status: eb.ref('excluded.subject_status'),
                  actual_date: eb.ref('excluded.actual_date'),
                  expected_date: eb.ref('excluded.expected_date'),
                  earliest_date: eb.ref('excluded.earliest_date'),
                  latest_date: eb.ref('excluded.latest_date'),
                }))
                .where(sql<boolean>`(subject_visit_windows.*) is distinct from (excluded.*)`),
            ),
        );
  await withWindows
    .insertInto('subject_facts')
    .values(rows.facts)
    .onConflict((conflict) =>
      conflict
        .column('subject_id')
        .doUpdateSet(changes)
        .where(sql<boolean>`(subject_facts.*) is distinct from (excluded.*)`),
    )
    .execute();
}

/**
 * After a save: the list, dashboard and alarms read the subject's facts from the read model, in the
 * save's transaction. The SDV counts (entered items of the plan, their marks) move only when the
 * form's entered items do or a verification was reset; a corrected value with neither keeps the
 * stored counts.
 */
export const refreshSubjectFactsAfterChange: AfterChange = async (change) => {
  const { definition, effects } = change;
  if (!effects.statuses)
    throw new Error(
      "The subject facts follow the forms' statuses: see data-entry/after-change-reactions.ts.",
    );
  const sdvUnchanged = effects.verificationsReset === 0 && sameItemKeys(change.before, change.after);
  // The facts (`loadSubjectFacts`) follow from the subject's row, its site and randomization, which
  // forms hold data and which of those miss required items, the open and answered queries, the
  // signature, the SDV counts and the values of the fact-source forms. A save that moved none of
  // them (a corrected heart rate, a form saved again unchanged) leaves the rows as they are: their
  // refresh is the costliest part of a save for PostgreSQL. System writes (registration,
  // randomization, signing) change facts beside the form and always refresh.
  const factsMoved =
    change.systemWrite ||
    effects.statusChanged ||
    effects.systemQueriesChanged ||
    effects.signatureInvalidated ||
    !sdvUnchanged ||
    (change.changedKeys.length > 0 && isFactSourceForm(definition, change.visitKey, change.formKey)) ||
    change.derivedChangedForms.some((form) => isFactSourceForm(definition, form.visitKey, form.formKey)) ||
    !sameSavedForms(
      savedFormsFact(change.stored.instances, effects.statuses),
      savedFormsFact(change.instancesBefore),
    );
  if (factsMoved)
    await refreshSubjectFacts(change.trx, change.subject.id, {
      definition,
      studyId: change.subject.study_id,
      sdvUnchanged,
    });
  // A form the reports read and the facts do not (the events of interest): its rows alone.
  else if (change.changedKeys.length > 0 && isReportSourceForm(definition, change.formKey))
    refreshReportRows(change.trx, definition, [change.subject.id]);
};

/** Whether two forms' entered values hold the same items (whatever their values). */
function sameItemKeys(before: FormValues, after: FormValues): boolean {
  const keys = Object.keys(before);
  return keys.length === Object.keys(after).length && keys.every((key) => Object.hasOwn(after, key));
}

/** The definition of the version the subject is on (the study's newest for one never pinned by an amendment). */
async function definitionOfSubject(
  trx: Transaction<Database>,
  subjectId: number,
  studyId: number,
): Promise<StudyDefinition | undefined> {
  const row = await trx
    .selectFrom('subjects')
    .select('definition_version')
    .where('id', '=', subjectId)
    .executeTakeFirst();
  return definitionOfSubjectVersion(trx, studyId, row?.definition_version ?? null);
}
