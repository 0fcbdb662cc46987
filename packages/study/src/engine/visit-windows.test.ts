import { describe, expect, it } from 'vitest';
import { miniStudy } from './test-fixtures.ts';
import { computeVisitSchedule } from './visit-windows.ts';

// Visit b: anchor a + 7 days, 1 day early to 2 days late.
const withDates = (a: unknown, b?: unknown) => ({
  a: { visit: { date: a } },
  ...(b === undefined ? {} : { b: { visit: { date: b } } }),
});
const statusOf = (data: unknown, today = '2025-06-01') =>
  computeVisitSchedule(miniStudy, data, { today }).find((s) => s.visitKey === 'b')?.status;

describe('computeVisitSchedule', () => {
  it('computes the window from the anchor visit date', () => {
    const [a, b] = computeVisitSchedule(miniStudy, withDates('2025-06-01', '2025-06-08'), {
      today: '2025-06-20',
    });
    expect(a).toEqual({
      visitKey: 'a',
      actualDate: '2025-06-01',
      expectedDate: null,
      earliestDate: null,
      latestDate: null,
      status: 'noWindow',
    });
    expect(b).toEqual({
      visitKey: 'b',
      actualDate: '2025-06-08',
      expectedDate: '2025-06-08',
      earliestDate: '2025-06-07',
      latestDate: '2025-06-10',
      status: 'inWindow',
    });
  });

  it('classifies done visits as early, in window or late', () => {
    expect(statusOf(withDates('2025-06-01', '2025-06-06'))).toBe('early');
    expect(statusOf(withDates('2025-06-01', '2025-06-07'))).toBe('inWindow');
    expect(statusOf(withDates('2025-06-01', '2025-06-10'))).toBe('inWindow');
    expect(statusOf(withDates('2025-06-01', '2025-06-11'))).toBe('late');
  });

  it('classifies visits not done yet as not due, due or overdue', () => {
    expect(statusOf(withDates('2025-06-01'), '2025-06-06')).toBe('notDue');
    expect(statusOf(withDates('2025-06-01'), '2025-06-07')).toBe('due');
    expect(statusOf(withDates('2025-06-01'), '2025-06-10')).toBe('due');
    expect(statusOf(withDates('2025-06-01'), '2025-06-11')).toBe('overdue');
  });

  it('waits for the anchor date and ignores data of the wrong shape', () => {
    expect(statusOf({})).toBe('anchorMissing');
    expect(statusOf(withDates('not a date'))).toBe('anchorMissing');
    expect(statusOf(null)).toBe('anchorMissing');
    expect(statusOf({ a: null })).toBe('anchorMissing');
    expect(statusOf({ a: { visit: null } })).toBe('anchorMissing');
    expect(statusOf({ a: { visit: {} } })).toBe('anchorMissing');
    expect(statusOf({ a: { other: {} } })).toBe('anchorMissing');
    const noDateItem = { ...miniStudy, visitDate: undefined };
    expect(
      computeVisitSchedule(noDateItem, withDates('2025-06-01'), { today: '2025-06-01' })[1]?.status,
    ).toBe('anchorMissing');
  });
});
