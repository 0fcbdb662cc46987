import { describe, expect, it } from 'vitest';
import { tmPerforationStudy } from '../studies/tm-perforation/index.ts';
import { numericLabTests } from './lab-tests.ts';

describe('numericLabTests', () => {
  it('lists the numeric tests of the labTest form in form order, without the urine dipstick texts', () => {
    const tests = numericLabTests(tmPerforationStudy);
    expect(tests.map((test) => test.testKey)).toEqual([
      'wbc',
      'rbc',
      'hemoglobin',
      'hematocrit',
      'platelet',
      'bun',
      'creatinine',
      'ast',
      'alt',
      'albumin',
      'totalProtein',
      'totalBilirubin',
      'glucose',
      'cholesterol',
      'egfr',
      'pt',
      'aptt',
      'urinePh',
    ]);
    expect(tests[0]).toMatchObject({
      unit: '10³/µL',
      resultItem: 'wbcResult',
      normalItem: 'wbcNormal',
      significanceItem: 'wbcSignificance',
    });
  });

  it('is empty for a study without the form', () => {
    expect(numericLabTests({ ...tmPerforationStudy, forms: [] })).toEqual([]);
  });
});
