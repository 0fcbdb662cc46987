import { type Kysely, sql } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Principal } from '../auth/principal.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { findSignalInScope, refuseDismissed } from './signal-access.ts';

/**
 * A signal noted for the next monitoring visit (`noted`, with the note) or dismissed with a reason
 * (`dismissed`: it stays so across runs), in one transaction with its audit record. A dismissed signal
 * takes neither again (409).
 */
export async function resolveSignal(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  studyId: number,
  signalId: number,
  action: { state: 'noted'; text: string } | { state: 'dismissed'; reason: string },
): Promise<void> {
  await findSignalInScope(db, principal, studyId, signalId);
  await inTransaction(db, async (trx) => {
    const signal = await findSignalInScope(trx, principal, studyId, signalId, { forUpdate: true });
    refuseDismissed(signal.state);
    const text = action.state === 'noted' ? action.text : action.reason;
    await trx
      .updateTable('monitoring_signals')
      .set({
        state: action.state,
        resolution: JSON.stringify({
          by: principal.user.name,
          at: new Date().toISOString(),
          text,
          queryIds: [],
        }),
        updated_at: sql<Date>`now()`,
      })
      .where('id', '=', signalId)
      .execute();
    await recordAudit(trx, actor, {
      type: action.state === 'noted' ? 'monitoring.signal_noted' : 'monitoring.signal_dismissed',
      entityType: 'monitoring_signal',
      entityId: signalId,
      studyId,
      siteId: signal.site_id,
      before: { state: signal.state },
      after:
        action.state === 'noted'
          ? { state: 'noted', signalKind: signal.kind, text }
          : { state: 'dismissed', signalKind: signal.kind },
      ...(action.state === 'dismissed' ? { reason: action.reason } : {}),
    });
  });
}
