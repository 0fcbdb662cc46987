// Dates are calendar dates "YYYY-MM-DD" without a time zone; arithmetic is done in whole UTC days so that
// the result never depends on the machine's clock or zone.

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME_PATTERN = /^([01]\d|2[0-3]):([0-5]\d)$/;
const MS_PER_DAY = 86_400_000;

export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

/** Parses a real calendar date "YYYY-MM-DD" (2025-02-30 is refused); null for anything else. */
export function parseDate(value: unknown): CalendarDate | null {
  if (typeof value !== 'string') return null;
  const match = DATE_PATTERN.exec(value);
  if (!match) return null;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return { year, month, day };
}

export function isValidDate(value: unknown): value is string {
  return parseDate(value) !== null;
}

/** "HH:mm", 24-hour clock. */
export function isValidTime(value: unknown): value is string {
  return typeof value === 'string' && TIME_PATTERN.test(value);
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function dayNumber(date: CalendarDate): number {
  const utc = new Date(0);
  utc.setUTCFullYear(date.year, date.month - 1, date.day);
  return Math.round(utc.getTime() / MS_PER_DAY);
}

/** Days from `from` to `to` (positive when `to` is later); null unless both are valid dates. */
export function daysBetween(from: unknown, to: unknown): number | null {
  const a = parseDate(from);
  const b = parseDate(to);
  if (!a || !b) return null;
  return dayNumber(b) - dayNumber(a);
}

/**
 * Completed years from `from` to `to` (age in full years, Korean "만 나이"). Someone born on 29 February
 * completes a year on 1 March in common years. Null unless both are valid dates; negative when `to` is earlier.
 */
export function yearsBetween(from: unknown, to: unknown): number | null {
  const a = parseDate(from);
  const b = parseDate(to);
  if (!a || !b) return null;
  let years = b.year - a.year;
  if (b.month < a.month || (b.month === a.month && b.day < a.day)) years -= 1;
  return years;
}

/** The date `days` after `date` (negative goes back); null for an invalid date. */
export function addDays(date: unknown, days: number): string | null {
  const parsed = parseDate(date);
  if (!parsed || !Number.isInteger(days)) return null;
  const utc = new Date((dayNumber(parsed) + days) * MS_PER_DAY);
  const year = utc.getUTCFullYear();
  if (year < 1 || year > 9999) return null;
  return `${String(year).padStart(4, '0')}-${String(utc.getUTCMonth() + 1).padStart(2, '0')}-${String(utc.getUTCDate()).padStart(2, '0')}`;
}
