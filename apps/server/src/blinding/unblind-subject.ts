import type { UnblindSubjectResponse } from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { subjectAuditScope } from '../audit/subject-audit-scope.ts';
import type { Principal } from '../auth/principal.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { enqueueNotification } from '../notifications/enqueue-notification.ts';
import { activeMembers, membersAtSite } from '../notifications/recipients.ts';
import { verifySigningCredentials } from '../signature-state/verify-signing-credentials.ts';
import { readStudyCode } from '../studies/study-code.ts';
import { formatRandomizationNumber } from '../subjects/randomization-state.ts';
import { findSubjectInScope, type SubjectWithSite } from '../subjects/subject-access.ts';

export interface UnblindSubjectInput {
  studyId: number;
  subjectId: number;
  reason: string;
  password: string;
  code?: string | undefined;
}

/**
 * Emergency unblinding (issue 51 item 3): the PI of the subject's site (`blind.break`; another site's
 * subject is a 404, another role a 403) breaks the blind of ONE randomized subject, with a reason and
 * their password entered again (the check of an electronic signature, `verifySigningCredentials`; a
 * wrong one changes nothing but is audited and counted, as a signature's is). In one transaction: the
 * unblinding row, its audit record and the sponsor's notices (safety desk, data management, unblinded
 * desk, the site's monitor) — none of which names the group. The PI gets the group in the answer; from
 * then on the PI and staff of that site see it on the subject (`may-know-group.ts`). Twice is 409.
 *
 * Deliberately NOT behind the training gate (`training-gate.ts`): an emergency must never wait for a
 * course — `blind.break` is not one of the gated actions.
 */
export async function unblindSubject(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  input: UnblindSubjectInput,
): Promise<UnblindSubjectResponse> {
  const { studyId, subjectId } = input;
  const subject = await findSubjectInScope(db, principal, studyId, subjectId, 'blind.break');
  await refuseIfUnblinded(db, subject.id);
  await verifySigningCredentials(db, principal.user, input, new Date(), async (failure) => {
    await recordAudit(db, actor, {
      type: 'subject.unblinding_failed',
      entityType: 'subject',
      entityId: subject.id,
      ...subjectAuditScope(subject),
      after: failure,
    });
  });
  try {
    return await inTransaction(db, async (trx) => {
      await trx.selectFrom('subjects').select('id').where('id', '=', subject.id).forUpdate().execute();
      await refuseIfUnblinded(trx, subject.id);
      const slot = await trx
        .selectFrom('randomization_slots')
        .innerJoin('studies', 'studies.id', 'randomization_slots.study_id')
        .select(['randomization_slots.treatment_group', 'randomization_slots.sequence'])
        .select('studies.randomization_number_format')
        .where('randomization_slots.subject_id', '=', subject.id)
        .executeTakeFirst();
      if (!slot) throw new AppError(409, 'not_randomized');
      const row = await trx
        .insertInto('subject_unblindings')
        .values({
          study_id: studyId,
          site_id: subject.site_id,
          subject_id: subject.id,
          reason: input.reason,
          unblinded_by: principal.user.id,
        })
        .returning(['id', 'unblinded_at'])
        .executeTakeFirstOrThrow();
      // The audit trail is read by people kept blind: it records that, why and when, never the group.
      await recordAudit(trx, actor, {
        type: 'subject.unblinded',
        entityType: 'subject',
        entityId: subject.id,
        ...subjectAuditScope(subject),
        reason: input.reason,
        after: { unblindedAt: row.unblinded_at.toISOString() },
      });
      await notifySponsor(trx, subject, input.reason, principal.user.name);
      return {
        group: slot.treatment_group,
        randomizationNumber: formatRandomizationNumber(
          slot.randomization_number_format,
          subject.institution_number,
          slot.sequence,
        ),
        unblindedAt: row.unblinded_at.toISOString(),
      };
    });
  } catch (error) {
    if (isUniqueViolation(error, 'subject_unblindings_subject_id_key'))
      throw new AppError(409, 'already_unblinded');
    throw error;
  }
}

async function refuseIfUnblinded(db: Kysely<Database>, subjectId: number): Promise<void> {
  const row = await db
    .selectFrom('subject_unblindings')
    .select('id')
    .where('subject_id', '=', subjectId)
    .executeTakeFirst();
  if (row) throw new AppError(409, 'already_unblinded');
}

/**
 * The sponsor hears at once, in the same transaction: the study's safety desk, data management and
 * unblinded desk, and the monitor of the subject's site. The notice names the subject and the reason,
 * not the group (most of its readers stay blind).
 */
async function notifySponsor(
  trx: Parameters<Parameters<typeof inTransaction>[1]>[0],
  subject: SubjectWithSite,
  reason: string,
  piName: string,
): Promise<void> {
  const studyCode = await readStudyCode(trx, subject.study_id);
  const desks = await activeMembers(trx, subject.study_id, ['SAFETY', 'DM', 'UNBLINDED'], []);
  const monitors = await membersAtSite(trx, subject.study_id, subject.site_id, ['CRA']);
  const who = `${subject.screening_number} (${subject.site_code})`;
  await enqueueNotification(trx, {
    eventType: 'blind_broken',
    studyId: subject.study_id,
    siteId: subject.site_id,
    recipientUserIds: [...desks, ...monitors],
    message: {
      subject: {
        ko: `[CDMS] ${studyCode} 응급 눈가림 해제: ${who}`,
        en: `[CDMS] ${studyCode} emergency unblinding: ${who}`,
      },
      body: {
        ko: `${studyCode}의 대상자 ${who}의 눈가림을 시험책임자(${piName})가 응급 해제했습니다.\n사유: ${reason}`,
        en: `The PI ${piName} broke the blind of subject ${who} in ${studyCode} in an emergency.\nReason: ${reason}`,
      },
    },
  });
}
