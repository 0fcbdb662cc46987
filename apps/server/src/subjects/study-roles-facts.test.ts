import { type StudyDefinition, tmPerforationStudy } from '@cdms/study';
import { describe, expect, it } from 'vitest';
import { labRangeSubjectOf, labSexOf } from '../lab-range-rules/applicable-lab-ranges.ts';
import { labResultsMayMove } from '../read-model/refresh-lab-results.ts';
import { isFactSourceForm, subjectFactCodes } from '../read-model/subject-facts.ts';
import { factSourceForms } from './subject-fact-sources.ts';
import { visitFactsOf } from './visit-facts.ts';

// The facts follow the study's roles (issue 45 item 3): TMP-2026 declares them all; the same study
// without roles reads none of those forms, has those facts empty, and nothing throws.

const withoutRoles: StudyDefinition = { ...tmPerforationStudy, roles: undefined };
const roles = tmPerforationStudy.roles;

/** A female subject screened at V1 and treated at V2 a day after the visit, eligible though failing a criterion. */
const subject = {
  forms: {
    v1: {
      visitDay: { visitDate: '2026-03-02' },
      demographicInfo: { gender: 'F', age: 40 },
      ptaTest: { airAverage: 42.5, boneAverage: 20 },
      tympanicPhoto: {},
    },
    v2: {
      visitDay: { visitDate: '2026-03-10' },
      inclusionExclusionEval: { eligible: 'Y', inc01: 'N' },
      deviceApplication: { applied: 'Y', applicationDate: '2026-03-11' },
    },
  },
  savedForms: [
    { visitKey: 'v1', formKey: 'visitDay', missingRequired: false },
    { visitKey: 'v2', formKey: 'visitDay', missingRequired: false },
    { visitKey: 'v2', formKey: 'inclusionExclusionEval', missingRequired: true },
    { visitKey: 'v2', formKey: 'deviceApplication', missingRequired: false },
  ],
  gender: 'F',
  schedule: [],
};

describe('facts from the study roles', () => {
  it("reads TMP-2026's forms through its roles", () => {
    expect(
      factSourceForms(tmPerforationStudy).map((source) => `${source.visitKey}/${source.formKey}`),
    ).toEqual([
      'v1/demographicInfo',
      'all/adverseEvent',
      'all/endExamination',
      'v2/deviceApplication',
      'null/inclusionExclusionEval',
      'null/pregnancyTest',
      'null/tympanicPhoto',
      'null/ptaTest',
    ]);
    expect(isFactSourceForm(tmPerforationStudy, 'v1', 'demographicInfo')).toBe(true);
    expect(isFactSourceForm(tmPerforationStudy, 'v3', 'tympanicPhoto')).toBe(true);
    expect(isFactSourceForm(tmPerforationStudy, 'v1', 'vitalSigns')).toBe(false);
    const [v1, v2] = visitFactsOf(tmPerforationStudy, subject);
    expect(v1?.roleFacts).toEqual({
      pregnancyTestMissing: 'notRecorded',
      measures: { airAverage: 42.5, boneAverage: 20 },
    });
    expect(v2?.roleFacts).toEqual({ eligibleFailingCriteria: 'inc01', treatmentAppliedOn: '2026-03-11' });
    expect(labRangeSubjectOf(tmPerforationStudy, 1, subject.forms)).toEqual({ siteId: 1, sex: 'F', age: 40 });
    expect(labSexOf(tmPerforationStudy, roles?.demographics?.maleCode)).toBe('M');
    expect(
      labResultsMayMove(
        tmPerforationStudy,
        { visitKey: 'v1', formKey: 'demographicInfo', changed: true },
        [],
      ),
    ).toBe(true);
    expect(subjectFactCodes(tmPerforationStudy).gender.map((code) => code.code)).toEqual(['M', 'F']);
  });

  it('leaves the facts of a missing role empty, and never throws', () => {
    expect(factSourceForms(withoutRoles)).toEqual([]);
    expect(isFactSourceForm(withoutRoles, 'v1', 'demographicInfo')).toBe(false);
    expect(isFactSourceForm(withoutRoles, 'v1', 'visitDay')).toBe(true);
    for (const facts of visitFactsOf(withoutRoles, subject)) expect(facts.roleFacts).toEqual({});
    expect(labRangeSubjectOf(withoutRoles, 1, subject.forms)).toEqual({ siteId: 1, sex: null, age: null });
    expect(labSexOf(withoutRoles, 'F')).toBeNull();
    expect(
      labResultsMayMove(withoutRoles, { visitKey: 'v1', formKey: 'demographicInfo', changed: true }, []),
    ).toBe(false);
    expect(subjectFactCodes(withoutRoles)).toEqual({
      gender: [],
      screeningFailureReason: [],
      dropoutReason: [],
    });
  });
});
