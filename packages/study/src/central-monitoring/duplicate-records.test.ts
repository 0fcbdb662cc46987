import { describe, expect, it } from 'vitest';
import { findDuplicateRecords } from './duplicate-records.ts';
import { mulberry32, normalSource } from './seeded-random.ts';

type Vitals = Record<string, unknown>;

/** A generated vital-signs record: eight measured values. */
function vitals(normal: () => number): Vitals {
  return {
    systolic: Math.round(120 + 15 * normal()),
    diastolic: Math.round(78 + 10 * normal()),
    pulse: Math.round(72 + 10 * normal()),
    respiration: Math.round(16 + 2 * normal()),
    temperature: Math.round((36.8 + 0.4 * normal()) * 10) / 10,
    weight: Math.round((68 + 12 * normal()) * 10) / 10,
    height: Math.round(168 + 9 * normal()),
    saturation: Math.min(100, Math.round(98 + 1.2 * normal())),
  };
}

/** 300 subjects × 3 visits of vital signs. */
function cleanRecords(seed: number) {
  const normal = normalSource(mulberry32(seed));
  const records: { id: string; subjectId: number; values: Vitals }[] = [];
  for (let subjectId = 1; subjectId <= 300; subjectId += 1) {
    for (let visit = 1; visit <= 3; visit += 1) {
      records.push({ id: `${subjectId}-${visit}`, subjectId, values: vitals(normal) });
    }
  }
  return records;
}

describe('findDuplicateRecords', () => {
  it('finds two subjects with an identical 8-value vital-signs record, keys in any order', () => {
    const records = cleanRecords(1);
    const copied = records.find((record) => record.id === '17-2')?.values as Vitals;
    const reordered = Object.fromEntries(Object.entries(copied).reverse());
    records.push({ id: '205-4', subjectId: 205, values: { ...reordered, comment: '', note: null } });
    const groups = findDuplicateRecords(records);
    expect(groups).toHaveLength(1);
    expect(groups[0]?.recordIds).toEqual(['17-2', '205-4']);
    expect(groups[0]?.subjectIds).toEqual([17, 205]);
    expect(groups[0]?.filledValues).toBe(8);
    expect(groups[0]?.fingerprint).toMatch(/^[0-9a-f]{16}$/);
  });

  it('gives the same fingerprint for the same values on every run', () => {
    const values = { a: 1, b: 2, c: 3, d: 4 };
    const first = findDuplicateRecords([
      { id: 1, subjectId: 1, values },
      { id: 2, subjectId: 2, values: { d: 4, c: 3, b: 2, a: 1 } },
    ]);
    const second = findDuplicateRecords([
      { id: 9, subjectId: 5, values: { d: 4, c: 3, b: 2, a: 1 } },
      { id: 8, subjectId: 6, values },
    ]);
    expect(first[0]?.fingerprint).toBe(second[0]?.fingerprint);
    const other = findDuplicateRecords([
      { id: 1, subjectId: 1, values: { ...values, a: '1' } },
      { id: 2, subjectId: 2, values: { ...values, a: '1' } },
    ]);
    expect(other[0]?.fingerprint).not.toBe(first[0]?.fingerprint);
  });

  it('finds nothing in clean generated data (documented: 0 groups in 20 runs of 900 records)', () => {
    for (let run = 0; run < 20; run += 1) {
      expect(findDuplicateRecords(cleanRecords(100 + run))).toEqual([]);
    }
  });

  it('leaves same-subject repeats and sparse records alone', () => {
    const values = { a: 1, b: 2, c: 3, d: 4, e: 5 };
    expect(
      findDuplicateRecords([
        { id: 1, subjectId: 1, values },
        { id: 2, subjectId: 1, values },
      ]),
    ).toEqual([]);
    const sparse = { a: 1, b: 2, c: 3, d: null, e: '  ', f: [] };
    expect(
      findDuplicateRecords([
        { id: 1, subjectId: 1, values: sparse },
        { id: 2, subjectId: 2, values: sparse },
      ]),
    ).toEqual([]);
    expect(
      findDuplicateRecords(
        [
          { id: 1, subjectId: 1, values: sparse },
          { id: 2, subjectId: 2, values: sparse },
        ],
        { minimumFilledValues: 3 },
      ),
    ).toHaveLength(1);
    // A same-subject repeat joins a group that spans two subjects.
    const group = findDuplicateRecords([
      { id: 1, subjectId: 1, values },
      { id: 2, subjectId: 1, values },
      { id: 3, subjectId: 2, values },
    ]);
    expect(group[0]?.recordIds).toEqual([1, 2, 3]);
    expect(group[0]?.subjectIds).toEqual([1, 2]);
  });

  it('handles empty input, negative numbers, decimals, text and nested values', () => {
    expect(findDuplicateRecords([])).toEqual([]);
    const values = { change: -3.5, note: ' same ', list: [1, 2], shape: { y: 1, x: 2 } };
    const groups = findDuplicateRecords([
      { id: 'a', subjectId: 1, values },
      { id: 'b', subjectId: 2, values: { shape: { x: 2, y: 1 }, list: [1, 2], note: 'same', change: -3.5 } },
      { id: 'c', subjectId: 3, values: { ...values, change: -3.4 } },
    ]);
    expect(groups.map((group) => group.recordIds)).toEqual([['a', 'b']]);
  });
});
