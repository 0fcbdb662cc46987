import { describe, expect, it } from 'vitest';
import { chooseLabRanges, type SiteLabRange } from '../lab-range-rules/applicable-lab-ranges.ts';

let nextId = 1;
const range = (overrides: Partial<SiteLabRange>): SiteLabRange => ({
  id: nextId++,
  test_key: 'hemoglobin',
  unit: 'g/dL',
  low: 12,
  high: 16,
  sex: null,
  age_min: null,
  age_max: null,
  effective_from: '2025-01-01',
  ...overrides,
});

describe('chooseLabRanges', () => {
  it('takes the newest range in force on the date, not one that starts later', () => {
    const ranges = [range({ low: 12 }), range({ low: 13, effective_from: '2025-06-01' })];
    expect(chooseLabRanges(ranges, { sex: null, age: null }, '2025-05-31').get('hemoglobin')?.low).toBe(12);
    expect(chooseLabRanges(ranges, { sex: null, age: null }, '2025-06-01').get('hemoglobin')?.low).toBe(13);
    expect(chooseLabRanges(ranges, { sex: null, age: null }, '2024-12-31').size).toBe(0);
  });

  it("prefers a range for the subject's sex, and gives a subject of unknown sex only the general one", () => {
    const ranges = [range({ low: 12 }), range({ sex: 'M', low: 13 }), range({ sex: 'F', low: 11.5 })];
    expect(chooseLabRanges(ranges, { sex: 'M', age: 40 }, '2025-03-01').get('hemoglobin')?.low).toBe(13);
    expect(chooseLabRanges(ranges, { sex: 'F', age: 40 }, '2025-03-01').get('hemoglobin')?.low).toBe(11.5);
    expect(chooseLabRanges(ranges, { sex: null, age: 40 }, '2025-03-01').get('hemoglobin')?.low).toBe(12);
  });

  it('applies age limits inclusively, and none of them to a subject of unknown age', () => {
    const ranges = [range({ age_min: 65, low: 11, effective_from: '2025-02-01' }), range({ low: 12 })];
    expect(chooseLabRanges(ranges, { sex: null, age: 65 }, '2025-03-01').get('hemoglobin')?.low).toBe(11);
    expect(chooseLabRanges(ranges, { sex: null, age: 64 }, '2025-03-01').get('hemoglobin')?.low).toBe(12);
    expect(chooseLabRanges(ranges, { sex: null, age: null }, '2025-03-01').get('hemoglobin')?.low).toBe(12);
    const band = [range({ age_min: 19, age_max: 64 })];
    expect(chooseLabRanges(band, { sex: null, age: 64 }, '2025-03-01').size).toBe(1);
    expect(chooseLabRanges(band, { sex: null, age: 18 }, '2025-03-01').size).toBe(0);
  });
});
