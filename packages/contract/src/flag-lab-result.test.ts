import { describe, expect, it } from 'vitest';
import { type DatedLabRange, flagLabResult, rangesInForceOn } from './flag-lab-result.ts';

describe('flagLabResult', () => {
  const range = { low: 3.5, high: 5.2 };

  it('is normal at both limits and between them', () => {
    expect(flagLabResult(3.5, range)).toBe('N');
    expect(flagLabResult(5.2, range)).toBe('N');
    expect(flagLabResult(4.1, range)).toBe('N');
  });

  it('flags just outside either limit', () => {
    expect(flagLabResult(3.49, range)).toBe('L');
    expect(flagLabResult(5.21, range)).toBe('H');
  });

  it('a limit left open flags nothing on its side', () => {
    expect(flagLabResult(1000, { low: 0, high: null })).toBe('N');
    expect(flagLabResult(-1, { low: 0, high: null })).toBe('L');
    expect(flagLabResult(-1000, { low: null, high: 40 })).toBe('N');
    expect(flagLabResult(40, { low: null, high: 40 })).toBe('N');
    expect(flagLabResult(40.01, { low: null, high: 40 })).toBe('H');
  });

  it('a range of one value: only that value is normal', () => {
    expect(flagLabResult(7, { low: 7, high: 7 })).toBe('N');
    expect(flagLabResult(7.001, { low: 7, high: 7 })).toBe('H');
    expect(flagLabResult(6.999, { low: 7, high: 7 })).toBe('L');
  });

  it('flags nothing without a range', () => {
    expect(flagLabResult(99, undefined)).toBeNull();
  });
});

describe('rangesInForceOn', () => {
  let nextId = 1;
  const range = (overrides: Partial<DatedLabRange>): DatedLabRange => ({
    id: nextId++,
    testKey: 'hemoglobin',
    unit: 'g/dL',
    low: 12,
    high: 16,
    effectiveFrom: '2025-01-01',
    sexLimited: false,
    ...overrides,
  });

  it('takes the newest range effective on or before the date, a range from that very day included', () => {
    const ranges = [range({ low: 12 }), range({ low: 13, effectiveFrom: '2025-06-01' })];
    expect(rangesInForceOn(ranges, '2025-05-31').get('hemoglobin')?.low).toBe(12);
    expect(rangesInForceOn(ranges, '2025-06-01').get('hemoglobin')?.low).toBe(13);
    expect(rangesInForceOn(ranges, '2024-12-31').size).toBe(0);
  });

  it("of one day, prefers the range for the subject's sex, then the later entered", () => {
    const general = range({ low: 12 });
    const forSex = range({ low: 13, sexLimited: true });
    expect(rangesInForceOn([forSex, general], '2025-03-01').get('hemoglobin')?.low).toBe(13);
    const later = range({ low: 11 });
    expect(rangesInForceOn([later, general], '2025-03-01').get('hemoglobin')?.low).toBe(11);
  });

  it('chooses per test and answers only the applied fields', () => {
    const chosen = rangesInForceOn(
      [range({}), range({ testKey: 'wbc', unit: '10³/µL', low: 4, high: 10 })],
      '2025-03-01',
    );
    expect([...chosen.keys()].sort()).toEqual(['hemoglobin', 'wbc']);
    expect(chosen.get('wbc')).toEqual({ testKey: 'wbc', unit: '10³/µL', low: 4, high: 10 });
  });
});
