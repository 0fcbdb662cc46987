import { type Role, roles } from '@cdms/contract';
import type { Kysely, Transaction } from 'kysely';
import { can, permissionMatrix } from '../auth/permissions.ts';
import type { Principal } from '../auth/principal.ts';
import type { Database, QueryRow } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import type { QueryAction } from './query-workflow.ts';

/**
 * The policy of one query: it is visible to whoever may read its subject (another site's, a deleted
 * subject's or another study's query is 404, as if it did not exist); acting on it needs the
 * permission the workflow names for the action (403 otherwise).
 */

export type QueryWithSubject = QueryRow & { subject_deleted: boolean };

export async function findQueryInScope(
  db: Kysely<Database> | Transaction<Database>,
  principal: Principal,
  studyId: number,
  queryId: number,
  options: { forUpdate?: boolean } = {},
): Promise<QueryRow> {
  let query = db
    .selectFrom('queries')
    .innerJoin('subjects', 'subjects.id', 'queries.subject_id')
    .selectAll('queries')
    .where('queries.id', '=', queryId)
    .where('queries.study_id', '=', studyId)
    .where('subjects.deleted_at', 'is', null);
  if (options.forUpdate) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  if (!row || !can(principal, 'subject.read', { studyId, siteId: row.site_id })) {
    throw new AppError(404, 'not_found');
  }
  return row;
}

/** Whether the principal may answer and/or manage queries at the site. */
export function queryPowers(principal: Principal, studyId: number, siteId: number) {
  return {
    answer: can(principal, 'query.answer', { studyId, siteId }),
    manage: can(principal, 'query.manage', { studyId, siteId }),
  };
}

/** May the principal take this action (whatever the state)? */
export function mayAct(
  principal: Principal,
  action: QueryAction,
  query: Pick<QueryRow, 'study_id' | 'site_id'>,
) {
  const may = queryPowers(principal, query.study_id, query.site_id);
  if (action === 'answer') return may.answer;
  if (action === 'comment') return may.answer || may.manage;
  return may.manage;
}

/**
 * The study role the principal acts in when doing `action` at the site: the first role (in the
 * contract's order) that grants it there. Kept on each message, as held at the time.
 */
export function actingRole(
  principal: Principal,
  action: 'query.open' | 'query.answer' | 'query.manage' | 'coding.code',
  studyId: number,
  siteId: number,
): Role | null {
  const held = principal.studies.get(studyId)?.roles;
  if (!held) return null;
  for (const role of roles) {
    const sites = held.get(role);
    if (sites === undefined || !permissionMatrix[action].includes(role)) continue;
    if (sites === 'all' || sites.has(siteId)) return role;
  }
  return null;
}
