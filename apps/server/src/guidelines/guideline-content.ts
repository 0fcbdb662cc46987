import { isBlankRichText } from '@cdms/contract';
import type { GuidelineRow } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { sanitizeRichText } from '../notices/sanitize-html.ts';

/** The body as stored: sanitized like a notice's, refused when it shows nothing (422 content_required). */
export function cleanGuidelineContent(html: string): string {
  const clean = sanitizeRichText(html);
  if (isBlankRichText(clean)) throw new AppError(422, 'content_required');
  return clean;
}

/** Both dates or neither, the start not after the end (422 alarm_period_invalid). */
export function checkAlarmPeriod(start: string | null, end: string | null): void {
  if ((start === null) !== (end === null) || (start !== null && end !== null && start > end))
    throw new AppError(422, 'alarm_period_invalid');
}

/**
 * Whether a guideline reminds its readers today: published, and today (UTC+9, `YYYY-MM-DD`) within
 * its alarm period. The list's reminder banner asks the same in SQL (`list-guidelines.ts`).
 */
export function isAlarming(
  row: Pick<GuidelineRow, 'state' | 'alarm_start' | 'alarm_end'>,
  today: string,
): boolean {
  return (
    row.state === 'published' &&
    row.alarm_start !== null &&
    row.alarm_end !== null &&
    row.alarm_start <= today &&
    today <= row.alarm_end
  );
}

/** What the audit trail keeps of a guideline. */
export function guidelineAuditView(
  row: Pick<
    GuidelineRow,
    | 'guide_type'
    | 'title'
    | 'content_html'
    | 'version'
    | 'effective_date'
    | 'alarm_start'
    | 'alarm_end'
    | 'state'
  >,
  attachmentIds?: readonly string[],
) {
  return {
    guideType: row.guide_type,
    title: row.title,
    version: row.version,
    effectiveDate: row.effective_date,
    alarmStart: row.alarm_start,
    alarmEnd: row.alarm_end,
    state: row.state,
    contentHtml: row.content_html,
    ...(attachmentIds ? { attachmentIds } : {}),
  };
}
