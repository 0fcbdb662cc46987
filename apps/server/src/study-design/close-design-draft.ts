import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { closeOpenDesignReview } from './open-design-review.ts';

/**
 * The study's design draft ended — published, or its amendment published or discarded: its open
 * review closed (comments and approval stay), its changes list and the draft removed, so the next
 * edit starts a new draft on the version then in force. In the caller's transaction.
 */
export async function closeDesignDraft(trx: Transaction<Database>, studyId: number, at: Date): Promise<void> {
  await closeOpenDesignReview(trx, studyId, at);
  await trx.deleteFrom('study_design_draft_changes').where('study_id', '=', studyId).execute();
  await trx.deleteFrom('study_design_drafts').where('study_id', '=', studyId).execute();
}
