import { todayInKorea } from '@cdms/contract';
import type { StudyDefinition } from '@cdms/study';
import type { Kysely, Transaction } from 'kysely';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { definitionOfSubjectVersion } from '../studies/study-definitions.ts';
import { lockSubjectsInIdOrder } from '../subjects/lock-subjects-in-id-order.ts';
import { rebuildLabResults } from './refresh-lab-results.ts';
import { refreshReportRows } from './report-rows.ts';
import { insertableVisitRow, readModelRowsOf, type SubjectReadModelRows } from './subject-fact-rows.ts';
import { compactSubjectFactTotals } from './subject-fact-totals.ts';
import { loadSubjectFacts } from './subject-facts.ts';

/**
 * Recomputes the read model from the raw data: `npm run cdms -- rebuild-read-model`, at start-up
 * when the computation changed (`READ_MODEL_VERSION`) or subjects lack rows, and after a new
 * definition version (windows and codes may move). Works in batches, each in its own transaction
 * holding its subjects' row locks, so it can run beside a live server and never holds a whole
 * trial in memory.
 */

/** Bump when the facts or their rows are computed differently: every server rebuilds at start. */
export const READ_MODEL_VERSION = '12';
const VERSION_KEY = 'read_model_version';
const BATCH_SIZE = 500;

type Db = Kysely<Database>;

export interface RebuildResult {
  subjects: number;
}

/** The rows the raw data give for these subjects (deleted ones and unknown ids give none). */
export async function computeReadModelRows(
  executor: Db | Transaction<Database>,
  studyId: number,
  definition: StudyDefinition,
  subjectIds?: number[],
): Promise<SubjectReadModelRows[]> {
  const facts = await loadSubjectFacts(executor, {
    studyId,
    sites: 'all',
    definition,
    today: todayInKorea(),
    ...(subjectIds ? { subjectIds } : {}),
  });
  return facts.map((subject) => readModelRowsOf(subject, studyId, definition));
}

async function storeBatch(trx: Transaction<Database>, ids: number[], rows: SubjectReadModelRows[]) {
  await trx.deleteFrom('subject_visit_windows').where('subject_id', 'in', ids).execute();
  await trx.deleteFrom('subject_visits').where('subject_id', 'in', ids).execute();
  await trx.deleteFrom('subject_facts').where('subject_id', 'in', ids).execute();
  if (rows.length > 0)
    await trx
      .insertInto('subject_facts')
      .values(rows.map((row) => row.facts))
      .execute();
  const windows = rows.flatMap((row) => row.windows);
  // PostgreSQL takes at most 65,535 parameters per statement: 11 columns a row, so 5,000 rows a time.
  for (let start = 0; start < windows.length; start += 5000) {
    await trx
      .insertInto('subject_visit_windows')
      .values(windows.slice(start, start + 5000))
      .execute();
  }
  const visits = rows.flatMap((row) => row.visits.map(insertableVisitRow));
  // 7 columns a row: 5,000 rows stay under the limit too.
  for (let start = 0; start < visits.length; start += 5000) {
    await trx
      .insertInto('subject_visits')
      .values(visits.slice(start, start + 5000))
      .execute();
  }
}

/** Rebuilds the rows of the given subjects (every subject of every study when omitted). */
export async function rebuildReadModel(db: Db, options: { subjectIds?: number[]; studyId?: number } = {}) {
  let subjectQuery = db.selectFrom('subjects').select(['id', 'study_id', 'definition_version']).orderBy('id');
  if (options.subjectIds) {
    if (options.subjectIds.length === 0) return { subjects: 0 };
    subjectQuery = subjectQuery.where('id', 'in', options.subjectIds);
  }
  if (options.studyId !== undefined) subjectQuery = subjectQuery.where('study_id', '=', options.studyId);
  const subjects = await subjectQuery.execute();
  // Each subject's facts by its own definition version (one an amendment has not moved yet keeps its
  // own): the subjects are taken study by study, version by version.
  const groups = new Map<string, { studyId: number; version: string | null; ids: number[] }>();
  for (const subject of subjects) {
    const key = `${subject.study_id}|${subject.definition_version ?? ''}`;
    const group = groups.get(key) ?? {
      studyId: subject.study_id,
      version: subject.definition_version,
      ids: [],
    };
    group.ids.push(subject.id);
    groups.set(key, group);
  }
  for (const { studyId, version, ids } of groups.values()) {
    const definition = await definitionOfSubjectVersion(db, studyId, version);
    for (let start = 0; start < ids.length; start += BATCH_SIZE) {
      const batch = ids.slice(start, start + BATCH_SIZE);
      await inTransaction(db, async (trx) => {
        // Writers of these subjects wait, so no save lands between reading and storing its facts.
        await lockSubjectsInIdOrder(trx, { ids: batch });
        const rows = definition ? await computeReadModelRows(trx, studyId, definition, batch) : [];
        await storeBatch(trx, batch, rows);
        // The reports' rows (issue 46), from the rows just stored.
        refreshReportRows(trx, definition, batch);
        // The lab results (issue 43 item 13), flagged for the sex and age just computed.
        if (definition)
          await rebuildLabResults(
            trx,
            definition,
            rows.map((row) => ({
              subjectId: row.facts.subject_id,
              gender: row.facts.gender,
              age: row.facts.age,
            })),
          );
        else await trx.deleteFrom('lab_results').where('subject_id', 'in', batch).execute();
      });
    }
  }
  // Every rebuilt subject left a delta taking its old facts out of the totals and one putting the new in.
  await compactSubjectFactTotals(db);
  return { subjects: subjects.length };
}

/**
 * At start-up: a full rebuild when the stored model was computed by another version of the code,
 * else only the subjects without rows (a database from before the read model existed).
 */
export async function ensureReadModel(db: Db): Promise<RebuildResult> {
  const stored = await db
    .selectFrom('app_meta')
    .select('value')
    .where('key', '=', VERSION_KEY)
    .executeTakeFirst();
  let result: RebuildResult;
  if (stored?.value !== READ_MODEL_VERSION) {
    result = await rebuildReadModel(db);
  } else {
    const missing = await db
      .selectFrom('subjects')
      .leftJoin('subject_facts', 'subject_facts.subject_id', 'subjects.id')
      .select('subjects.id')
      .where('subjects.deleted_at', 'is', null)
      .where('subject_facts.subject_id', 'is', null)
      .execute();
    result = await rebuildReadModel(db, { subjectIds: missing.map((row) => row.id) });
  }
  await db
    .insertInto('app_meta')
    .values({ key: VERSION_KEY, value: READ_MODEL_VERSION })
    .onConflict((conflict) => conflict.column('key').doUpdateSet({ value: READ_MODEL_VERSION }))
    .execute();
  return result;
}
