import { type AuditTrailFilter, type AuditTrailRow, koreaDateTime } from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Language } from '../http/language.ts';
import { csvDocument, type ExportColumnOf } from '../subjects/subject-export.ts';
import {
  type AuditReviewContext,
  definitionForRows,
  filteredAuditEvents,
  presentAuditEvent,
} from './audit-trail-query.ts';

/** The filtered audit trail as CSV: the page's columns, every record, in the reader's language. */

function changeText(row: AuditTrailRow, language: Language): string {
  return row.changes
    .map((change) => {
      // A field set for the first time reads as its value, not "— → value".
      const values =
        change.before === null
          ? (change.after?.[language] ?? '—')
          : `${change.before[language]} → ${change.after?.[language] ?? '—'}`;
      return change.field ? `${change.field[language]}: ${values}` : values;
    })
    .join('\n');
}

export const auditExportColumns: ExportColumnOf<AuditTrailRow>[] = [
  { header: { ko: '기록 번호', en: 'Record' }, value: (row) => row.id },
  {
    header: { ko: '일시 (UTC+9)', en: 'Time (UTC+9)' },
    value: (row) => koreaDateTime(row.occurredAt, { seconds: true }),
  },
  { header: { ko: '사용자', en: 'User' }, value: (row) => row.userName },
  { header: { ko: '역할', en: 'Role' }, value: (row) => row.role },
  { header: { ko: '기관', en: 'Site' }, value: (row) => row.siteCode },
  { header: { ko: '스크리닝 번호', en: 'Screening number' }, value: (row) => row.screeningNumber },
  { header: { ko: '이벤트', en: 'Event' }, value: (row, language) => row.eventLabel[language] },
  { header: { ko: '이벤트 유형', en: 'Event type' }, value: (row) => row.eventType },
  { header: { ko: '방문', en: 'Visit' }, value: (row, language) => row.visitLabel?.[language] ?? null },
  { header: { ko: '양식', en: 'Form' }, value: (row, language) => row.formLabel?.[language] ?? null },
  { header: { ko: '항목', en: 'Item' }, value: (row, language) => row.itemLabel?.[language] ?? null },
  { header: { ko: '대상', en: 'Target' }, value: (row) => row.target },
  // What changed in words, as the page shows it ("field: before → after", one line per field).
  { header: { ko: '변경 내용', en: 'Change' }, value: (row, language) => changeText(row, language) },
  { header: { ko: '변경 전 (저장값)', en: 'Before (stored)' }, value: (row) => row.before },
  { header: { ko: '변경 후 (저장값)', en: 'After (stored)' }, value: (row) => row.after },
  { header: { ko: '사유', en: 'Reason' }, value: (row) => row.reason },
];

const EXPORT_CHUNK = 500;

/**
 * Every filtered record up to record `throughId` (the trail as it stood when the download was asked
 * for: the export's own record and whatever comes while it streams are not in it), a keyset page at
 * a time (by id, in the chosen order): each chunk is one index range, however deep into the trail,
 * and memory holds one chunk.
 */
export async function* auditTrailChunks(
  db: Kysely<Database>,
  context: AuditReviewContext,
  filter: AuditTrailFilter,
  throughId: number,
): AsyncGenerator<AuditTrailRow[]> {
  const newestFirst = filter.sort !== 'oldest';
  let after: number | null = null;
  for (;;) {
    let query = filteredAuditEvents(db, context, filter).where('audit_events.id', '<=', throughId);
    if (after !== null) query = query.where('audit_events.id', newestFirst ? '<' : '>', after);
    const rows = await query
      .orderBy('audit_events.id', newestFirst ? 'desc' : 'asc')
      .limit(EXPORT_CHUNK)
      .execute();
    const definition = await definitionForRows(db, context.studyId, rows);
    yield rows.map((row) => presentAuditEvent(row, definition));
    if (rows.length < EXPORT_CHUNK) return;
    after = Number(rows[rows.length - 1]?.id);
  }
}

/** The last record's id now: where a download stops. */
export async function lastAuditEventId(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('audit_events')
    .select((eb) => eb.fn.max('id').as('last'))
    .executeTakeFirst();
  return Number(row?.last ?? 0);
}

export function auditTrailCsv(chunks: AsyncIterable<AuditTrailRow[]>, language: Language) {
  return csvDocument(auditExportColumns, chunks, language);
}
