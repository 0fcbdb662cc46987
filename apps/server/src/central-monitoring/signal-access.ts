import type { Kysely, Transaction } from 'kysely';
import { authorize } from '../auth/authorize.ts';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import type { SignalItemDraft, SignalSubjectDraft } from './signal-draft.ts';

/**
 * A signal of the study at a site where the reader holds `monitoring.review` (404 otherwise, as for a
 * signal that does not exist: one out of scope is not shown), locked for the caller's transaction
 * when asked.
 */
export async function findSignalInScope(
  db: Kysely<Database> | Transaction<Database>,
  principal: Principal,
  studyId: number,
  signalId: number,
  options: { forUpdate?: boolean } = {},
) {
  let query = db
    .selectFrom('monitoring_signals')
    .select(['id', 'site_id', 'kind', 'state', 'items', 'subjects', 'fingerprint'])
    .where('id', '=', signalId)
    .where('study_id', '=', studyId);
  if (options.forUpdate) query = query.forUpdate();
  const signal = await query.executeTakeFirst();
  if (!signal) throw new AppError(404, 'not_found');
  try {
    authorize(principal, 'monitoring.review', { studyId, siteId: signal.site_id });
  } catch {
    throw new AppError(404, 'not_found');
  }
  return {
    ...signal,
    items: signal.items as SignalItemDraft[],
    subjects: signal.subjects as SignalSubjectDraft[],
  };
}

/** A dismissed signal takes no other action: it was judged (409 `monitoring_signal_dismissed`). */
export function refuseDismissed(state: string): void {
  if (state === 'dismissed') throw new AppError(409, 'monitoring_signal_dismissed');
}
