import type { CodingKindName, CodingPath } from '@cdms/contract';
import { normalizeVerbatim } from '@cdms/study';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';

/** A dictionary code as an assignment stores it. */
export interface CodeChoice {
  dictionaryId: number;
  code: string;
  path: CodingPath;
}

/** The study's active dictionary version of a kind, or undefined when none is loaded. */
export async function activeDictionary(
  db: Kysely<Database> | Transaction<Database>,
  studyId: number,
  kind: CodingKindName,
): Promise<{ id: number; version: string } | undefined> {
  return db
    .selectFrom('coding_dictionaries')
    .select(['id', 'version'])
    .where('study_id', '=', studyId)
    .where('kind', '=', kind)
    .where('active', '=', true)
    .executeTakeFirst();
}

/** A code of a dictionary version with its path (the first language's row), or undefined. */
export async function termByCode(
  db: Kysely<Database> | Transaction<Database>,
  dictionaryId: number,
  code: string,
): Promise<{ code: string; current: boolean; path: CodingPath } | undefined> {
  const row = await db
    .selectFrom('coding_terms')
    .select(['code', 'current', 'path'])
    .where('dictionary_id', '=', dictionaryId)
    .where('code', '=', code)
    .orderBy('id')
    .executeTakeFirst();
  return row ? { code: row.code, current: row.current, path: row.path as CodingPath } : undefined;
}

/**
 * The code a verbatim gets on its own, or null: an exact match (case, width and spaces aside) on a
 * current term name of the active version, in any of its languages, else the study's synonym list.
 * A name that matches terms of different codes codes nothing (the coder chooses).
 */
export async function matchVerbatim(
  db: Kysely<Database> | Transaction<Database>,
  studyId: number,
  kind: CodingKindName,
  dictionaryId: number,
  verbatim: string,
): Promise<CodeChoice | null> {
  const norm = normalizeVerbatim(verbatim);
  const exact = await db
    .selectFrom('coding_terms')
    .select(['code', 'path'])
    .where('dictionary_id', '=', dictionaryId)
    .where('name_norm', '=', norm)
    .where('current', '=', true)
    .execute();
  const codes = new Set(exact.map((row) => row.code));
  const [first] = exact;
  if (codes.size === 1 && first) return { dictionaryId, code: first.code, path: first.path as CodingPath };
  if (codes.size > 1) return null;
  const synonym = await db
    .selectFrom('coding_synonyms')
    .select('code')
    .where('study_id', '=', studyId)
    .where('kind', '=', kind)
    .where('verbatim_norm', '=', norm)
    .executeTakeFirst();
  if (!synonym) return null;
  const term = await termByCode(db, dictionaryId, synonym.code);
  return term?.current ? { dictionaryId, code: term.code, path: term.path } : null;
}
