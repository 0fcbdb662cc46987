import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { type PublishedAmendment, publishedAmendmentOfRow } from '../studies/amendment-chain.ts';
import { requireAmendment } from './amendment-rows.ts';

type Executor = Kysely<Database> | Transaction<Database>;

/**
 * The amendment of this study, published (404 for none of this study, 409 `amendment_not_published`
 * for a draft or a discarded one), with its versions and change set (`publishedAmendmentOfRow`).
 */
export async function requirePublishedAmendment(
  executor: Executor,
  studyId: number,
  amendmentId: number,
): Promise<PublishedAmendment> {
  const row = await requireAmendment(executor, studyId, amendmentId);
  if (row.status !== 'published' || row.to_version === null)
    throw new AppError(409, 'amendment_not_published');
  return publishedAmendmentOfRow(executor, { ...row, study_id: studyId, to_version: row.to_version });
}
