import { describe, expect, it } from 'vitest';
import { addDays, daysBetween, isValidDate, isValidTime, parseDate, yearsBetween } from './dates.ts';

describe('dates', () => {
  it('accepts only real calendar dates as YYYY-MM-DD', () => {
    expect(parseDate('2024-02-29')).toEqual({ year: 2024, month: 2, day: 29 });
    expect(isValidDate('2000-02-29')).toBe(true);
    expect(isValidDate('1900-02-29')).toBe(false);
    expect(isValidDate('2023-02-29')).toBe(false);
    expect(isValidDate('2025-04-31')).toBe(false);
    expect(isValidDate('2025-13-01')).toBe(false);
    expect(isValidDate('2025-00-10')).toBe(false);
    expect(isValidDate('2025-01-00')).toBe(false);
    expect(isValidDate('0000-01-01')).toBe(false);
    expect(isValidDate('2025-1-01')).toBe(false);
    expect(isValidDate('2025-01-01T00:00')).toBe(false);
    expect(isValidDate(20250101)).toBe(false);
    expect(isValidDate(null)).toBe(false);
  });

  it('accepts times as HH:mm on a 24-hour clock', () => {
    expect(isValidTime('00:00')).toBe(true);
    expect(isValidTime('23:59')).toBe(true);
    expect(isValidTime('24:00')).toBe(false);
    expect(isValidTime('9:30')).toBe(false);
    expect(isValidTime('12:60')).toBe(false);
    expect(isValidTime(930)).toBe(false);
  });

  it('counts days between dates, across leap years and early years', () => {
    expect(daysBetween('2025-03-01', '2025-03-10')).toBe(9);
    expect(daysBetween('2025-03-10', '2025-03-01')).toBe(-9);
    expect(daysBetween('2024-02-28', '2024-03-01')).toBe(2);
    expect(daysBetween('0050-01-01', '0051-01-01')).toBe(365);
    expect(daysBetween('2025-03-01', 'x')).toBeNull();
  });

  it('counts completed years', () => {
    expect(yearsBetween('2000-06-15', '2025-06-14')).toBe(24);
    expect(yearsBetween('2000-06-15', '2025-06-15')).toBe(25);
    expect(yearsBetween('2000-06-15', '2025-05-20')).toBe(24);
    expect(yearsBetween('2025-01-01', '2024-01-01')).toBe(-1);
    expect(yearsBetween(null, '2024-01-01')).toBeNull();
  });

  it('adds days', () => {
    expect(addDays('2025-02-27', 2)).toBe('2025-03-01');
    expect(addDays('2025-01-01', -1)).toBe('2024-12-31');
    expect(addDays('0001-01-01', -1)).toBeNull();
    expect(addDays('9999-12-31', 1)).toBeNull();
    expect(addDays('2025-01-01', 0.5)).toBeNull();
    expect(addDays('nope', 1)).toBeNull();
  });
});
