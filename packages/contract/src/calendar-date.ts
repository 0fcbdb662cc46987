import { z } from 'zod';

/** True when `text` is YYYY-MM-DD and names a day that exists (so 2026-02-30 and 2026-13-01 are refused). */
export function isCalendarDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const [year, month, day] = text.split('-').map(Number) as [number, number, number];
  // Date.UTC rolls 2026-02-30 over to March 2; a real date survives the round trip unchanged.
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** The one schema for a calendar date (YYYY-MM-DD) in query parameters and bodies. */
export const calendarDateSchema = z.string().refine(isCalendarDate, { error: 'invalid_date' });
