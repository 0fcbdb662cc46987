import type { SaveDesignDraftRequest, SaveDesignDraftResponse } from '@cdms/contract';
import type { StudyDefinition } from '@cdms/study';
import type { Kysely, Transaction } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Principal } from '../auth/principal.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import type { Language } from '../http/language.ts';
import { definitionContentHash } from '../studies/definition-content-hash.ts';
import { currentStudyDefinition } from '../studies/study-definitions.ts';
import { describeDraftChanges } from './describe-draft-changes.ts';
import { type DesignDraftRow, designDraftRow, draftChanged } from './design-draft-row.ts';
import { requireStudyDraftable } from './require-study-in-design.ts';

/**
 * `PUT …/design-draft` (issue 48 item 6): the designer's work saved as it goes. The request names the
 * revision its edit was made on; when someone saved another since (another designer, or the same one
 * in another tab), nothing is written and the answer is a 409 `design_draft_changed` naming who saved
 * which revision and how their draft differs from the one sent — what to merge. Otherwise, under the
 * study's row lock, the draft becomes the next revision, its changes are kept with who saved them, and
 * the save is audited. A draft may still have problems (they are refused at publish, not here: work
 * in progress is never lost). Sending the draft as it is writes nothing.
 */
export async function saveDesignDraft(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  studyId: number,
  request: SaveDesignDraftRequest,
  language: Language,
): Promise<SaveDesignDraftResponse> {
  return inTransaction(db, async (trx) => {
    await requireStudyDraftable(trx, studyId);
    const draft = await designDraftRow(trx, studyId);
    const revision = draft?.revision ?? 0;
    if (request.baseRevision !== revision) {
      // No draft while the edit was made on one: it was published since.
      if (!draft) throw new AppError(409, 'design_draft_gone');
      throw draftChanged(draft, request.definition, language);
    }
    // The database's JSON keeps its own key order: the two are compared by content.
    if (draft && sameContent(draft.definition, request.definition))
      return { revision, savedAt: draft.saved_at.toISOString() };
    return writeDesignDraftRevision(trx, principal, actor, studyId, draft, request.definition);
  });
}

/**
 * Writes `definition` as the draft's next revision (the first when there is none, started from the
 * published version), keeps its changes with who saved it, and audits the save — in the caller's
 * transaction, under the study's row lock. Shared by the designer's save and an amendment's opening.
 */
export async function writeDesignDraftRevision(
  trx: Transaction<Database>,
  principal: Principal,
  actor: AuditActor,
  studyId: number,
  draft: DesignDraftRow | undefined,
  definition: unknown,
): Promise<SaveDesignDraftResponse> {
  const revision = draft?.revision ?? 0;
  const published = draft ? undefined : await currentStudyDefinition(trx, studyId);
  const before = draft?.definition ?? published?.definition;
  const changes = describeDraftChanges(before, definition);
  const next = revision + 1;
  const savedAt = new Date();
  const text = JSON.stringify(definition);
  if (draft)
    await trx
      .updateTable('study_design_drafts')
      .set({ revision: next, definition: text, saved_by: principal.user.id, saved_at: savedAt })
      .where('study_id', '=', studyId)
      .execute();
  else
    await trx
      .insertInto('study_design_drafts')
      .values({
        study_id: studyId,
        revision: next,
        definition: text,
        based_on_hash: published ? definitionContentHash(published.definition) : null,
        saved_by: principal.user.id,
        saved_at: savedAt,
      })
      .execute();
  await trx
    .insertInto('study_design_draft_changes')
    .values({
      study_id: studyId,
      revision: next,
      saved_by: principal.user.id,
      saved_at: savedAt,
      lines: JSON.stringify(changes.lines),
      line_count: changes.lineCount,
    })
    .execute();
  await recordAudit(trx, actor, {
    type: 'study.design_draft_saved',
    entityType: 'study_design_draft',
    entityId: studyId,
    studyId,
    after: { revision: next, changes: changes.lineCount, bytes: Buffer.byteLength(text) },
  });
  return { revision: next, savedAt: savedAt.toISOString() };
}

function sameContent(stored: unknown, sent: unknown): boolean {
  return definitionContentHash(stored as StudyDefinition) === definitionContentHash(sent as StudyDefinition);
}
