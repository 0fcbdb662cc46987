import { unscheduledVisitKey } from '@cdms/study';
import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { subjectAuditScope } from '../audit/subject-audit-scope.ts';
import type { Principal } from '../auth/principal.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { refuseWriteUnderHolds, subjectTarget } from '../locks/holds-in-force.ts';
import { findSubjectInScope } from '../subjects/subject-access.ts';

/**
 * Deletes an unscheduled visit added in error (issue 19 item 1), with a reason (audited). Only an empty
 * one: a form of it with saved data refuses (409 `unscheduled_visit_has_data`) — those data are the trial
 * record. The row stays with `deleted_at`, so the audit trail still names it and its repeat key is never
 * given again. The subject row is locked first, as a save locks it, so no save slips in between.
 */
export async function deleteUnscheduledVisit(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  input: { studyId: number; subjectId: number; repeatKey: number; reason: string },
): Promise<void> {
  await inTransaction(db, async (trx) => {
    const subject = await findSubjectInScope(trx, principal, input.studyId, input.subjectId, 'subject.write');
    await trx.selectFrom('subjects').select('id').where('id', '=', subject.id).forUpdate().execute();
    const visit = await trx
      .selectFrom('unscheduled_visits')
      .selectAll()
      .where('subject_id', '=', subject.id)
      .where('repeat_key', '=', input.repeatKey)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!visit) throw new AppError(404, 'not_found');
    await refuseWriteUnderHolds(trx, 'form.save', subjectTarget(subject));
    const visitKey = unscheduledVisitKey(visit.repeat_key);
    const saved = await trx
      .selectFrom('form_instances')
      .select('id')
      .where('subject_id', '=', subject.id)
      .where('visit_key', '=', visitKey)
      .where('has_data', '=', true)
      .executeTakeFirst();
    if (saved) throw new AppError(409, 'unscheduled_visit_has_data');

    await trx
      .updateTable('unscheduled_visits')
      .set({ deleted_at: new Date(), deleted_by: principal.user.id, deletion_reason: input.reason })
      .where('id', '=', visit.id)
      .execute();
    await recordAudit(trx, actor, {
      type: 'visit.unscheduled_deleted',
      entityType: 'visit',
      entityId: visitKey,
      ...subjectAuditScope(subject),
      before: { visitKey, repeatKey: visit.repeat_key, visitDate: visit.visit_date, reason: visit.reason },
      reason: input.reason,
    });
  });
}
