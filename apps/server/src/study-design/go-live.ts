import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { updateRowAudited } from '../audit/audited-row.ts';
import type { Principal } from '../auth/principal.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import {
  type SigningCredentials,
  type SigningFailure,
  verifySigningCredentials,
} from '../signature-state/verify-signing-credentials.ts';
import { definitionContentHash } from '../studies/definition-content-hash.ts';
import { currentStudyDefinition } from '../studies/study-definitions.ts';
import { requireStudyInDesign } from './require-study-in-design.ts';

/** What the go-live signature means (21 CFR 11.50(a)(3)), recorded with it. */
export const GO_LIVE_MEANING = {
  ko: '이 임상시험의 설계를 승인하고 자료 입력을 개시합니다.',
  en: "I approve this study's design and open it for data entry.",
};

/**
 * An administrator of the study approves its design and opens it for data entry (issue 45 item 1):
 * an e-signature — their password again, and their code with two-factor sign-in — with the meaning
 * "approved". The study needs a definition and at least one site. In one transaction, under the
 * study's row lock (an upload waits for it, then finds the study live): the status, the time, the
 * audit record naming the approved version and its content hash. A wrong password changes nothing
 * but is audited and counted like a casebook signature's.
 */
export async function goLive(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  studyId: number,
  credentials: SigningCredentials,
): Promise<{ status: 'active'; version: string; contentHash: string }> {
  await requireStudyInDesign(db, studyId);
  const current = await currentStudyDefinition(db, studyId);
  if (!current) throw new AppError(409, 'study_definition_required');
  const site = await db.selectFrom('sites').select('id').where('study_id', '=', studyId).executeTakeFirst();
  if (!site) throw new AppError(409, 'study_sites_required');

  await verifySigningCredentials(db, principal.user, credentials, new Date(), (failure) =>
    auditFailure(db, actor, studyId, failure),
  );

  return inTransaction(db, async (trx) => {
    await requireStudyInDesign(trx, studyId, { forUpdate: true });
    // The version approved is the one current under the lock (an upload before it has committed).
    const approved = await currentStudyDefinition(trx, studyId);
    if (!approved) throw new AppError(409, 'study_definition_required');
    const contentHash = definitionContentHash(approved.definition);
    const wentLiveAt = new Date();
    await updateRowAudited(
      trx,
      actor,
      { table: 'studies', id: studyId, set: { status: 'active', went_live_at: wentLiveAt } },
      {
        type: 'study.went_live',
        studyId,
        before: { status: 'design' },
        after: {
          status: 'active',
          wentLiveAt: wentLiveAt.toISOString(),
          printedName: principal.user.name,
          meaning: GO_LIVE_MEANING,
          version: approved.version,
          contentHash,
        },
      },
    );
    return { status: 'active' as const, version: approved.version, contentHash };
  });
}

/** Audits a refused go-live signature in a transaction of its own: the refusal rolls nothing of it back. */
async function auditFailure(
  db: Kysely<Database>,
  actor: AuditActor,
  studyId: number,
  after: SigningFailure,
): Promise<void> {
  await recordAudit(db, actor, {
    type: 'signature.failed',
    entityType: 'study',
    entityId: studyId,
    studyId,
    after,
  });
}
