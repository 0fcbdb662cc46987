import { subjectStatuses } from '@cdms/contract';
import { describe, expect, it } from 'vitest';
import { ageBandLabel, DOUGHNUT_CUTOUT, percentOf, STATUS_SEGMENTS } from './figures.ts';

describe('dashboard figures', () => {
  it('shows a share to one decimal, 0.0 for an empty group', () => {
    expect(percentOf(1, 3)).toBe('33.3');
    expect(percentOf(2, 3)).toBe('66.7');
    expect(percentOf(5, 5)).toBe('100.0');
    expect(percentOf(0, 0)).toBe('0.0');
  });

  it('words age bands from their bounds', () => {
    expect(ageBandLabel({ key: 'under30', minAge: null, maxAge: 29 })).toEqual({ key: 'under', age: 30 });
    expect(ageBandLabel({ key: '30to39', minAge: 30, maxAge: 39 })).toEqual({
      key: 'range',
      min: 30,
      max: 39,
    });
    expect(ageBandLabel({ key: '70andOver', minAge: 70, maxAge: null })).toEqual({ key: 'over', age: 70 });
    expect(ageBandLabel({ key: 'notEntered', minAge: null, maxAge: null })).toEqual({ key: 'notEntered' });
  });

  it('draws every status once, in the spec colours, with a 70% cutout', () => {
    expect(STATUS_SEGMENTS.map((segment) => segment.status).sort()).toEqual([...subjectStatuses].sort());
    expect(Object.fromEntries(STATUS_SEGMENTS.map((segment) => [segment.status, segment.color]))).toEqual({
      dropout: '#ef4444',
      complete: '#3b82f6',
      ongoing: '#facc15',
      screening: '#14b8a6',
      screening_failure: '#8b5cf6',
    });
    expect(DOUGHNUT_CUTOUT).toBe('70%');
  });
});
