import type { GuidelineDetail, GuidelineRevision } from '@cdms/contract';
import { type Kysely, sql } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Principal } from '../auth/principal.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { findGuidelineForWrite } from './find-guideline-for-write.ts';
import { getGuideline } from './get-guideline.ts';
import { requireGuidelineWriter } from './guideline-access.ts';
import { guidelineAuditView } from './guideline-content.ts';

/**
 * Drafts a new version of a published guideline: a copy (type, title, body, dates, attachments — the
 * files copied, so the published version keeps its own) with the given version, `supersedes_id`
 * pointing at the original. Readers keep seeing the published one until the draft is published.
 * One open draft per guideline (409 guideline_draft_exists); the version must differ (409).
 */
export async function reviseGuideline(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  studyId: number,
  guidelineId: number,
  input: GuidelineRevision,
): Promise<GuidelineDetail> {
  requireGuidelineWriter(principal, studyId);
  const id = await inTransaction(db, async (trx) => {
    const source = await findGuidelineForWrite(trx, studyId, guidelineId);
    if (source.state !== 'published') throw new AppError(409, 'guideline_not_published');
    const version = input.version.trim();
    if (version === source.version) throw new AppError(409, 'guideline_version_taken');
    const openDraft = await trx
      .selectFrom('guidelines')
      .select('id')
      .where('supersedes_id', '=', guidelineId)
      .where('state', '=', 'draft')
      .executeTakeFirst();
    if (openDraft) throw new AppError(409, 'guideline_draft_exists', { id: openDraft.id });
    const draft = await trx
      .insertInto('guidelines')
      .values({
        study_id: studyId,
        guide_type: source.guide_type,
        title: source.title,
        content_html: source.content_html,
        version,
        effective_date: source.effective_date,
        alarm_start: source.alarm_start,
        alarm_end: source.alarm_end,
        supersedes_id: source.id,
        author_user_id: principal.user.id,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await sql`insert into attachments
        (study_id, owner_kind, owner_id, file_name, content_type, size, sha256, uploaded_by, created_at)
      select study_id, 'guideline', ${draft.id}, file_name, content_type, size, sha256, uploaded_by, created_at
      from attachments where owner_kind = 'guideline' and owner_id = ${source.id}`.execute(trx);
    await recordAudit(trx, actor, {
      type: 'guideline.revised',
      entityType: 'guideline',
      entityId: draft.id,
      studyId,
      after: { ...guidelineAuditView(draft), supersedesId: source.id, previousVersion: source.version },
    });
    return draft.id;
  });
  return getGuideline(db, principal, studyId, id);
}
