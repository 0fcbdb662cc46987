import { describe, expect, it } from 'vitest';
import { formatDateTimeKst } from './date-time.ts';

describe('formatDateTimeKst', () => {
  it('shows an instant as YYYY-MM-DD HH:mm in UTC+9', () => {
    expect(formatDateTimeKst('2026-03-02T05:07:00.000Z')).toBe('2026-03-02 14:07');
  });

  it('moves to the next day (and year) in Seoul when it is still evening in UTC', () => {
    expect(formatDateTimeKst('2025-12-31T15:30:59Z')).toBe('2026-01-01 00:30');
  });

  it('drops seconds rather than rounding them up', () => {
    expect(formatDateTimeKst('2026-06-01T00:00:59.999Z')).toBe('2026-06-01 09:00');
  });

  it('reads offsets written in the value itself', () => {
    expect(formatDateTimeKst('2026-06-01T08:15:00+09:00')).toBe('2026-06-01 08:15');
    expect(formatDateTimeKst('2026-06-01T08:15:00-04:00')).toBe('2026-06-01 21:15');
  });

  it('accepts Date objects and epoch milliseconds', () => {
    expect(formatDateTimeKst(new Date(Date.UTC(2024, 1, 29, 14, 59)))).toBe('2024-02-29 23:59');
    expect(formatDateTimeKst(0)).toBe('1970-01-01 09:00');
  });

  it('returns an empty string for missing or unreadable values', () => {
    expect(formatDateTimeKst(null)).toBe('');
    expect(formatDateTimeKst(undefined)).toBe('');
    expect(formatDateTimeKst('')).toBe('');
    expect(formatDateTimeKst('not a date')).toBe('');
  });

  it('does not depend on the zone the process runs in', () => {
    const original = process.env.TZ;
    try {
      process.env.TZ = 'America/New_York';
      expect(formatDateTimeKst('2026-03-02T05:07:00Z')).toBe('2026-03-02 14:07');
    } finally {
      process.env.TZ = original;
    }
  });
});
