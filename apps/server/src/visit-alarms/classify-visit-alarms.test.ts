import type { VisitScheduleEntry } from '@cdms/study';
import { tmPerforationStudy } from '@cdms/study';
import { describe, expect, it } from 'vitest';
import {
  classifyVisit,
  compareAlarms,
  DEFAULT_DUE_SOON_DAYS,
  dueSoonDaysOf,
  VISIT_DUE_SOON_PARAMETER,
} from './classify-visit-alarms.ts';

const TODAY = '2026-05-20';

/** A visit expected on 2026-05-20 ± 3 days (V3-like), with the given status and date. */
function entry(status: VisitScheduleEntry['status'], actualDate: string | null = null): VisitScheduleEntry {
  return {
    visitKey: 'v3',
    actualDate,
    expectedDate: '2026-05-20',
    earliestDate: '2026-05-17',
    latestDate: '2026-05-23',
    status,
  };
}

/** The same window moved so that it opens `opensIn` days after today. */
function windowOpeningIn(opensIn: number): VisitScheduleEntry {
  const shift = (date: string, days: number) =>
    new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
  return {
    visitKey: 'v4',
    actualDate: null,
    earliestDate: shift(TODAY, opensIn),
    expectedDate: shift(TODAY, opensIn + 7),
    latestDate: shift(TODAY, opensIn + 14),
    status: 'notDue',
  };
}

describe('classifyVisit', () => {
  it('flags a visit whose window has closed without a date as overdue, with the days since it closed', () => {
    const overdue = { ...entry('overdue'), earliestDate: '2026-05-10', latestDate: '2026-05-16' };
    expect(classifyVisit(overdue, 'ongoing', TODAY, 7)).toEqual({ state: 'overdue', days: 4, timing: null });
  });

  it('flags a visit in its open window as due, with the days left (0 on the last day)', () => {
    expect(classifyVisit(entry('due'), 'ongoing', TODAY, 7)).toEqual({ state: 'due', days: 3, timing: null });
    expect(classifyVisit(entry('due'), 'ongoing', '2026-05-23', 7)).toEqual({
      state: 'due',
      days: 0,
      timing: null,
    });
    expect(classifyVisit(entry('due'), 'ongoing', '2026-05-17', 7)?.state).toBe('due');
    expect(classifyVisit(entry('overdue'), 'ongoing', '2026-05-24', 7)).toEqual({
      state: 'overdue',
      days: 1,
      timing: null,
    });
  });

  it('flags a window opening within the due-soon days, and nothing further ahead', () => {
    expect(classifyVisit(windowOpeningIn(1), 'ongoing', TODAY, 7)).toEqual({
      state: 'dueSoon',
      days: 1,
      timing: null,
    });
    expect(classifyVisit(windowOpeningIn(7), 'ongoing', TODAY, 7)?.state).toBe('dueSoon');
    expect(classifyVisit(windowOpeningIn(8), 'ongoing', TODAY, 7)).toBeNull();
    expect(classifyVisit(windowOpeningIn(8), 'ongoing', TODAY, 10)?.days).toBe(8);
  });

  it('lists a visit done outside its window as out of window, early or late, for every subject', () => {
    const early = entry('early', '2026-05-14');
    const late = entry('late', '2026-05-30');
    for (const status of ['ongoing', 'complete', 'dropout', 'screening_failure', 'screening'] as const) {
      expect(classifyVisit(early, status, TODAY, 7)).toEqual({
        state: 'outOfWindow',
        days: 3,
        timing: 'early',
      });
      expect(classifyVisit(late, status, TODAY, 7)).toEqual({
        state: 'outOfWindow',
        days: 7,
        timing: 'late',
      });
    }
  });

  it('raises nothing for a visit done in its window, one without a window, or one without an anchor', () => {
    expect(classifyVisit(entry('inWindow', '2026-05-19'), 'ongoing', TODAY, 7)).toBeNull();
    const unanchored: VisitScheduleEntry = {
      visitKey: 'v3',
      actualDate: null,
      expectedDate: null,
      earliestDate: null,
      latestDate: null,
      status: 'anchorMissing',
    };
    expect(classifyVisit(unanchored, 'ongoing', TODAY, 7)).toBeNull();
    expect(classifyVisit({ ...unanchored, status: 'noWindow' }, 'ongoing', TODAY, 7)).toBeNull();
  });

  it('gives visits still to come only to subjects in follow-up', () => {
    for (const status of ['complete', 'dropout', 'screening_failure', 'screening'] as const) {
      expect(classifyVisit(entry('due'), status, TODAY, 7)).toBeNull();
      expect(classifyVisit(entry('overdue'), status, '2026-06-30', 7)).toBeNull();
      expect(classifyVisit(windowOpeningIn(2), status, TODAY, 7)).toBeNull();
    }
  });
});

describe('dueSoonDaysOf', () => {
  it('uses the study parameter when it names a whole number of days, else the default', () => {
    expect(dueSoonDaysOf(tmPerforationStudy)).toBe(DEFAULT_DUE_SOON_DAYS);
    const withParameter = (value: number | string) => ({
      ...tmPerforationStudy,
      parameters: {
        ...tmPerforationStudy.parameters,
        [VISIT_DUE_SOON_PARAMETER]: { value, label: { ko: '임박 기준(일)', en: 'Due soon (days)' } },
      },
    });
    expect(dueSoonDaysOf(withParameter(3))).toBe(3);
    expect(dueSoonDaysOf(withParameter('3'))).toBe(DEFAULT_DUE_SOON_DAYS);
    expect(dueSoonDaysOf(withParameter(-1))).toBe(DEFAULT_DUE_SOON_DAYS);
  });
});

describe('compareAlarms', () => {
  it('orders by state, then the most urgent first', () => {
    const alarms = [
      { id: 'deviation-old', state: 'outOfWindow', days: 2, actualDate: '2026-01-02' },
      { id: 'soon-5', state: 'dueSoon', days: 5, actualDate: null },
      { id: 'due-3', state: 'due', days: 3, actualDate: null },
      { id: 'overdue-1', state: 'overdue', days: 1, actualDate: null },
      { id: 'deviation-new', state: 'outOfWindow', days: 9, actualDate: '2026-04-01' },
      { id: 'soon-1', state: 'dueSoon', days: 1, actualDate: null },
      { id: 'overdue-9', state: 'overdue', days: 9, actualDate: null },
      { id: 'due-0', state: 'due', days: 0, actualDate: null },
    ] as const;
    expect([...alarms].sort(compareAlarms).map((alarm) => alarm.id)).toEqual([
      'overdue-9',
      'overdue-1',
      'due-0',
      'due-3',
      'soon-1',
      'soon-5',
      'deviation-new',
      'deviation-old',
    ]);
  });
});
