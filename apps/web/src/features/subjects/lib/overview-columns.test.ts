import type { UnscheduledVisit } from '@cdms/contract';
import { tmPerforationStudy } from '@cdms/study';
import { describe, expect, it } from 'vitest';
import { overviewColumns } from './overview-columns.ts';

const visit = (repeatKey: number, visitDate: string): UnscheduledVisit => ({
  visitKey: `unscheduled-${repeatKey}`,
  repeatKey,
  visitDate,
  reason: 'Otalgia',
  createdAt: '2026-03-01T00:00:00.000Z',
  hasData: false,
});

const keys = (dates: Record<string, string>, visits: UnscheduledVisit[]) =>
  overviewColumns(tmPerforationStudy, { visitDates: dates, unscheduledVisits: visits }, 'ko').map(
    (column) => column.visitKey,
  );

const scheduled = tmPerforationStudy.visits.map((v) => v.key);

describe('overview columns', () => {
  it('is the schedule when the subject has no unscheduled visit', () => {
    expect(keys({ consentScreening: '2026-03-01' }, [])).toEqual(scheduled);
  });

  it('puts each unscheduled visit after the last scheduled visit dated on or before it, by date', () => {
    const dates = { consentScreening: '2026-03-01', v1: '2026-03-02', v2: '2026-03-10', v3: '2026-03-24' };
    expect(keys(dates, [visit(2, '2026-03-30'), visit(1, '2026-03-15'), visit(3, '2026-03-12')])).toEqual([
      'consentScreening',
      'v1',
      'v2',
      'unscheduled-3',
      'unscheduled-1',
      'v3',
      'unscheduled-2',
      'v4',
      'v5',
      'v6',
      'all',
    ]);
    // On the day of a scheduled visit: after it.
    expect(keys(dates, [visit(1, '2026-03-10')]).indexOf('unscheduled-1')).toBe(scheduled.indexOf('v2') + 1);
  });

  it('labels an unscheduled column with its number', () => {
    const columns = overviewColumns(
      tmPerforationStudy,
      { visitDates: { consentScreening: '2026-03-01' }, unscheduledVisits: [visit(4, '2026-03-02')] },
      'en',
    );
    // V1 has no saved date yet: the unscheduled visit still comes after it (schedule position first).
    expect(columns[2]).toMatchObject({ visitKey: 'unscheduled-4', label: 'Unscheduled visit 4' });
  });

  it('marks the study-wide column (visit group all), and only it, to stay in view', () => {
    const columns = overviewColumns(
      tmPerforationStudy,
      { visitDates: { consentScreening: '2026-03-01' }, unscheduledVisits: [visit(1, '2026-03-02')] },
      'en',
    );
    expect(columns.filter((column) => column.studyWide).map((column) => column.visitKey)).toEqual(['all']);
  });
});
