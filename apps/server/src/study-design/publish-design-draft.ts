import type { StudyDefinition } from '@cdms/study';
import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import type { Language } from '../http/language.ts';
import { definitionContentHash } from '../studies/definition-content-hash.ts';
import { checkPublishableDefinition } from './check-publishable-definition.ts';
import { closeDesignDraft } from './close-design-draft.ts';
import { requireDraftRevision } from './design-draft-row.ts';
import { publishStudyDefinition } from './publish-study-definition.ts';
import { requireStudyInDesign } from './require-study-in-design.ts';

/**
 * `POST …/design-draft/publish` (issue 48 item 7): the draft the designer sees (its revision) becomes
 * the study's current version. Refused, with nothing written, when the draft moved on since (409), when
 * it has a definition problem (422 `invalid_definition` with every problem, as an upload), when it
 * names another study's key, and — when the study asks for it — without an approval of this very
 * content (409 `design_approval_required`). In the publication's transaction the draft,
 * its changes list and its review are closed: the next edit starts a new draft on the new version.
 * While the study is in design a publish replaces the version of the same number; once live, changes
 * go through amendments (a later issue), and the study is refused here (409 `study_not_in_design`).
 */
export async function publishDesignDraft(
  db: Kysely<Database>,
  actor: AuditActor,
  studyId: number,
  revision: number,
  language: Language,
): Promise<{ version: string; contentHash: string }> {
  await requireStudyInDesign(db, studyId);
  const draft = await requireDraftRevision(db, studyId, revision, language);
  const definition = await checkPublishableDefinition(db, studyId, draft.definition);
  const contentHash = definitionContentHash(definition);
  return publishStudyDefinition(db, actor, studyId, definition, {
    replacingDraft: true,
    // Checked again under the study's row lock the publication takes: a save or an approval
    // committed since the checks above decides.
    inTheSameTransaction: async (trx) => {
      const study = await requireStudyInDesign(trx, studyId);
      const locked = await requireDraftRevision(trx, studyId, revision, language);
      if (definitionContentHash(locked.definition as StudyDefinition) !== contentHash)
        throw new AppError(409, 'design_draft_required');
      const review = await trx
        .selectFrom('study_design_reviews')
        .select(['id', 'approved_hash'])
        .where('study_id', '=', studyId)
        .where('closed_at', 'is', null)
        .executeTakeFirst();
      // The approval covers the content signed: edits undone back to it are still what was approved.
      const approved = review !== undefined && review.approved_hash === contentHash;
      if (study.designApprovalRequired && !approved) throw new AppError(409, 'design_approval_required');
      const now = new Date();
      await closeDesignDraft(trx, studyId, now);
    },
  });
}
