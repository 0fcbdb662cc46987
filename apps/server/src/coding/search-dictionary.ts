import type { CodingKindName, CodingPath, CodingSearchResponse } from '@cdms/contract';
import { normalizeVerbatim } from '@cdms/study';
import { type Kysely, sql } from 'kysely';
import { activeDictionary } from '../coding-state/match-verbatim.ts';
import type { Database } from '../db/schema.ts';

const SEARCH_LIMIT = 50;

/**
 * Terms of the active version whose name (any language) contains the text, or whose PT name does
 * (an LLT found through its PT), current ones only, exact names first: each with its path (LLT → PT
 * → HLT → HLGT → SOC, or drug → ATC). At most 50.
 */
export async function searchDictionary(
  db: Kysely<Database>,
  studyId: number,
  kind: CodingKindName,
  text: string,
): Promise<CodingSearchResponse> {
  const dictionary = await activeDictionary(db, studyId, kind);
  if (!dictionary) return { dictionaryVersion: null, results: [] };
  const norm = normalizeVerbatim(text);
  const like = `%${norm.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rows = await db
    .selectFrom('coding_terms')
    .select(['code', 'name', 'path', sql<number>`case when name_norm = ${norm} then 0 else 1 end`.as('rank')])
    .where('dictionary_id', '=', dictionary.id)
    .where('current', '=', true)
    .where((eb) =>
      eb.or([
        eb('name_norm', 'like', like),
        eb(sql`lower(path->'pt'->'name'->>'en')`, 'like', like),
        eb(sql`lower(path->'pt'->'name'->>'ko')`, 'like', like),
      ]),
    )
    .orderBy('rank')
    .orderBy('name')
    .limit(SEARCH_LIMIT)
    .execute();
  return {
    dictionaryVersion: dictionary.version,
    results: rows.map((row) => ({ code: row.code, name: row.name, path: row.path as CodingPath })),
  };
}
