/**
 * The study runs on Korean calendar days: every time is shown in UTC+9 (prototype-spec §9) and
 * "today" for date rules and filters is the Korean day. Korea has kept no daylight saving time
 * since 1988, so a fixed offset is exact. Server and browser use these same functions.
 */
export const KOREA_UTC_OFFSET_MS = 9 * 60 * 60 * 1000;

/** Today's date in Korea, YYYY-MM-DD, whatever the machine's own time zone. */
export function todayInKorea(now: Date = new Date()): string {
  return new Date(now.getTime() + KOREA_UTC_OFFSET_MS).toISOString().slice(0, 10);
}

/** The instant a Korean calendar day (YYYY-MM-DD) starts, as UTC. */
export function startOfKoreanDay(date: string): Date {
  return new Date(Date.parse(`${date}T00:00:00Z`) - KOREA_UTC_OFFSET_MS);
}

/**
 * `date` minus `months` calendar months; a day the target month lacks becomes its last day
 * (05-31 minus 3 months is 02-28). The notice range presets (3 and 6 months) count this way.
 */
export function monthsBefore(date: string, months: number): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const target = new Date(Date.UTC(year, month - 1 - months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return target.toISOString().slice(0, 10);
}
