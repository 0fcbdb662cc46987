import type {
  NoticeDetail,
  NoticeListResponse,
  NoticeSummary,
  NoticeUpdate,
  noticeListQuerySchema,
  noticeWriteSchema,
} from '@cdms/contract';
import { isBlankRichText, presetDates, startOfKoreanDay } from '@cdms/contract';
import { type Kysely, sql } from 'kysely';
import type { z } from 'zod';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { updateRowAudited } from '../audit/audited-row.ts';
import { can } from '../auth/permissions.ts';
import type { Principal } from '../auth/principal.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database, NoticeRow } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { sanitizeRichText } from './sanitize-html.ts';

/** Study notices may be written by roles with notice.write; global ones by system administrators. */
export function canWriteNotices(principal: Principal, studyId: number): boolean {
  return principal.user.is_admin || can(principal, 'notice.write', { studyId });
}

function canWriteNotice(principal: Principal, studyId: number, notice: Pick<NoticeRow, 'study_id'>): boolean {
  return notice.study_id === null ? principal.user.is_admin : canWriteNotices(principal, studyId);
}

type ListFilter = z.output<typeof noticeListQuerySchema>;

/**
 * A page of the study's notices (and the global ones): pinned first, then newest first. Hidden
 * notices only appear for those who may write notices. `start`/`end` are UTC+9 days; `range`
 * 3 or 6 without dates means the last 3 or 6 months.
 */
