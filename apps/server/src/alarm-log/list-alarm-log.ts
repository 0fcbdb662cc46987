import type { AlarmLogEntry, AlarmLogResponse, AlarmLogStatus, alarmLogQuerySchema } from '@cdms/contract';
import { startOfKoreanDay } from '@cdms/contract';
import { type Kysely, sql } from 'kysely';
import type { z } from 'zod';
import { authorize } from '../auth/authorize.ts';
import { siteScope } from '../auth/permissions.ts';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import type { Language } from '../http/language.ts';
import { deliveryFailureText, notificationSubjectText } from '../notifications/delivery-failure-reasons.ts';
import type { NotificationEventType } from '../notifications/notification-events.ts';

export type AlarmLogFilters = Omit<z.output<typeof alarmLogQuerySchema>, 'page' | 'size'>;

const DAY_MS = 86_400_000;

/**
 * The study's notifications the reader may see, filtered in SQL: members only (404 otherwise),
 * `alarm_log.read` (403), rows of the reader's sites and those about the whole study (no site).
 * Null when the reader's scope holds no site at all.
 */
function alarmLogQuery(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
  filters: AlarmLogFilters,
) {
  authorize(principal, 'member', { studyId });
  const sites = siteScope(principal, 'alarm_log.read', studyId);
  if (sites !== 'all' && sites.size === 0) throw new AppError(403, 'forbidden');
  if (filters.from && filters.to && filters.from > filters.to)
    throw new AppError(400, 'validation_failed', {}, [{ path: '/from', message: 'start_after_end' }]);

  let query = db
    .selectFrom('notifications as n')
    .leftJoin('sites', 'sites.id', 'n.site_id')
    .leftJoin('users', 'users.id', 'n.recipient_user_id')
    .where('n.study_id', '=', studyId);
  if (sites !== 'all')
    query = query.where((eb) => eb.or([eb('n.site_id', 'is', null), eb('n.site_id', 'in', [...sites])]));
  if (filters.siteId !== undefined) query = query.where('n.site_id', '=', filters.siteId);
  if (filters.eventType) query = query.where('n.event_type', '=', filters.eventType);
  if (filters.channel) query = query.where('n.channel', '=', filters.channel);
  if (filters.status === 'queued') query = query.where('n.status', 'in', ['queued', 'sending']);
  else if (filters.status) query = query.where('n.status', '=', filters.status);
  if (filters.from) query = query.where('n.created_at', '>=', startOfKoreanDay(filters.from));
  if (filters.to)
    query = query.where('n.created_at', '<', new Date(startOfKoreanDay(filters.to).getTime() + DAY_MS));
  if (filters.recipient) {
    const needle = filters.recipient.toLowerCase();
    query = query.where((eb) =>
      eb.or([
        eb(sql`strpos(lower(n.recipient_address), ${needle})`, '>', 0),
        eb(sql`strpos(lower(users.name), ${needle})`, '>', 0),
      ]),
    );
  }
  return query;
}

type Query = ReturnType<typeof alarmLogQuery>;

/** Newest first (the id follows the time of writing). */
function entriesOf(query: Query, limit: number, offset: number) {
  return query
    .select([
      'n.id',
      'n.created_at',
      'n.event_type',
      'n.channel',
      'n.site_id',
      'sites.code as site',
      'users.name as recipient_name',
      'n.recipient_address',
      'n.subject',
      'n.subject_texts',
      'n.status',
      'n.attempts',
      'n.last_error',
      'n.last_error_code',
      'n.sent_at',
    ])
    .orderBy('n.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

type EntryRow = Awaited<ReturnType<typeof entriesOf>>[number];

/** A row as its reader reads it: the subject and our own failure reasons in the reader's language. */
function presentEntry(row: EntryRow, language: Language): AlarmLogEntry {
  const status: AlarmLogStatus = row.status === 'sending' ? 'queued' : row.status;
  return {
    id: Number(row.id),
    createdAt: row.created_at.toISOString(),
    eventType: row.event_type as NotificationEventType,
    channel: row.channel,
    siteId: row.site_id,
    site: row.site,
    recipientName: row.recipient_name,
    recipientAddress: row.recipient_address,
    subject: notificationSubjectText(row, language),
    status,
    attempts: row.attempts,
    error: deliveryFailureText(row, language),
    sentAt: row.sent_at ? row.sent_at.toISOString() : null,
  };
}

/** One page of the alarm log and the count under the filters. */
export async function listAlarmLog(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
  filters: AlarmLogFilters & { page: number; size: number },
  language: Language,
): Promise<AlarmLogResponse> {
  const query = alarmLogQuery(db, principal, studyId, filters);
  const [counted, rows] = await Promise.all([
    query.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirst(),
    entriesOf(query, filters.size, (filters.page - 1) * filters.size),
  ]);
  return {
    entries: rows.map((row) => presentEntry(row, language)),
    total: Number(counted?.total ?? 0),
    page: filters.page,
    size: filters.size,
  };
}

const CHUNK = 500;

/**
 * Every entry under the filters, a chunk at a time (the download). The reader's access and the
 * filters are checked when this is called, before a first byte could leave.
 */
export function allAlarmLogEntries(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
  filters: AlarmLogFilters,
  language: Language,
): AsyncGenerator<AlarmLogEntry[]> {
  const query = alarmLogQuery(db, principal, studyId, filters);
  return (async function* chunks() {
    for (let offset = 0; ; offset += CHUNK) {
      const rows = await entriesOf(query, CHUNK, offset);
      yield rows.map((row) => presentEntry(row, language));
      if (rows.length < CHUNK) return;
    }
  })();
}
