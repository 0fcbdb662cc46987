import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { type PublishedAmendment, publishedAmendmentOfRow } from '../studies/amendment-chain.ts';
import { type AmendmentRow, requireAmendment } from './amendment-rows.ts';

type Executor = Kysely<Database> | Transaction<Database>;

/**
 * The amendment's row of this study, published (404 for none of this study, 409
 * `amendment_not_published` for a draft or a discarded one): what a read of its versions alone needs.
 */
export async function requirePublishedAmendmentRow(
  executor: Executor,
  studyId: number,
  amendmentId: number,
): Promise<AmendmentRow & { to_version: string }> {
  const row = await requireAmendment(executor, studyId, amendmentId);
  if (row.status !== 'published' || row.to_version === null)
    throw new AppError(409, 'amendment_not_published');
  return { ...row, to_version: row.to_version };
}

/** The published amendment with its versions' definitions and change set (`publishedAmendmentOfRow`). */
export async function requirePublishedAmendment(
  executor: Executor,
  studyId: number,
  amendmentId: number,
): Promise<PublishedAmendment> {
  return publishedAmendmentOfRow(
    executor,
    await requirePublishedAmendmentRow(executor, studyId, amendmentId),
  );
}
