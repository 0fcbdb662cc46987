import { describe, expect, it } from 'vitest';
import { formatDateText, isCalendarDate } from './date-text.ts';

describe('formatDateText', () => {
  it('shows typed digits as YYYY-MM-DD as they come, dropping anything else', () => {
    expect(formatDateText('2025')).toBe('2025');
    expect(formatDateText('202503')).toBe('2025-03');
    expect(formatDateText('2025031')).toBe('2025-03-1');
    expect(formatDateText('2025/03/15')).toBe('2025-03-15');
    expect(formatDateText('2025-03-150')).toBe('2025-03-15');
    expect(formatDateText('abc')).toBe('');
  });
});

describe('isCalendarDate', () => {
  it('accepts real days only', () => {
    expect(isCalendarDate('2024-02-29')).toBe(true);
    expect(isCalendarDate('2026-11-25')).toBe(true);
    expect(isCalendarDate('2026-02-29')).toBe(false);
    expect(isCalendarDate('2026-02-30')).toBe(false);
    expect(isCalendarDate('2026-13-01')).toBe(false);
    expect(isCalendarDate('2026-1-01')).toBe(false);
    expect(isCalendarDate('')).toBe(false);
  });
});
