import { getFormLayout, tmPerforationStudy } from '@cdms/study';
import { describe, expect, it } from 'vitest';
import { describeValue, itemLabel, mergeOnConflict, toFormItemPath } from './form-values.ts';

const demographics = getFormLayout(tmPerforationStudy, 'v1', 'demographicInfo');
const history = getFormLayout(tmPerforationStudy, 'v1', 'medicalHistory');

describe('409 merge', () => {
  const base = { birthDate: '1990-01-01', gender: 'M' };

  it("re-applies the user's changes on top of the server's version and lists the differences", () => {
    const mine = { birthDate: '1991-01-01', gender: 'M' };
    const theirs = { birthDate: '1990-01-01', gender: 'F' };
    const { merged, rows } = mergeOnConflict(demographics, base, mine, theirs);
    expect(merged).toEqual({ birthDate: '1991-01-01', gender: 'F' });
    expect(rows).toEqual([
      {
        itemKey: 'birthDate',
        base: '1990-01-01',
        mine: '1991-01-01',
        theirs: '1990-01-01',
        mineChanged: true,
        theirsChanged: false,
      },
      { itemKey: 'gender', base: 'M', mine: 'M', theirs: 'F', mineChanged: false, theirsChanged: true },
    ]);
  });

  it('keeps a value the user cleared cleared, and shows nothing when both made the same change', () => {
    const { merged, rows } = mergeOnConflict(
      demographics,
      base,
      { birthDate: '1990-01-01' },
      { birthDate: '1990-01-01', gender: 'M', age: 36 },
    );
    expect(merged).toEqual({ birthDate: '1990-01-01' });
    expect(rows.map((row) => row.itemKey)).toEqual(['gender']);
    expect(
      mergeOnConflict(demographics, base, { ...base, gender: 'F' }, { ...base, gender: 'F' }).rows,
    ).toEqual([]);
  });
});

describe('item paths and labels', () => {
  it('turns server paths into the renderer paths', () => {
    expect(toFormItemPath('v1.vitalSigns.bloodPressureSystolic', 'v1', 'vitalSigns')).toBe(
      'bloodPressureSystolic',
    );
    expect(toFormItemPath('medicalHistory.histories[0].endDate', 'v1', 'medicalHistory')).toBe(
      'histories[0].endDate',
    );
  });

  it('labels items and row cells, and describes values by their code label', () => {
    expect(itemLabel(demographics, 'birthDate', 'en')).toBe('Date of birth');
    expect(itemLabel(history, 'histories[1].content', 'en')).toMatch(/#2 · /);
    expect(describeValue(tmPerforationStudy, demographics, 'gender', 'M', 'en', String)).toBe('Male');
    expect(describeValue(tmPerforationStudy, history, 'histories', [{}, {}], 'en', (n) => `${n} rows`)).toBe(
      '2 rows',
    );
  });
});
