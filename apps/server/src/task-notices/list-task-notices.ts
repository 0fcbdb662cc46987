import type {
  Role,
  TaskNotice,
  TaskNoticeListResponse,
  TaskNoticeState,
  taskNoticeListQuerySchema,
} from '@cdms/contract';
import { type Kysely, sql } from 'kysely';
import type { z } from 'zod';
import { presentAttachment } from '../attachments/present-attachment.ts';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import { canWriteGuidelines, requireStudyMember } from '../guidelines/guideline-access.ts';
import { AppError } from '../http/errors.ts';

type ListFilter = z.output<typeof taskNoticeListQuerySchema>;

/**
 * The state of a task notice from its outbox rows: not sent yet → scheduled; any still waiting
 * (queued, sending) → queued; then every message delivered → sent, none → failed, some → partly sent
 * (the others failed or could not be sent: no SMTP, no phone number).
 */
function stateOf(enqueued: boolean, messages: number, delivered: number, waiting: number): TaskNoticeState {
  if (!enqueued) return 'scheduled';
  if (waiting > 0) return 'queued';
  if (delivered === messages) return 'sent';
  return delivered === 0 ? 'failed' : 'partly_sent';
}

/**
 * The study's task notices this principal reads: writers (CRA, DM, ADMIN) every one; other members
 * those addressed to them — one of their memberships holds a named role (or none is named) and
 * covers a named site (or none is named; DM and ADMIN cover every site), as the recipients are chosen.
 */
function selectTaskNotices(db: Kysely<Database>, principal: Principal, studyId: number) {
  const query = db
    .selectFrom('task_notices as t')
    .innerJoin('users', 'users.id', 't.author_user_id')
    .leftJoin('attachments as a', (join) =>
      join.onRef('a.owner_id', '=', 't.id').on('a.owner_kind', '=', 'task_notice'),
    )
    .where('t.study_id', '=', studyId);
  if (canWriteGuidelines(principal, studyId)) return query;
  return query.where((eb) =>
    eb.exists(
      eb
        .selectFrom('memberships as m')
        .select('m.id')
        .where('m.study_id', '=', studyId)
        .where('m.user_id', '=', principal.user.id)
        .where(sql<boolean>`(jsonb_array_length(t.roles) = 0 or t.roles @> jsonb_build_array(m.role))`)
        .where(
          sql<boolean>`(jsonb_array_length(t.site_ids) = 0 or m.role in ('DM', 'ADMIN') or exists (
            select 1 from membership_sites ms
            where ms.membership_id = m.id and t.site_ids @> jsonb_build_array(ms.site_id)))`,
        ),
    ),
  );
}

async function present(
  base: ReturnType<typeof selectTaskNotices>,
  numberFrom: (index: number) => number,
): Promise<TaskNotice[]> {
  const rows = await base
    .selectAll('t')
    .select([
      'users.name as writer',
      'a.id as attachment_id',
      'a.file_name',
      'a.content_type',
      'a.size',
      'a.sha256',
      'a.created_at as attachment_created_at',
    ])
    .select((eb) => [
      eb
        .selectFrom('notifications as n')
        .select(sql<number>`count(*)::int`.as('c'))
        .where('n.dedupe_key', '=', sql<string>`'task_notice:' || t.id`)
        .as('messages'),
      eb
        .selectFrom('notifications as n')
        .select(sql<number>`count(*)::int`.as('c'))
        .where('n.dedupe_key', '=', sql<string>`'task_notice:' || t.id`)
        .where('n.status', '=', 'sent')
        .as('delivered'),
      eb
        .selectFrom('notifications as n')
        .select(sql<number>`count(*)::int`.as('c'))
        .where('n.dedupe_key', '=', sql<string>`'task_notice:' || t.id`)
        .where('n.status', 'in', ['queued', 'sending'])
        .as('waiting'),
    ])
    .execute();
  return rows.map((row, index) => ({
    id: row.id,
    no: numberFrom(index),
    alarmType: row.alarm_type,
    title: row.title,
    content: row.content,
    writer: row.writer,
    createdAt: row.created_at.toISOString(),
    periodStart: row.period_start,
    periodEnd: row.period_end,
    roles: row.roles as Role[],
    siteIds: row.site_ids,
    email: row.email,
    sms: row.sms,
    attachment:
      row.attachment_id &&
      row.file_name &&
      row.content_type &&
      row.size !== null &&
      row.sha256 &&
      row.attachment_created_at
        ? presentAttachment({
            id: row.attachment_id,
            file_name: row.file_name,
            content_type: row.content_type,
            size: row.size,
            sha256: row.sha256,
            created_at: row.attachment_created_at,
          })
        : null,
    state: stateOf(row.enqueued_at !== null, row.messages ?? 0, row.delivered ?? 0, row.waiting ?? 0),
    messages: row.enqueued_at === null ? null : (row.messages ?? 0),
    delivered: row.enqueued_at === null ? null : (row.delivered ?? 0),
  }));
}

/** A page of the task notices the member reads, newest first; counted, filtered and paged in SQL. */
export async function listTaskNotices(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
  filter: ListFilter,
): Promise<TaskNoticeListResponse> {
  requireStudyMember(principal, studyId);
  let base = selectTaskNotices(db, principal, studyId);
  if (filter.type) base = base.where('t.alarm_type', '=', filter.type);
  if (filter.search) {
    const pattern = `%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    base = base.where((eb) => eb.or([eb('t.title', 'ilike', pattern), eb('t.content', 'ilike', pattern)]));
  }
  const { total } = await base.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow();
  const offset = (filter.page - 1) * filter.size;
  const taskNotices = await present(
    base.orderBy('t.created_at', 'desc').orderBy('t.id', 'desc').limit(filter.size).offset(offset),
    (index) => total - offset - index,
  );
  return {
    taskNotices,
    total,
    page: filter.page,
    size: filter.size,
    canWrite: canWriteGuidelines(principal, studyId),
  };
}

/** One task notice (after registering it). */
export async function getTaskNotice(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
  taskNoticeId: number,
): Promise<TaskNotice> {
  requireStudyMember(principal, studyId);
  const [notice] = await present(
    selectTaskNotices(db, principal, studyId).where('t.id', '=', taskNoticeId),
    () => taskNoticeId,
  );
  if (!notice) throw new AppError(404, 'not_found');
  return notice;
}
