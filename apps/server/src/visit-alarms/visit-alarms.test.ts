import { describe, expect, it } from 'vitest';
import { pageSlices } from './visit-alarms.ts';

describe('pageSlices', () => {
  const counts = { overdue: 3, due: 0, dueSoon: 4, outOfWindow: 5 };

  it('takes a page inside one state as one run', () => {
    expect(pageSlices(counts, undefined, 0, 2)).toEqual([{ state: 'overdue', offset: 0, limit: 2 }]);
    expect(pageSlices(counts, undefined, 8, 2)).toEqual([{ state: 'outOfWindow', offset: 1, limit: 2 }]);
  });

  it('splits a page at the seam of two states, skipping an empty state between them', () => {
    expect(pageSlices(counts, undefined, 2, 3)).toEqual([
      { state: 'overdue', offset: 2, limit: 1 },
      { state: 'dueSoon', offset: 0, limit: 2 },
    ]);
    expect(pageSlices(counts, undefined, 0, 12)).toEqual([
      { state: 'overdue', offset: 0, limit: 3 },
      { state: 'dueSoon', offset: 0, limit: 4 },
      { state: 'outOfWindow', offset: 0, limit: 5 },
    ]);
  });

  it('covers every alarm exactly once when the pages are laid end to end', () => {
    for (const size of [1, 2, 5, 10]) {
      const taken = { overdue: 0, due: 0, dueSoon: 0, outOfWindow: 0 };
      for (let offset = 0; offset < 12; offset += size) {
        const slices = pageSlices(counts, undefined, offset, size);
        expect(slices.reduce((sum, slice) => sum + slice.limit, 0)).toBe(Math.min(size, 12 - offset));
        for (const slice of slices) {
          expect(slice.offset).toBe(taken[slice.state]);
          taken[slice.state] += slice.limit;
        }
      }
      expect(taken).toEqual(counts);
    }
  });

  it('pages within the one state asked for, and gives nothing past the end', () => {
    expect(pageSlices(counts, 'dueSoon', 2, 10)).toEqual([{ state: 'dueSoon', offset: 2, limit: 2 }]);
    expect(pageSlices(counts, 'due', 0, 10)).toEqual([]);
    expect(pageSlices(counts, undefined, 12, 10)).toEqual([]);
    expect(pageSlices(counts, 'overdue', 10, 10)).toEqual([]);
  });
});
