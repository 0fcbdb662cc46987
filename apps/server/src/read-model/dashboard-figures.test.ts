import { describe, expect, it } from 'vitest';
import {
  AGE_BANDS,
  ageGroups,
  type CountedSubject,
  genderGroups,
  groupCounts,
  groupOfSubject,
  monthlyRegistrations,
  NOT_ENTERED,
  safetySummary,
} from './dashboard-figures.ts';

/** One subject as the group of one that SQL would count. */
function subject(values: Partial<CountedSubject>) {
  return groupOfSubject({
    status: 'screening',
    randomizationNumber: null,
    gender: null,
    age: null,
    consentDate: '2026-01-15',
    adverseEventCount: 0,
    seriousAdverseEventCount: 0,
    ...values,
  });
}

/** Consent dates as the per-month counts SQL gives. */
function months(dates: string[]) {
  const counts = new Map<string, number>();
  for (const date of dates) counts.set(date.slice(0, 7), (counts.get(date.slice(0, 7)) ?? 0) + 1);
  return [...counts].map(([month, count]) => ({ month, count }));
}

const genderCodes = [
  { code: 'M', label: { ko: '남', en: 'Male' } },
  { code: 'F', label: { ko: '여', en: 'Female' } },
];

describe('groupCounts', () => {
  it('counts subjects per status and the randomized ones', () => {
    expect(
      groupCounts([
        subject({ status: 'ongoing', randomizationNumber: 'R01001' }),
        subject({ status: 'complete', randomizationNumber: 'R01002' }),
        subject({ status: 'screening' }),
        subject({ status: 'screening' }),
      ]),
    ).toEqual({
      total: 4,
      randomized: 2,
      statuses: { screening: 2, screening_failure: 0, ongoing: 1, complete: 1, dropout: 0 },
    });
  });
});

describe('genderGroups', () => {
  it('has one group per code in the list order, an unknown code kept, and "not entered" last', () => {
    const groups = genderGroups(
      [
        subject({ gender: 'F', status: 'ongoing', randomizationNumber: 'R01001' }),
        subject({ gender: 'F' }),
        subject({ gender: 'M', status: 'dropout', randomizationNumber: 'R01002' }),
        subject({ gender: 'X' }),
        subject({}),
      ],
      genderCodes,
    );
    expect(groups.map((group) => [group.key, group.total, group.randomized])).toEqual([
      ['M', 1, 1],
      ['F', 2, 1],
      ['X', 1, 0],
      [NOT_ENTERED, 1, 0],
    ]);
    expect(groups[0]?.label).toEqual({ ko: '남', en: 'Male' });
    expect(groups.at(-1)?.label).toBeNull();
    expect(groups[1]?.statuses).toMatchObject({ ongoing: 1, screening: 1 });
  });
});

describe('ageGroups', () => {
  it('puts each age in exactly one band, the bounds inclusive, and missing ages in "not entered"', () => {
    const ages = [15, 29, 30, 39, 40, 49, 50, 59, 60, 69, 70, 95];
    const groups = ageGroups([...ages.map((age) => subject({ age })), subject({ age: null })]);
    expect(groups.map((group) => [group.key, group.total])).toEqual([
      ['under30', 2],
      ['30to39', 2],
      ['40to49', 2],
      ['50to59', 2],
      ['60to69', 2],
      ['70andOver', 2],
      [NOT_ENTERED, 1],
    ]);
    expect(groups.reduce((sum, group) => sum + group.total, 0)).toBe(ages.length + 1);
    expect(groups[0]).toMatchObject({ minAge: null, maxAge: 29 });
    expect(groups.at(-2)).toMatchObject({ minAge: 70, maxAge: null });
    expect(AGE_BANDS).toHaveLength(6);
  });
});

describe('monthlyRegistrations', () => {
  it('counts consents per month from the first month to the current one, zeros included', () => {
    expect(monthlyRegistrations(months(['2025-11-30', '2025-11-01', '2026-02-10']), '2026-03-05')).toEqual([
      { month: '2025-11', count: 2 },
      { month: '2025-12', count: 0 },
      { month: '2026-01', count: 0 },
      { month: '2026-02', count: 1 },
      { month: '2026-03', count: 0 },
    ]);
  });

  it('is empty without subjects and reaches a consent month later than today', () => {
    expect(monthlyRegistrations([], '2026-03-05')).toEqual([]);
    expect(monthlyRegistrations(months(['2026-04-01']), '2026-03-05')).toEqual([
      { month: '2026-04', count: 1 },
    ]);
  });
});

describe('safetySummary', () => {
  it('adds events up and counts the subjects who had any', () => {
    expect(
      safetySummary([
        subject({ adverseEventCount: 3, seriousAdverseEventCount: 1 }),
        subject({ adverseEventCount: 1 }),
        subject({}),
      ]),
    ).toEqual({
      adverseEvents: 4,
      seriousAdverseEvents: 1,
      subjectsWithAdverseEvents: 2,
      subjectsWithSeriousAdverseEvents: 1,
    });
  });
});
