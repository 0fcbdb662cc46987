import { todayInKorea } from '@cdms/contract';
import type { StudyDefinition } from '@cdms/study';
import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { currentStudyDefinition } from '../studies/study-definitions.ts';
import { loadSubjectFacts } from '../subjects/subject-facts.ts';
import { readModelRowsOf, type SubjectReadModelRows } from './subject-fact-rows.ts';

/**
 * Brings one subject's read-model rows up to date from its raw data, inside the caller's
 * transaction: every command that changes a fact (registration, form saves and resets,
 * randomization, signing, deletion) calls it last, so the rows commit or roll back with the change.
 * It writes only the subject's own rows.
 */
export async function refreshSubjectFacts(
  trx: Transaction<Database>,
  subjectId: number,
  known: { definition?: StudyDefinition } = {},
): Promise<void> {
  const subject = await trx
    .selectFrom('subjects')
    .select(['study_id', 'deleted_at'])
    .where('id', '=', subjectId)
    .executeTakeFirst();
  const definition =
    known.definition ??
    (subject ? (await currentStudyDefinition(trx, subject.study_id))?.definition : undefined);
  const rows =
    subject && subject.deleted_at === null && definition
      ? await computeSubjectRows(trx, subject.study_id, subjectId, definition)
      : undefined;
  await storeSubjectRows(trx, subjectId, rows);
}

async function computeSubjectRows(
  trx: Transaction<Database>,
  studyId: number,
  subjectId: number,
  definition: StudyDefinition,
): Promise<SubjectReadModelRows | undefined> {
  const [facts] = await loadSubjectFacts(trx, {
    studyId,
    sites: 'all',
    definition,
    today: todayInKorea(),
    subjectIds: [subjectId],
  });
  return facts ? readModelRowsOf(facts, studyId, definition) : undefined;
}

/** Replaces the subject's rows with `rows`; none (a deleted subject) removes them. */
export async function storeSubjectRows(
  trx: Transaction<Database>,
  subjectId: number,
  rows: SubjectReadModelRows | undefined,
): Promise<void> {
  await trx.deleteFrom('subject_visit_windows').where('subject_id', '=', subjectId).execute();
  if (!rows) {
    await trx.deleteFrom('subject_facts').where('subject_id', '=', subjectId).execute();
    return;
  }
  const { subject_id: _, ...changes } = rows.facts;
  await trx
    .insertInto('subject_facts')
    .values(rows.facts)
    .onConflict((conflict) => conflict.column('subject_id').doUpdateSet(changes))
    .execute();
  if (rows.windows.length > 0) await trx.insertInto('subject_visit_windows').values(rows.windows).execute();
}
