import { WHOLE_FORM_ITEM_PATH } from '@cdms/contract';
import { type Kysely, sql } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Principal } from '../auth/principal.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { openManualQuery, type PreparedManualQuery, prepareManualQuery } from '../queries/create-query.ts';
import { findSignalInScope, refuseDismissed } from './signal-access.ts';

/**
 * A signal turned into queries (issue 50 item 3): one manual query per item × subject the signal
 * names, each on the item at the subject's visit the signal found (the whole form for a duplicated
 * record), all with one text, through the query feature's own checks and opening
 * (`queries/create-query.ts`), in one transaction with the signal marked `queried` with their ids and
 * one audit record of the signal. Refused for a dismissed signal (409) and for one that names no
 * item at a visit (409 `monitoring_signal_nothing_to_query`).
 */
export async function raiseSignalQueries(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  studyId: number,
  signalId: number,
  text: string,
): Promise<number[]> {
  const signal = await findSignalInScope(db, principal, studyId, signalId);
  refuseDismissed(signal.state);
  const prepared: PreparedManualQuery[] = [];
  for (const subject of signal.subjects)
    for (const item of signal.items) {
      const visitKey = item.visitKey ?? subject.visitKey;
      if (!visitKey) continue;
      prepared.push(
        await prepareManualQuery(db, principal, studyId, {
          subjectPk: subject.subjectId,
          visitKey,
          formKey: item.formKey,
          itemPath: item.itemKey === '' ? WHOLE_FORM_ITEM_PATH : item.itemKey,
          text,
          assignee: 'site',
        }),
      );
    }
  if (prepared.length === 0) throw new AppError(409, 'monitoring_signal_nothing_to_query');
  // Subjects in id order, as every write that locks several does.
  prepared.sort((a, b) => a.subject.id - b.subject.id);
  return inTransaction(db, async (trx) => {
    const locked = await findSignalInScope(trx, principal, studyId, signalId, { forUpdate: true });
    refuseDismissed(locked.state);
    const queryIds: number[] = [];
    for (const query of prepared) queryIds.push(await openManualQuery(trx, principal, actor, query));
    const at = new Date();
    await trx
      .updateTable('monitoring_signals')
      .set({
        state: 'queried',
        resolution: JSON.stringify({ by: principal.user.name, at: at.toISOString(), text, queryIds }),
        updated_at: sql<Date>`now()`,
      })
      .where('id', '=', signalId)
      .execute();
    await recordAudit(trx, actor, {
      type: 'monitoring.signal_queried',
      entityType: 'monitoring_signal',
      entityId: signalId,
      studyId,
      siteId: locked.site_id,
      before: { state: locked.state },
      after: { state: 'queried', signalKind: locked.kind, queryIds, text },
    });
    return queryIds;
  });
}
