import { describe, expect, it } from 'vitest';
import { tmPerforationStudy } from '../studies/tm-perforation/index.ts';
import { changedItemKeys, enteredFormValues, itemsNeedingReason, sameEntry } from './form-changes.ts';
import { getFormLayout } from './study-index.ts';

const demographics = getFormLayout(tmPerforationStudy, 'v1', 'demographicInfo');
const history = getFormLayout(tmPerforationStudy, 'v1', 'medicalHistory');

describe('what changed in a form', () => {
  it('treats empty values alike and ignores derived items', () => {
    expect(sameEntry(null, '')).toBe(true);
    expect(sameEntry('  ', undefined)).toBe(true);
    expect(sameEntry([], undefined)).toBe(true);
    expect(sameEntry({ b: 1, a: null }, { b: 1 })).toBe(true);
    expect(sameEntry('M', 'F')).toBe(false);
    // age is derived: the server computes it, so a different age is not the user's change.
    expect(
      changedItemKeys(
        demographics,
        { birthDate: '1990-01-01', age: 35 },
        { birthDate: '1990-01-01', age: 1 },
      ),
    ).toEqual([]);
    expect(enteredFormValues(demographics, { birthDate: '1990-01-01', age: 35, gender: '' })).toEqual({
      birthDate: '1990-01-01',
    });
  });

  it('asks a reason only for saved values that change or are cleared, not for first entries', () => {
    const saved = { birthDate: '1990-01-01', gender: 'M' };
    expect(itemsNeedingReason(demographics, saved, { birthDate: '1991-02-03', gender: 'M' })).toEqual([
      'birthDate',
    ]);
    expect(itemsNeedingReason(demographics, saved, { birthDate: '1990-01-01', gender: null })).toEqual([
      'gender',
    ]);
    expect(itemsNeedingReason(demographics, { birthDate: '1990-01-01' }, saved)).toEqual([]);
  });

  it('compares repeating rows by content: key order and emptied cells are no change', () => {
    const before = { histories: [{ content: 'otitis', continuity: true }] };
    expect(
      changedItemKeys(history, before, { histories: [{ continuity: true, content: 'otitis' }] }),
    ).toEqual([]);
    // A cell typed into and emptied again leaves `null` behind in the row: the same entry.
    expect(
      changedItemKeys(history, before, {
        histories: [{ content: 'otitis', continuity: true, opinion: null }],
      }),
    ).toEqual([]);
    expect(
      changedItemKeys(history, before, { histories: [{ content: 'otitis media', continuity: true }] }),
    ).toEqual(['histories']);
  });
});
