import { koreaDateTime } from '@cdms/contract';

/**
 * Times are shown in Korea Standard Time (UTC+9) whatever the browser's own zone is
 * (prototype-spec §9 "Times shown as UTC+9"), so that a monitor abroad and a site in Seoul read the
 * same clock. Korea has kept no daylight saving time since 1988, so a fixed offset is exact and does
 * not depend on the browser's time-zone data.
 */

/** `2026-03-02T05:07:00Z` → `2026-03-02 14:07`. Returns '' for a missing or unreadable value. */
export function formatDateTimeKst(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const ms = value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(value);
  if (!Number.isFinite(ms)) return '';
  return koreaDateTime(new Date(ms));
}
