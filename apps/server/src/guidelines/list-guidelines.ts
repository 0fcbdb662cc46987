import {
  type GuidelineListResponse,
  type GuidelineSummary,
  type guidelineListQuerySchema,
  todayInKorea,
} from '@cdms/contract';
import { type Kysely, sql } from 'kysely';
import type { z } from 'zod';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import { canWriteGuidelines, requireStudyMember } from './guideline-access.ts';
import { isAlarming } from './guideline-content.ts';

type ListFilter = z.output<typeof guidelineListQuerySchema>;

/**
 * A page of the study's guidelines, newest first, filtered, counted and paged in SQL. Readers see the
 * published ones only; writers every state. `reminders`: the published guidelines whose alarm period
 * holds today (UTC+9), whatever the filters — the list's banner.
 */
export async function listGuidelines(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
  filter: ListFilter,
): Promise<GuidelineListResponse> {
  requireStudyMember(principal, studyId);
  const writer = canWriteGuidelines(principal, studyId);
  const today = todayInKorea();
  let base = db
    .selectFrom('guidelines')
    .innerJoin('users', 'users.id', 'guidelines.author_user_id')
    .where('guidelines.study_id', '=', studyId);
  if (!writer) base = base.where('guidelines.state', '=', 'published');
  if (filter.state) base = base.where('guidelines.state', '=', filter.state);
  if (filter.type) base = base.where('guidelines.guide_type', '=', filter.type);
  if (filter.search) {
    const pattern = `%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    base = base.where((eb) =>
      eb.or([eb('guidelines.title', 'ilike', pattern), eb('guidelines.content_html', 'ilike', pattern)]),
    );
  }
  const { total } = await base.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow();
  const offset = (filter.page - 1) * filter.size;
  const rows = await base
    .select((eb) => [
      'guidelines.id',
      'guidelines.guide_type',
      'guidelines.title',
      'guidelines.version',
      'guidelines.effective_date',
      'guidelines.alarm_start',
      'guidelines.alarm_end',
      'guidelines.state',
      'guidelines.created_at',
      'users.name as writer',
      eb
        .selectFrom('attachments')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('attachments.owner_kind', '=', 'guideline')
        .whereRef('attachments.owner_id', '=', 'guidelines.id')
        .as('attachment_count'),
    ])
    .orderBy('guidelines.created_at', 'desc')
    .orderBy('guidelines.id', 'desc')
    .limit(filter.size)
    .offset(offset)
    .execute();
  const guidelines: GuidelineSummary[] = rows.map((row, index) => ({
    id: row.id,
    no: total - offset - index,
    guideType: row.guide_type,
    title: row.title,
    writer: row.writer,
    createdAt: row.created_at.toISOString(),
    version: row.version,
    effectiveDate: row.effective_date,
    alarmStart: row.alarm_start,
    alarmEnd: row.alarm_end,
    state: row.state,
    attachmentCount: row.attachment_count ?? 0,
    alarming: isAlarming(row, today),
  }));
  const reminders = await db
    .selectFrom('guidelines')
    .select(['id', 'title', 'version'])
    .where('study_id', '=', studyId)
    .where('state', '=', 'published')
    .where('alarm_start', '<=', today)
    .where('alarm_end', '>=', today)
    .orderBy('alarm_start')
    .orderBy('id')
    .limit(5)
    .execute();
  return { guidelines, total, page: filter.page, size: filter.size, canWrite: writer, reminders };
}
