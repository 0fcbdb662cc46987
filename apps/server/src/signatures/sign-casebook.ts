import { type SignatureResponse, todayInKorea } from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { subjectAuditScope } from '../audit/subject-audit-scope.ts';
import { permissionMatrix } from '../auth/permissions.ts';
import type { Principal } from '../auth/principal.ts';
import { loadSubjectData, writeForm } from '../data-entry/form-data.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { refuseWriteUnderHolds, subjectTarget } from '../locks/holds-in-force.ts';
import { refreshSubjectFacts } from '../read-model/refresh-subject-facts.ts';
import { signedDataHash, signingMeaning, subjectSignature } from '../signature-state/signature-data.ts';
import {
  type SigningFailure,
  verifySigningCredentials,
} from '../signature-state/verify-signing-credentials.ts';
import { findSubjectAndDefinitionInScope, type SubjectWithSite } from '../subjects/subject-access.ts';

export interface SignCasebookInput {
  studyId: number;
  subjectId: number;
  password: string;
  /** The authenticator code, required when the signer has two-factor sign-in. */
  code?: string | undefined;
}

/**
 * The PI signs a subject's casebook (21 CFR 11.50, 11.200): the PI of the subject's site only,
 * with their password entered again. In one transaction: the hash of the data signed, the signing
 * form filled (date in Korea, the signer's name), the signature row with its meaning, the audit
 * record. A wrong password changes nothing but is audited and counted in a transaction of its own.
 */
export async function signCasebook(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  input: SignCasebookInput,
): Promise<SignatureResponse> {
  const { studyId, subjectId } = input;
  // The subject's own version: signing a subject not yet migrated writes and hashes under the
  // version its data was entered on, never the newest one's rules over its older data.
  const current = await findSubjectAndDefinitionInScope(db, principal, studyId, subjectId, 'casebook.sign');
  const subject = current.subject;
  await refuseIfSigned(db, subject.id);

  const user = principal.user;
  await verifySigningCredentials(db, user, input, new Date(), (failure) =>
    auditFailure(db, actor, subject, failure),
  );

  // The role that allows the signature, as the signer holds it at the subject's site today.
  const access = principal.studies.get(studyId);
  const signerRole =
    [...(access?.roles ?? [])].find(
      ([role, sites]) =>
        permissionMatrix['casebook.sign'].includes(role) && (sites === 'all' || sites.has(subject.site_id)),
    )?.[0] ?? null;
  const meaning = signingMeaning(current.definition);
  // The study's signing form (its `signing` role); a study without one records the signature alone.
  const signing = current.definition.roles?.signing;
  const signingForm = signing ? { visitKey: signing.visit, formKey: signing.form } : undefined;

  try {
    await inTransaction(db, async (trx) => {
      // The subject's writers queue on this lock (writeForm takes it too): the hash is of the data
      // as they are when the signature commits.
      await trx.selectFrom('subjects').select('id').where('id', '=', subject.id).forUpdate().execute();
      await refuseIfSigned(trx, subject.id);
      await refuseWriteUnderHolds(trx, 'casebook.sign', subjectTarget(subject, signingForm));
      const stored = await loadSubjectData(trx, subject.id);
      const dataHash = signedDataHash(current.definition, subject.screening_number, stored.entered);
      if (signing) {
        const signingInstance = stored.instances.get(`${signing.visit}.${signing.form}`);
        await writeForm(trx, {
          subject,
          definition: current.definition,
          definitionVersion: current.version,
          visitKey: signing.visit,
          formKey: signing.form,
          values: {
            ...(signing.signatureDate ? { [signing.signatureDate]: todayInKorea() } : {}),
            ...(signing.signerName ? { [signing.signerName]: user.name } : {}),
          },
          expectedVersion: signingInstance?.version ?? 0,
          reasons: {},
          actor,
          systemWrite: true,
        });
      }
      const signature = await trx
        .insertInto('signatures')
        .values({
          study_id: studyId,
          subject_id: subject.id,
          signed_by: user.id,
          printed_name: user.name,
          signer_role: signerRole,
          meaning: JSON.stringify(meaning),
          data_hash: dataHash,
        })
        .returning(['id', 'signed_at'])
        .executeTakeFirstOrThrow();
      await recordAudit(trx, actor, {
        type: 'signature.signed',
        entityType: 'signature',
        entityId: signature.id,
        studyId,
        siteId: subject.site_id,
        subjectId: subject.id,
        after: {
          printedName: user.name,
          role: signerRole,
          signedAt: signature.signed_at.toISOString(),
          meaning,
          dataHash,
        },
      });
      await refreshSubjectFacts(trx, subject.id, { definition: current.definition });
    });
  } catch (error) {
    // Two signing requests at once: the one-valid-signature index lets only one commit.
    if (isUniqueViolation(error, 'signatures_one_valid_per_subject'))
      throw new AppError(409, 'already_signed');
    throw error;
  }
  return subjectSignature(db, principal, subject);
}

async function refuseIfSigned(db: Kysely<Database>, subjectId: number): Promise<void> {
  const valid = await db
    .selectFrom('signatures')
    .select('id')
    .where('subject_id', '=', subjectId)
    .where('invalidated_at', 'is', null)
    .executeTakeFirst();
  if (valid) throw new AppError(409, 'already_signed');
}

/** Audits a refused signature in a transaction of its own: the refusal rolls nothing of it back. */
async function auditFailure(
  db: Kysely<Database>,
  actor: AuditActor,
  subject: SubjectWithSite,
  after: SigningFailure,
): Promise<void> {
  await recordAudit(db, actor, {
    type: 'signature.failed',
    entityType: 'subject',
    entityId: subject.id,
    ...subjectAuditScope(subject),
    after,
  });
}
