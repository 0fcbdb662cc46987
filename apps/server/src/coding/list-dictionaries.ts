import type { CodingDictionariesResponse, CodingDictionary } from '@cdms/contract';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';

/** The study's loaded dictionary versions (newest first) and its synonym list's size. */
export async function listDictionaries(
  db: Kysely<Database>,
  studyId: number,
): Promise<CodingDictionariesResponse> {
  const rows = await db
    .selectFrom('coding_dictionaries as d')
    .innerJoin('users as u', 'u.id', 'd.loaded_by')
    .select([
      'd.id',
      'd.kind',
      'd.version',
      'd.file_name',
      'd.term_count',
      'd.active',
      'd.loaded_at',
      'u.name',
    ])
    .where('d.study_id', '=', studyId)
    .orderBy('d.kind')
    .orderBy('d.loaded_at', 'desc')
    .orderBy('d.id', 'desc')
    .execute();
  const synonyms = await db
    .selectFrom('coding_synonyms')
    .select([sql<number>`count(*)::int`.as('count'), sql<Date | null>`max(loaded_at)`.as('loaded_at')])
    .where('study_id', '=', studyId)
    .executeTakeFirst();
  return {
    dictionaries: rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      version: row.version,
      fileName: row.file_name,
      termCount: row.term_count,
      active: row.active,
      loadedAt: new Date(row.loaded_at).toISOString(),
      loadedBy: row.name,
    })),
    synonyms: {
      count: Number(synonyms?.count ?? 0),
      loadedAt: synonyms?.loaded_at ? new Date(synonyms.loaded_at).toISOString() : null,
    },
  };
}

/** One loaded version as listed. */
export async function presentDictionary(
  db: Kysely<Database> | Transaction<Database>,
  studyId: number,
  dictionaryId: number,
): Promise<CodingDictionary> {
  const row = await db
    .selectFrom('coding_dictionaries as d')
    .innerJoin('users as u', 'u.id', 'd.loaded_by')
    .select([
      'd.id',
      'd.kind',
      'd.version',
      'd.file_name',
      'd.term_count',
      'd.active',
      'd.loaded_at',
      'u.name',
    ])
    .where('d.study_id', '=', studyId)
    .where('d.id', '=', dictionaryId)
    .executeTakeFirstOrThrow();
  return {
    id: row.id,
    kind: row.kind,
    version: row.version,
    fileName: row.file_name,
    termCount: row.term_count,
    active: row.active,
    loadedAt: new Date(row.loaded_at).toISOString(),
    loadedBy: row.name,
  };
}
