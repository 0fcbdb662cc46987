import type { AmendmentSummary } from '@cdms/contract';
import type { Kysely, Transaction } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';

type Executor = Kysely<Database> | Transaction<Database>;

/** An amendment's row as its commands use it. */
export interface AmendmentRow {
  id: number;
  study_id: number;
  number: string;
  reason: string;
  status: 'draft' | 'published' | 'discarded';
  declarations: unknown;
  from_version: string;
  /** The version it published; null while a draft (the design draft's) or once discarded. */
  to_version: string | null;
}

/**
 * The amendment of this study (404 `not_found` when the id names none, or one of another study). Its
 * writers read it after taking the study's row lock (`studies/lock-study-row.ts`), so it cannot change under them.
 */
export async function requireAmendment(
  executor: Executor,
  studyId: number,
  amendmentId: number,
): Promise<AmendmentRow> {
  const row = await executor
    .selectFrom('study_amendments')
    .select(['id', 'study_id', 'number', 'reason', 'status', 'declarations', 'from_version', 'to_version'])
    .where('id', '=', amendmentId)
    .where('study_id', '=', studyId)
    .executeTakeFirst();
  if (!row) throw new AppError(404, 'not_found');
  return row;
}

/** 409 `amendment_not_draft` unless the amendment is still a draft (a published or discarded one is history). */
export function requireDraftAmendment(amendment: AmendmentRow): void {
  if (amendment.status !== 'draft') throw new AppError(409, 'amendment_not_draft');
}

/**
 * The study's amendments (or the one `amendmentId` names), newest first, each with who opened and
 * published it and every site of the study with its approval date (null: none yet). `toVersion` of a
 * draft is the design draft's version, read by the caller that has it.
 */
export async function amendmentSummaries(
  executor: Executor,
  studyId: number,
  amendmentId?: number,
): Promise<AmendmentSummary[]> {
  let query = executor
    .selectFrom('study_amendments as a')
    .innerJoin('users as opener', 'opener.id', 'a.opened_by')
    .leftJoin('users as publisher', 'publisher.id', 'a.published_by')
    .select([
      'a.id',
      'a.number',
      'a.reason',
      'a.status',
      'a.from_version',
      'a.to_version',
      'a.content_hash',
      'a.opened_by',
      'a.opened_at',
      'opener.name as opener_name',
      'a.published_by',
      'a.published_at',
      'publisher.name as publisher_name',
    ])
    .select((eb) =>
      jsonArrayFrom(
        eb
          .selectFrom('sites')
          .leftJoin('study_amendment_sites as s', (join) =>
            join.onRef('s.site_id', '=', 'sites.id').onRef('s.amendment_id', '=', 'a.id'),
          )
          .select(['sites.id as siteId', 'sites.code', 'sites.name', 's.effective_on as effectiveOn'])
          .whereRef('sites.study_id', '=', 'a.study_id')
          .orderBy('sites.code'),
      ).as('sites'),
    )
    .where('a.study_id', '=', studyId)
    .orderBy('a.id', 'desc');
  if (amendmentId !== undefined) query = query.where('a.id', '=', amendmentId);
  const rows = await query.execute();
  return rows.map((row) => ({
    id: row.id,
    number: row.number,
    reason: row.reason,
    status: row.status,
    fromVersion: row.from_version,
    toVersion: row.to_version,
    contentHash: row.content_hash,
    openedBy: { userId: row.opened_by, name: row.opener_name, at: row.opened_at.toISOString() },
    publishedBy:
      row.published_by !== null && row.published_at !== null
        ? { userId: row.published_by, name: row.publisher_name ?? '', at: row.published_at.toISOString() }
        : null,
    // A date column inside JSON is text already (YYYY-MM-DD).
    sites: row.sites.map((site) => ({ ...site, effectiveOn: site.effectiveOn ?? null })),
  }));
}
