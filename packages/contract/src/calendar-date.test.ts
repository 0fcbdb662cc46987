import { describe, expect, it } from 'vitest';
import { calendarDateSchema, isCalendarDate } from './calendar-date.ts';

describe('calendar dates', () => {
  it('accepts real days, including 29 February in a leap year', () => {
    for (const text of ['2026-01-31', '2024-02-29', '2026-12-31']) expect(isCalendarDate(text)).toBe(true);
  });

  it('refuses days that do not exist and other forms (issue 11)', () => {
    for (const text of [
      '2026-13-01',
      '2026-02-30',
      '2025-02-29',
      '2026-00-10',
      '2026-1-01',
      ' 2026-01-01',
      '2026-01-01T00:00',
    ]) {
      expect(calendarDateSchema.safeParse(text).success).toBe(false);
    }
  });
});
