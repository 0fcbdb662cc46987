import { KOREA_UTC_OFFSET_MS } from '@cdms/contract';

/**
 * Times are shown in Korea Standard Time (UTC+9) whatever the browser's own zone is
 * (prototype-spec §9 "Times shown as UTC+9"), so that a monitor abroad and a site in Seoul read the
 * same clock. Korea has kept no daylight saving time since 1988, so a fixed offset is exact and does
 * not depend on the browser's time-zone data.
 */

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

/** `2026-03-02T05:07:00Z` → `2026-03-02 14:07`. Returns '' for a missing or unreadable value. */
export function formatDateTimeKst(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const ms = value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(value);
  if (!Number.isFinite(ms)) return '';
  // Shift the instant by nine hours and read it with the UTC getters: those never use the local zone.
  const shifted = new Date(ms + KOREA_UTC_OFFSET_MS);
  return (
    `${shifted.getUTCFullYear()}-${pad(shifted.getUTCMonth() + 1)}-${pad(shifted.getUTCDate())} ` +
    `${pad(shifted.getUTCHours())}:${pad(shifted.getUTCMinutes())}`
  );
}
