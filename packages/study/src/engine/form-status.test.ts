import { describe, expect, it } from 'vitest';
import { evaluateSubject } from './evaluate-subject.ts';
import { computeFormStatus, computeStatusMatrix } from './form-status.ts';
import { miniStudy } from './test-fixtures.ts';

describe('computeFormStatus', () => {
  const base = { inVisit: true, saved: true, openQueryCount: 0, missingCount: 0 };
  it('follows product.md', () => {
    expect(computeFormStatus({ ...base, inVisit: false, openQueryCount: 3 })).toBe('empty');
    expect(computeFormStatus({ ...base, saved: false, missingCount: 2 })).toBe('none');
    expect(computeFormStatus({ ...base, missingCount: 2 })).toBe('dash');
    expect(computeFormStatus({ ...base, openQueryCount: 1 })).toBe('alert');
    expect(computeFormStatus({ ...base, openQueryCount: 1, missingCount: 2 })).toBe('alert');
    expect(computeFormStatus(base)).toBe('check');
  });
});

describe('computeStatusMatrix', () => {
  it('covers every visit and every form of the definition', () => {
    const evaluation = evaluateSubject(
      miniStudy,
      { a: { visit: { date: '2025-06-01' }, main: { count: 1 } } },
      { today: '2025-06-20' },
    );
    const matrix = computeStatusMatrix(miniStudy, evaluation, {
      a: { visit: { saved: true, openQueryCount: 0 }, main: { saved: true, openQueryCount: 0 } },
      b: { visit: { saved: true, openQueryCount: 2 } },
    });
    expect(matrix).toEqual({
      a: { visit: 'check', main: 'dash', log: 'none' },
      b: { visit: 'alert', main: 'none', log: 'empty' },
    });
  });
});
