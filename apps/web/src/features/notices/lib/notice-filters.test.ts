import { describe, expect, it } from 'vitest';
import {
  deriveRange,
  monthsBefore,
  noticeListQueryString,
  presetDates,
  readNoticeFilters,
  todayKst,
  writeNoticeFilters,
} from './notice-filters.ts';

describe('todayKst', () => {
  it('reads the calendar day in UTC+9', () => {
    expect(todayKst(new Date('2026-03-01T14:59:00Z'))).toBe('2026-03-01');
    expect(todayKst(new Date('2026-03-01T15:00:00Z'))).toBe('2026-03-02');
  });
});

describe('monthsBefore', () => {
  it('counts calendar months and clamps to the end of a shorter month', () => {
    expect(monthsBefore('2026-08-15', 3)).toBe('2026-05-15');
    expect(monthsBefore('2026-02-10', 6)).toBe('2025-08-10');
    expect(monthsBefore('2026-05-31', 3)).toBe('2026-02-28');
    expect(monthsBefore('2024-08-31', 6)).toBe('2024-02-29');
  });
});

describe('range presets', () => {
  it('sets start and end from today, and clears both for all', () => {
    expect(presetDates('3', '2026-11-21')).toEqual({ start: '2026-08-21', end: '2026-11-21' });
    expect(presetDates('6', '2026-11-21')).toEqual({ start: '2026-05-21', end: '2026-11-21' });
    expect(presetDates('all', '2026-11-21')).toEqual({ start: '', end: '' });
  });

  it('derives all from two empty dates and 3 or 6 from an end exactly that far after the start', () => {
    expect(deriveRange('', '')).toBe('all');
    expect(deriveRange('2026-08-21', '2026-11-21')).toBe('3');
    expect(deriveRange('2026-05-21', '2026-11-21')).toBe('6');
    expect(deriveRange('2026-02-28', '2026-05-31')).toBe('3');
  });

  it('selects no preset for any other period', () => {
    expect(deriveRange('2026-08-20', '2026-11-21')).toBeNull();
    expect(deriveRange('2026-08-21', '')).toBeNull();
    expect(deriveRange('', '2026-11-21')).toBeNull();
    expect(deriveRange('2025-11-21', '2026-11-21')).toBeNull();
  });

  it('round-trips every preset through its dates', () => {
    for (const range of ['all', '3', '6'] as const) {
      const { start, end } = presetDates(range, '2026-03-31');
      expect(deriveRange(start, end)).toBe(range);
    }
  });
});

describe('readNoticeFilters', () => {
  it('reads the URL with defaults', () => {
    expect(readNoticeFilters(new URLSearchParams(''))).toEqual({
      start: '',
      end: '',
      search: '',
      page: 1,
      size: 10,
    });
    expect(
      readNoticeFilters(new URLSearchParams('start=2026-01-01&end=2026-02-01&search=+ear+&page=3&size=50')),
    ).toEqual({ start: '2026-01-01', end: '2026-02-01', search: 'ear', page: 3, size: 50 });
  });

  it('drops unreadable dates and sizes', () => {
    const filters = readNoticeFilters(new URLSearchParams('start=yesterday&end=2026-13-45&size=30&page=-1'));
    expect(filters).toMatchObject({ start: '', end: '', size: 10, page: 1 });
  });

  it('turns a bare range into dates from today', () => {
    expect(readNoticeFilters(new URLSearchParams('range=6'), '2026-11-21')).toMatchObject({
      start: '2026-05-21',
      end: '2026-11-21',
    });
  });
});

describe('writeNoticeFilters', () => {
  it('writes the derived range, keeps menu-type and starts again on page 1', () => {
    const params = writeNoticeFilters(new URLSearchParams('menu-type=CRA&page=4&search=old'), {
      start: '2026-08-21',
      end: '2026-11-21',
      search: ' new ',
      size: 20,
    });
    expect(params.toString()).toBe(
      'menu-type=CRA&start=2026-08-21&end=2026-11-21&range=3&search=new&size=20',
    );
  });

  it('leaves out empty filters and the default size', () => {
    const params = writeNoticeFilters(new URLSearchParams('range=6&start=2026-05-21&end=2026-11-21'), {
      start: '',
      end: '',
      search: '',
      size: 10,
    });
    expect(params.toString()).toBe('');
  });
});

describe('noticeListQueryString', () => {
  it('sends only the filters that are set', () => {
    expect(noticeListQueryString({ start: '', end: '', search: '', page: 1, size: 10 })).toBe(
      'page=1&size=10',
    );
    expect(noticeListQueryString({ start: '2026-01-01', end: '', search: 'a b', page: 2, size: 50 })).toBe(
      'start=2026-01-01&search=a+b&page=2&size=50',
    );
  });
});
