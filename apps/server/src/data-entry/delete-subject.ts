import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { updateRowAudited } from '../audit/audited-row.ts';
import { subjectAuditScope } from '../audit/subject-audit-scope.ts';
import type { Principal } from '../auth/principal.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { refuseWriteUnderHolds, subjectTarget } from '../locks/holds-in-force.ts';
import { refreshSubjectFacts } from '../read-model/refresh-subject-facts.ts';
import { findSubjectAndDefinitionInScope } from '../subjects/subject-access.ts';

/**
 * Deletes a subject registered in error (issue "Subject list": PI or CRC of the subject's site, with
 * a reason). Only a subject with nothing beyond its registration may go: any other saved form, a
 * randomization, a query, a comment or a signature refuses it (409 `subject_has_data`), because
 * those belong to the trial record. The row is kept with `deleted_at` set, so the audit trail still
 * points at it; every read leaves deleted subjects out. One transaction: the subject row is locked
 * first, as every save locks it, so no save can slip in between the check and the delete.
 */
export async function deleteSubject(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  input: { studyId: number; subjectId: number; reason: string },
): Promise<void> {
  await inTransaction(db, async (trx) => {
    const { subject, definition } = await findSubjectAndDefinitionInScope(
      trx,
      principal,
      input.studyId,
      input.subjectId,
      'subject.delete',
    );
    await trx.selectFrom('subjects').select('id').where('id', '=', subject.id).forUpdate().execute();
    // Deleted by someone else while this request waited for the lock.
    const still = await trx
      .selectFrom('subjects')
      .select('id')
      .where('id', '=', subject.id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!still) throw new AppError(404, 'not_found');
    await refuseWriteUnderHolds(trx, 'subject.delete', subjectTarget(subject));

    const data = await recordedData(trx, subject.id, definition.roles?.registration);
    if (Object.values(data).some((count) => count > 0)) throw new AppError(409, 'subject_has_data', {}, data);

    await updateRowAudited(
      trx,
      actor,
      { table: 'subjects', id: subject.id, set: { deleted_at: new Date() } },
      {
        type: 'subject.deleted',
        ...subjectAuditScope(subject),
        before: {
          screeningNumber: subject.screening_number,
          initials: subject.initials,
          consentDate: subject.consent_date,
          siteCode: subject.site_code,
          status: subject.status,
        },
        reason: input.reason,
      },
    );
    // A deleted subject leaves every list: its read-model rows go with it.
    await refreshSubjectFacts(trx, subject.id);
    // The subjects registered after it at its site move up one place in the registration order (the
    // SDV plan's "first N subjects"): their facts follow, under their row locks like any write of theirs.
    const later = await trx
      .selectFrom('subjects')
      .select('id')
      .where('site_id', '=', subject.site_id)
      .where('deleted_at', 'is', null)
      .where((eb) =>
        eb.or([
          eb('created_at', '>', subject.created_at),
          eb.and([eb('created_at', '=', subject.created_at), eb('id', '>', subject.id)]),
        ]),
      )
      .orderBy('id')
      .forUpdate()
      .execute();
    for (const row of later) await refreshSubjectFacts(trx, row.id, { studyId: subject.study_id });
  });
}

/**
 * What the subject has beyond its registration, counted by kind (all zero: nothing). The form
 * registration fills (the study's `registration` role) is not data of its own.
 */
async function recordedData(
  trx: Kysely<Database>,
  subjectId: number,
  registration: { visit: string; form: string } | undefined,
): Promise<{ forms: number; randomizations: number; queries: number; comments: number; signatures: number }> {
  const count = (rows: { count: number | string | bigint }) => Number(rows.count);
  let formsQuery = trx
    .selectFrom('form_instances')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('subject_id', '=', subjectId)
    .where('has_data', '=', true);
  if (registration) {
    formsQuery = formsQuery.where((eb) =>
      eb.not(eb.and([eb('visit_key', '=', registration.visit), eb('form_key', '=', registration.form)])),
    );
  }
  const forms = await formsQuery.executeTakeFirstOrThrow();
  const randomizations = await trx
    .selectFrom('randomization_slots')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('subject_id', '=', subjectId)
    .executeTakeFirstOrThrow();
  const queries = await trx
    .selectFrom('queries')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('subject_id', '=', subjectId)
    .executeTakeFirstOrThrow();
  const comments = await trx
    .selectFrom('form_comments')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('subject_id', '=', subjectId)
    .executeTakeFirstOrThrow();
  const signatures = await trx
    .selectFrom('signatures')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('subject_id', '=', subjectId)
    .executeTakeFirstOrThrow();
  return {
    forms: count(forms),
    randomizations: count(randomizations),
    queries: count(queries),
    comments: count(comments),
    signatures: count(signatures),
  };
}
