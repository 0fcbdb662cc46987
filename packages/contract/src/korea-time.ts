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

/**
 * An instant (a Date or an ISO string) as the app shows times: UTC+9, `YYYY-MM-DD HH:mm`, or with
 * `seconds` `YYYY-MM-DD HH:mm:ss` (the files an auditor downloads).
 */
export function koreaDateTime(instant: Date | string, options: { seconds?: boolean } = {}): string {
  const time = typeof instant === 'string' ? Date.parse(instant) : instant.getTime();
  const shifted = new Date(time + KOREA_UTC_OFFSET_MS).toISOString();
  return `${shifted.slice(0, 10)} ${shifted.slice(11, options.seconds ? 19 : 16)}`;
}

/**
 * An instant as printed documents and their downloads state it, the zone named because the paper
 * leaves the app: `YYYY-MM-DD HH:mm KST` (casebook PDF, training certificate, alarm log, matrix).
 */
export function koreaDateTimeWithZone(instant: Date | string): string {
  return `${koreaDateTime(instant)} KST`;
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

/** The period presets of the list filters (prototype-spec §9: all, 3 months, 6 months). */
export const dateRangePresets = ['all', '3', '6'] as const;
export type DateRangePreset = (typeof dateRangePresets)[number];

/** The dates a preset stands for: the last 3 or 6 months up to `today`; `all` is no dates at all. */
export function presetDates(
  preset: DateRangePreset,
  today: string = todayInKorea(),
): { start: string; end: string } {
  if (preset === 'all') return { start: '', end: '' };
  return { start: monthsBefore(today, Number(preset)), end: today };
}

/**
 * Which preset two dates amount to (both empty → all; end exactly 3 or 6 months after start → 3
 * or 6). Any other pair is a custom period: no preset (null).
 */
export function deriveRange(start: string, end: string): DateRangePreset | null {
  if (!start && !end) return 'all';
  if (!start || !end) return null;
  if (monthsBefore(end, 3) === start) return '3';
  if (monthsBefore(end, 6) === start) return '6';
  return null;
}
