import type { PublishAmendmentRequest } from '@cdms/contract';
import type { Kysely, Transaction } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import {
  type SigningFailure,
  verifySigningCredentials,
} from '../signature-state/verify-signing-credentials.ts';
import { definitionContentHash } from '../studies/definition-content-hash.ts';
import { lockStudyRow } from '../studies/lock-study-row.ts';
import { closeDesignDraft } from '../study-design/close-design-draft.ts';
import { publishStudyDefinition } from '../study-design/publish-study-definition.ts';
import { draftAmendmentState } from './amendment-change-set.ts';
import { type AmendmentRow, requireAmendment, requireDraftAmendment } from './amendment-rows.ts';
import { publishBlocker } from './publish-blocker.ts';

/** What the publisher's e-signature means (21 CFR 11.50(a)(3)), recorded in the audit with the content hash. */
export const AMENDMENT_APPROVAL_MEANING = 'approved';

/**
 * `POST …/amendments/:amendmentId/publish` (issue 49 item 1): the designer approves the amendment with
 * an e-signature (password again, and the authenticator code with two-factor sign-in). Refused with
 * nothing written unless the change set is ready (409 `amendment_not_ready`) and the impact analysis
 * was run on the draft as it is now (409 `amendment_impact_stale`): what is published is what the
 * signer saw the impact of. In one transaction, under the study's row lock (every amendment and draft
 * writer takes it): the checks again, the study's subjects pinned to the version they are on (their
 * data entry keeps using it until the migration moves them, amendment-migration/), the next version
 * written, the design draft closed, the amendment published with the version's content hash, audited
 * with the signature's meaning.
 */
export async function publishAmendment(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  studyId: number,
  amendmentId: number,
  request: PublishAmendmentRequest,
): Promise<void> {
  const amendment = await requireAmendment(db, studyId, amendmentId);
  requireDraftAmendment(amendment);
  const checked = await publishableDraft(db, studyId, amendment);
  await verifySigningCredentials(db, principal.user, request, new Date(), (failure) =>
    auditFailure(db, actor, studyId, amendmentId, failure),
  );
  await publishStudyDefinition(db, actor, studyId, checked.next, {
    inTheSameTransaction: async (trx) => {
      await lockStudyRow(trx, studyId);
      const locked = await requireAmendment(trx, studyId, amendmentId);
      requireDraftAmendment(locked);
      const again = await publishableDraft(trx, studyId, locked);
      // A save, a declaration or a date committed since the checks above: the signer did not see it.
      if (again.contentHash !== checked.contentHash || again.inputsHash !== checked.inputsHash)
        throw new AppError(409, 'amendment_impact_stale');
      const now = new Date();
      await trx
        .updateTable('subjects')
        .set({ definition_version: again.fromVersion })
        .where('study_id', '=', studyId)
        .where('definition_version', 'is', null)
        .execute();
      await trx
        .updateTable('study_amendments')
        .set({
          status: 'published',
          from_version: again.fromVersion,
          to_version: again.next.version,
          content_hash: again.contentHash,
          published_by: principal.user.id,
          published_at: now,
          closed_at: now,
        })
        .where('id', '=', amendmentId)
        .execute();
      await closeDesignDraft(trx, studyId, now);
      await recordAudit(trx, actor, {
        type: 'study.amendment_published',
        entityType: 'study_amendment',
        entityId: amendmentId,
        studyId,
        reason: locked.number,
        after: {
          number: locked.number,
          fromVersion: again.fromVersion,
          toVersion: again.next.version,
          contentHash: again.contentHash,
          draftRevision: again.draftRevision,
          publishedAt: now.toISOString(),
          printedName: principal.user.name,
          meaning: AMENDMENT_APPROVAL_MEANING,
        },
      });
    },
  });
}

/** The draft as it would be published, with what the signer approves: refused unless ready and analyzed. */
async function publishableDraft(
  executor: Kysely<Database> | Transaction<Database>,
  studyId: number,
  amendment: AmendmentRow,
) {
  const state = await draftAmendmentState(executor, studyId, amendment);
  const { blocker, draftRevision, inputsHash } = await publishBlocker(executor, studyId, amendment, state);
  if (blocker === 'noChangeSet' || blocker === 'notReady') throw new AppError(409, 'amendment_not_ready');
  if (blocker !== null) throw new AppError(409, 'amendment_impact_stale');
  if (!state.next || !state.live || draftRevision === null) throw new AppError(409, 'amendment_not_ready');
  return {
    next: state.next,
    fromVersion: state.live.version,
    draftRevision,
    contentHash: definitionContentHash(state.next),
    inputsHash,
  };
}

/** Audits a refused publishing signature in a transaction of its own: the refusal rolls nothing of it back. */
async function auditFailure(
  db: Kysely<Database>,
  actor: AuditActor,
  studyId: number,
  amendmentId: number,
  after: SigningFailure,
): Promise<void> {
  await recordAudit(db, actor, {
    type: 'signature.failed',
    entityType: 'study_amendment',
    entityId: amendmentId,
    studyId,
    after,
  });
}
