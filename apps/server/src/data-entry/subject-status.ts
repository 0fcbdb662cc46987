import { todayInKorea } from '@cdms/contract';
import { computeSubjectStatus, type StudyDefinition, type SubjectEvaluation } from '@cdms/study';
import type { Transaction } from 'kysely';
import type { AfterChange } from '../after-change/form-change.ts';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { subjectAuditScope } from '../audit/subject-audit-scope.ts';
import type { Database, SubjectStatus } from '../db/schema.ts';
import { notifyCasebookReadyToSign } from '../notifications/notify-signature.ts';
import type { SubjectWithSite } from '../subjects/subject-access.ts';

/** After a save: the subject's status from the data. */
export const updateSubjectStatusAfterChange: AfterChange = async (change) => {
  // The subject's row has been locked since the start, so its status read then is still current.
  change.effects.statusChanged = await updateSubjectStatus(
    change.trx,
    change.definition,
    change.subject,
    change.statusBefore,
    change.evaluation,
    change.actor,
  );
};

/**
 * The subject's status follows from the data after every save (the definition's status rules);
 * it is never set by a client. A change is audited with the rule that caused it. Returns whether
 * the status changed.
 */
async function updateSubjectStatus(
  trx: Transaction<Database>,
  definition: StudyDefinition,
  subject: SubjectWithSite,
  currentStatus: SubjectStatus,
  evaluation: SubjectEvaluation,
  actor: AuditActor,
): Promise<boolean> {
  const { status, rule } = computeSubjectStatus(definition, evaluation.data, todayInKorea());
  if (currentStatus === status) return false;
  await trx.updateTable('subjects').set({ status }).where('id', '=', subject.id).execute();
  subject.status = status;
  await recordAudit(trx, actor, {
    type: 'subject.status_changed',
    entityType: 'subject',
    entityId: subject.id,
    ...subjectAuditScope(subject),
    before: { status: currentStatus },
    after: { status, cause: rule ?? 'no_rule_holds' },
  });
  if (status === 'complete' || status === 'dropout') await notifyCasebookReadyToSign(trx, subject, status);
  return true;
}