export async function listNotices(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
  filter: ListFilter,
): Promise<NoticeListResponse> {
  const writer = canWriteNotices(principal, studyId);
  let start = filter.start;
  let end = filter.end;
  if (!start && !end && filter.range && filter.range !== 'all') ({ start, end } = presetDates(filter.range));
  if (start && end && start > end)
    throw new AppError(400, 'validation_failed', {}, [{ path: '/start', message: 'start_after_end' }]);

  let base = db
    .selectFrom('notices')
    .innerJoin('users', 'users.id', 'notices.author_user_id')
    .where('notices.deleted_at', 'is', null)
    .where((eb) => eb.or([eb('notices.study_id', '=', studyId), eb('notices.study_id', 'is', null)]));
  if (!writer) base = base.where('notices.visible', '=', true);
  if (start) base = base.where('notices.created_at', '>=', startOfKoreanDay(start));
  if (end)
    base = base.where('notices.created_at', '<', new Date(startOfKoreanDay(end).getTime() + 86_400_000));
  if (filter.search) {
    const pattern = `%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    base = base.where((eb) =>
      eb.or([eb('notices.title', 'ilike', pattern), eb('notices.content_html', 'ilike', pattern)]),
    );
  }

  const { total } = await base.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow();
  const offset = (filter.page - 1) * filter.size;
  const rows = await base
    .select([
      'notices.id',
      'notices.title',
      'notices.pinned',
      'notices.visible',
      'notices.study_id',
      'notices.created_at',
      'users.name as writer',
    ])
    .orderBy('notices.pinned', 'desc')
    .orderBy('notices.created_at', 'desc')
    .orderBy('notices.id', 'desc')
    .limit(filter.size)
    .offset(offset)
    .execute();
  const notices: NoticeSummary[] = rows.map((row, index) => ({
    id: row.id,
    no: total - offset - index,
    title: row.title,
    writer: row.writer,
    createdAt: row.created_at.toISOString(),
    pinned: row.pinned,
    visible: row.visible,
    global: row.study_id === null,
  }));
  return { notices, total, page: filter.page, size: filter.size, canWrite: writer };
}

async function findNotice(db: Kysely<Database>, studyId: number, noticeId: number) {
  return db
    .selectFrom('notices')
    .innerJoin('users', 'users.id', 'notices.author_user_id')
    .selectAll('notices')
    .select('users.name as writer')
    .where('notices.id', '=', noticeId)
    .where('notices.deleted_at', 'is', null)
    .where((eb) => eb.or([eb('notices.study_id', '=', studyId), eb('notices.study_id', 'is', null)]))
    .executeTakeFirst();
}

export async function getNotice(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
  noticeId: number,
): Promise<NoticeDetail> {
  const notice = await findNotice(db, studyId, noticeId);
  if (!notice || (!notice.visible && !canWriteNotices(principal, studyId)))
    throw new AppError(404, 'not_found');
  return {
    id: notice.id,
    no: notice.id,
    title: notice.title,
    writer: notice.writer,
    createdAt: notice.created_at.toISOString(),
    updatedAt: notice.updated_at.toISOString(),
    pinned: notice.pinned,
    visible: notice.visible,
    global: notice.study_id === null,
    contentHtml: notice.content_html,
    canEdit: canWriteNotice(principal, studyId, notice),
  };
}

function cleanContent(html: string): string {
  const clean = sanitizeRichText(html);
  if (isBlankRichText(clean)) throw new AppError(422, 'content_required');
  return clean;
}

function auditView(notice: Pick<NoticeRow, 'title' | 'pinned' | 'visible' | 'study_id' | 'content_html'>) {
  return {
    title: notice.title,
    pinned: notice.pinned,
    visible: notice.visible,
    global: notice.study_id === null,
    contentHtml: notice.content_html,
  };
}

export async function createNotice(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  studyId: number,
  input: z.output<typeof noticeWriteSchema>,
): Promise<NoticeDetail> {
  const global = input.scope === 'global';
  if (global ? !principal.user.is_admin : !canWriteNotices(principal, studyId))
    throw new AppError(403, 'forbidden');
  const content = cleanContent(input.contentHtml);
  const id = await inTransaction(db, async (trx) => {
    const notice = await trx
      .insertInto('notices')
      .values({
        study_id: global ? null : studyId,
        title: input.title,
        content_html: content,
        pinned: input.pinned,
        visible: input.visible,
        author_user_id: principal.user.id,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, actor, {
      type: 'notice.created',
      entityType: 'notice',
      entityId: notice.id,
      studyId: notice.study_id,
      after: auditView(notice),
    });
    return notice.id;
  });
  return getNotice(db, principal, studyId, id);
}

export async function updateNotice(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  studyId: number,
  noticeId: number,
  input: NoticeUpdate,
): Promise<NoticeDetail> {
  const before = await findNotice(db, studyId, noticeId);
  if (!before || (!before.visible && !canWriteNotices(principal, studyId)))
    throw new AppError(404, 'not_found');
  if (!canWriteNotice(principal, studyId, before)) throw new AppError(403, 'forbidden');
  const content = input.contentHtml === undefined ? undefined : cleanContent(input.contentHtml);
  await inTransaction(db, async (trx) => {
    const after = await trx
      .updateTable('notices')
      .set({
        ...(input.title === undefined ? {} : { title: input.title.trim() }),
        ...(content === undefined ? {} : { content_html: content }),
        ...(input.pinned === undefined ? {} : { pinned: input.pinned }),
        ...(input.visible === undefined ? {} : { visible: input.visible }),
        updated_at: new Date(),
      })
      .where('id', '=', noticeId)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, actor, {
      type: 'notice.updated',
      entityType: 'notice',
      entityId: noticeId,
      studyId: before.study_id,
      before: auditView(before),
      after: auditView(after),
    });
  });
  return getNotice(db, principal, studyId, noticeId);
}

export async function deleteNotice(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  studyId: number,
  noticeId: number,
): Promise<void> {
  const before = await findNotice(db, studyId, noticeId);
  if (!before || (!before.visible && !canWriteNotices(principal, studyId)))
    throw new AppError(404, 'not_found');
  if (!canWriteNotice(principal, studyId, before)) throw new AppError(403, 'forbidden');
  await inTransaction(db, async (trx) => {
    await updateRowAudited(
      trx,
      actor,
      { table: 'notices', id: noticeId, set: { deleted_at: new Date() } },
      { type: 'notice.deleted', studyId: before.study_id, before: auditView(before) },
    );
  });
}
