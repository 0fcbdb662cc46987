import {
  type AddUnscheduledVisitRequest,
  todayInKorea,
  type UnscheduledVisit,
  unscheduledVisitDateProblem,
} from '@cdms/contract';
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
import { currentStudyDefinition } from '../studies/study-definitions.ts';
import { lockLiveSubject } from '../subjects/lock-live-subject.ts';
import { findSubjectInScope } from '../subjects/subject-access.ts';

/**
 * Adds an unscheduled visit to a subject (issue 19 item 1): whoever may enter the subject's data
 * (`subject.write`: PI, SI, CRC of its site, after required training), with its date and reason. It is
 * a data change: a freeze or lock over the subject, its site or the study refuses it (423), as it
 * refuses a save. The repeat key is the subject's highest so far plus one, deleted visits included, so a
 * key is never reused; the subject row's lock (every save takes it) serialises two adds.
 */
export async function addUnscheduledVisit(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  input: { studyId: number; subjectId: number; request: AddUnscheduledVisitRequest },
): Promise<UnscheduledVisit> {
  const { visitDate, reason } = input.request;
  return inTransaction(db, async (trx) => {
    const subject = await findSubjectInScope(trx, principal, input.studyId, input.subjectId, 'subject.write');
    const current = await currentStudyDefinition(trx, subject.study_id);
    if (!current?.definition.unscheduledVisit) throw new AppError(409, 'unscheduled_visits_not_declared');
    const dateProblem = unscheduledVisitDateProblem(visitDate, subject.consent_date, todayInKorea());
    if (dateProblem === 'unscheduled_visit_date_in_future') throw new AppError(422, dateProblem);
    if (dateProblem) throw new AppError(422, dateProblem, { consentDate: subject.consent_date });
    await lockLiveSubject(trx, subject.id);
    await refuseWriteUnderHolds(trx, 'form.save', subjectTarget(subject));

    const highest = await trx
      .selectFrom('unscheduled_visits')
      .select((eb) => eb.fn.max<number | null>('repeat_key').as('highest'))
      .where('subject_id', '=', subject.id)
      .executeTakeFirstOrThrow();
    const repeatKey = (highest.highest ?? 0) + 1;
    const row = await trx
      .insertInto('unscheduled_visits')
      .values({
        study_id: subject.study_id,
        subject_id: subject.id,
        repeat_key: repeatKey,
        visit_date: visitDate,
        reason,
        created_by: principal.user.id,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const visitKey = unscheduledVisitKey(repeatKey);
    await recordAudit(trx, actor, {
      type: 'visit.unscheduled_added',
      entityType: 'visit',
      entityId: visitKey,
      ...subjectAuditScope(subject),
      after: { visitKey, repeatKey, visitDate },
      reason,
    });
    return {
      visitKey,
      repeatKey,
      visitDate: row.visit_date,
      reason: row.reason,
      createdAt: row.created_at.toISOString(),
      hasData: false,
    };
  });
}
