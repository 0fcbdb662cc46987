import type { StudyDefinition } from '@cdms/study';
import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { definitionContentHash } from '../studies/definition-content-hash.ts';
import { lockStudyRow } from '../studies/lock-study-row.ts';
import { closeDesignDraft } from '../study-design/close-design-draft.ts';
import { designDraftRow } from '../study-design/design-draft-row.ts';
import { requireAmendment, requireDraftAmendment } from './amendment-rows.ts';

/**
 * `POST …/amendments/:amendmentId/discard`: a draft amendment given up, with a reason. Its row stays
 * (status `discarded`, its number free again) and the design draft that held its next version is
 * removed with its review; the audit keeps the reason and the discarded draft's revision and content
 * hash. The live version is untouched.
 */
export async function discardAmendment(
  db: Kysely<Database>,
  actor: AuditActor,
  studyId: number,
  amendmentId: number,
  reason: string,
): Promise<{ id: number }> {
  return inTransaction(db, async (trx) => {
    await lockStudyRow(trx, studyId);
    const amendment = await requireAmendment(trx, studyId, amendmentId);
    requireDraftAmendment(amendment);
    const draft = await designDraftRow(trx, studyId);
    const now = new Date();
    await trx
      .updateTable('study_amendments')
      .set({ status: 'discarded', closed_at: now })
      .where('id', '=', amendmentId)
      .execute();
    await closeDesignDraft(trx, studyId, now);
    await recordAudit(trx, actor, {
      type: 'study.amendment_discarded',
      entityType: 'study_amendment',
      entityId: amendmentId,
      studyId,
      reason,
      before: {
        number: amendment.number,
        draftRevision: draft?.revision ?? null,
        draftHash: draft ? safeHash(draft.definition) : null,
      },
    });
    return { id: amendmentId };
  });
}

/** The draft's content hash; a document too broken to hash is recorded as null. */
function safeHash(document: unknown): string | null {
  try {
    return definitionContentHash(document as StudyDefinition);
  } catch {
    return null;
  }
}
