import type { CodingQueueQuery, CodingQueueResponse } from '@cdms/contract';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.ts';
import { assignmentQuery, presentAssignment } from './present-assignment.ts';

/** `%` and `_` in a search are the characters themselves, not patterns. */
const likeText = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * A page of the study's verbatims to code: filtered by status, kind, site and part of the verbatim,
 * paged and counted in SQL (pending first, then queries, then coded ones, oldest first), with the
 * count of each status under the other filters.
 */
export async function listCodingQueue(
  db: Kysely<Database>,
  studyId: number,
  query: CodingQueueQuery,
): Promise<CodingQueueResponse> {
  let base = assignmentQuery(db).where('a.study_id', '=', studyId);
  if (query.kind) base = base.where('a.kind', '=', query.kind);
  if (query.siteId) base = base.where('a.site_id', '=', query.siteId);
  if (query.search) base = base.where(sql<boolean>`a.verbatim ilike ${likeText(query.search)}`);
  const filtered = query.status ? base.where('a.status', '=', query.status) : base;
  const rows = await filtered
    .orderBy(sql`case a.status when 'pending' then 0 when 'query' then 1 when 'auto' then 2 else 3 end`)
    .orderBy('a.id')
    .limit(query.size)
    .offset((query.page - 1) * query.size)
    .execute();
  const counted = await base
    .clearSelect()
    .select(['a.status', sql<number>`count(*)::int`.as('count')])
    .groupBy('a.status')
    .execute();
  const counts = { auto: 0, manual: 0, pending: 0, query: 0 };
  for (const row of counted) counts[row.status] = Number(row.count);
  const total = query.status
    ? counts[query.status]
    : counted.reduce((sum, row) => sum + Number(row.count), 0);
  return { items: rows.map(presentAssignment), total, page: query.page, size: query.size, counts };
}
