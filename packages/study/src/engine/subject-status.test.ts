import { describe, expect, it } from 'vitest';
import type { SubjectData } from '../model/json-value.ts';
import { tmPerforationStudy } from '../studies/tm-perforation/index.ts';
import { computeSubjectStatus } from './subject-status.ts';

const status = (data: SubjectData) => computeSubjectStatus(tmPerforationStudy, data, '2025-06-20');

describe('computeSubjectStatus (tympanic membrane perforation study)', () => {
  it('is Screening with no deciding data', () => {
    expect(status({})).toEqual({ status: 'screening', rule: null });
    expect(status({ v1: { inclusionExclusionEval: { eligible: 'Y' } } }).status).toBe('screening');
  });

  it('is Screening-failure for each cause', () => {
    expect(status({ v1: { inclusionExclusionEval: { eligible: 'N' } } })).toEqual({
      status: 'screening_failure',
      rule: 'screeningFailure',
    });
    expect(status({ v2: { inclusionExclusionEval: { eligible: 'N' } } }).status).toBe('screening_failure');
    expect(status({ v1: { tbctImaging: { fractureOrDamage: 'Y' } } }).status).toBe('screening_failure');
    expect(status({ v1: { pregnancyTest: { childbearingPotential: 'Y', result: 'positive' } } }).status).toBe(
      'screening_failure',
    );
    expect(status({ v1: { pregnancyTest: { childbearingPotential: 'Y', result: 'negative' } } }).status).toBe(
      'screening',
    );
    expect(status({ all: { endExamination: { completed: 'SF' } } }).status).toBe('screening_failure');
  });

  it('is Ongoing once randomized, then Complete or Drop-out at the end of study', () => {
    const randomized: SubjectData = { v2: { randomizationNumber: { randomizationNumber: 'R01001' } } };
    expect(status(randomized)).toEqual({ status: 'ongoing', rule: 'ongoing' });
    expect(status({ ...randomized, all: { endExamination: { completed: 'Y' } } }).status).toBe('complete');
    expect(
      status({ ...randomized, all: { endExamination: { completed: 'N', dropoutReason: '001' } } }).status,
    ).toBe('dropout');
  });

  it('is Screening for a definition without status rules', () => {
    const { subjectStatus: _rules, ...withoutRules } = tmPerforationStudy;
    expect(
      computeSubjectStatus(withoutRules, { all: { endExamination: { completed: 'Y' } } }, '2025-06-20')
        .status,
    ).toBe('screening');
  });
});
