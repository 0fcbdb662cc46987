import { expect, it } from 'vitest';
import { type MigrationHistory, valuesAsEntered } from './values-as-entered.ts';

/** Two migrations of subject 7's vital signs at v1: what each wrote, oldest first. */
function historyOf(changes: Record<string, Array<{ before: unknown; after: unknown }>>): MigrationHistory {
  return {
    changes: new Map([['7|v1|vitalSigns', new Map(Object.entries(changes))]]),
    retiredDerived: new Map([['7|v1|vitalSigns', { bmi: 24.2 }]]),
  };
}

it('undoes each migration back to the value entered, while the stored value is what they wrote', () => {
  const history = historyOf({
    // Re-coded by AM-01, then again by AM-02.
    result: [
      { before: 'abnormalNcs', after: 'ncs' },
      { before: 'ncs', after: 'notSignificant' },
    ],
    // Retired by AM-01: the save removed it.
    measurementDate: [{ before: '2025-03-04', after: null }],
  });
  expect(
    valuesAsEntered(history, 7, 'v1', 'vitalSigns', { result: 'notSignificant', heartRate: 70 }),
  ).toEqual({
    result: 'abnormalNcs',
    measurementDate: '2025-03-04',
    heartRate: 70,
    bmi: 24.2,
  });
});

it('keeps a value a person changed after the migration, and stops where a person changed it between two', () => {
  const changedSince = historyOf({ result: [{ before: 'abnormalNcs', after: 'ncs' }] });
  expect(valuesAsEntered(changedSince, 7, 'v1', 'vitalSigns', { result: 'normal' })).toMatchObject({
    result: 'normal',
  });
  // AM-01 wrote 'ncs', a person entered 'other', AM-02 re-coded it: as entered is 'other'.
  const between = historyOf({
    result: [
      { before: 'abnormalNcs', after: 'ncs' },
      { before: 'other', after: 'otherCode' },
    ],
  });
  expect(valuesAsEntered(between, 7, 'v1', 'vitalSigns', { result: 'otherCode' })).toMatchObject({
    result: 'other',
  });
});

it('leaves a form no migration changed as it is stored', () => {
  const stored = { heartRate: 70 };
  expect(valuesAsEntered(historyOf({}), 8, 'v1', 'vitalSigns', stored)).toBe(stored);
});
