import { describe, expect, it } from 'vitest';
import { KOREAN_PUBLIC_HOLIDAY_NAMES, KOREAN_PUBLIC_HOLIDAYS } from './korean-holidays.ts';
import { mondayBasedWeekday } from './weekday-pattern.ts';

describe('KOREAN_PUBLIC_HOLIDAYS', () => {
  it('holds real dates of 2024–2027 only', () => {
    expect(KOREAN_PUBLIC_HOLIDAYS.size).toBe(KOREAN_PUBLIC_HOLIDAY_NAMES.size);
    for (const date of KOREAN_PUBLIC_HOLIDAYS) {
      expect(mondayBasedWeekday(date), date).not.toBeNull();
      expect(Number(date.slice(0, 4))).toBeGreaterThanOrEqual(2024);
      expect(Number(date.slice(0, 4))).toBeLessThanOrEqual(2027);
    }
  });

  it('has each year’s fixed holidays', () => {
    for (const year of [2024, 2025, 2026, 2027]) {
      for (const day of ['01-01', '03-01', '05-05', '06-06', '08-15', '10-03', '10-09', '12-25']) {
        expect(KOREAN_PUBLIC_HOLIDAYS.has(`${year}-${day}`), `${year}-${day}`).toBe(true);
      }
    }
  });

  it('has the lunar holidays, three days each for Seollal and Chuseok', () => {
    const lunar = [
      ['2024-02-09', '2024-02-10', '2024-02-11', '2024-09-16', '2024-09-17', '2024-09-18', '2024-05-15'],
      ['2025-01-28', '2025-01-29', '2025-01-30', '2025-10-05', '2025-10-06', '2025-10-07', '2025-05-05'],
      ['2026-02-16', '2026-02-17', '2026-02-18', '2026-09-24', '2026-09-25', '2026-09-26', '2026-05-24'],
      ['2027-02-06', '2027-02-07', '2027-02-08', '2027-09-14', '2027-09-15', '2027-09-16', '2027-05-13'],
    ].flat();
    for (const date of lunar) expect(KOREAN_PUBLIC_HOLIDAYS.has(date), date).toBe(true);
  });

  it('has substitute holidays: a Sunday Seollal day, Children’s Day on a Sunday, Liberation Day on a Saturday', () => {
    for (const date of ['2024-02-12', '2024-05-06', '2025-10-08', '2026-08-17', '2027-02-09', '2027-12-27']) {
      expect(KOREAN_PUBLIC_HOLIDAYS.has(date), date).toBe(true);
      // A substitute holiday is always a weekday.
      expect(mondayBasedWeekday(date)).toBeLessThan(5);
    }
    // Memorial Day has no substitute: 2026-06-06 is a Saturday and 2026-06-08 an ordinary Monday.
    expect(KOREAN_PUBLIC_HOLIDAYS.has('2026-06-08')).toBe(false);
  });

  it('has election days and designated temporary holidays', () => {
    for (const date of ['2024-04-10', '2024-10-01', '2025-01-27', '2025-06-03', '2026-06-03']) {
      expect(KOREAN_PUBLIC_HOLIDAYS.has(date), date).toBe(true);
    }
  });
});
