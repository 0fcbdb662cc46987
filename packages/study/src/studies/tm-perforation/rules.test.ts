import { describe, expect, it } from 'vitest';
import {
  evaluateSubject,
  findFormEvaluation,
  type SubjectEvaluation,
} from '../../engine/evaluate-subject.ts';
import { computeStatusMatrix, type StoredFormStates } from '../../engine/form-status.ts';
import { validateFormValues } from '../../engine/validate-values.ts';
import { computeVisitSchedule } from '../../engine/visit-windows.ts';
import type { JsonValue } from '../../model/json-value.ts';
import { type StudyDefinition, studyDefinitionSchema } from '../../model/study-definition.ts';
import { exclusionCriteria, tmPerforationStudy as study } from './index.ts';
import { SAMPLE_TODAY, sampleSubject } from './sample-subject.ts';

// Every rule of spec §5 on the complete sample subject: one change that makes it fail, and the boundary or
// unchanged case that passes.

type Change = [path: string, value: JsonValue];

function evaluate(
  changes: Change[] = [],
  today = SAMPLE_TODAY,
  definition: StudyDefinition = study,
): SubjectEvaluation {
  const data = sampleSubject();
  for (const [path, value] of changes) {
    const [visit, form, item] = path.split('.') as [string, string, string];
    data[visit] ??= {};
    const visitData = data[visit] as Record<string, Record<string, JsonValue>>;
    visitData[form] ??= {};
    (visitData[form] as Record<string, JsonValue>)[item] = value;
  }
  return evaluateSubject(definition, data, { today });
}

/** "visit:checkId" of every failing check, without the everyday visit-date warnings. */
function failing(evaluation: SubjectEvaluation): string[] {
  return evaluation.checks
    .filter((c) => c.checkId !== 'visitDay.visitDateBeforeToday')
    .map((c) => `${c.visitKey}:${c.checkId}`);
}

function derivedValue(
  evaluation: SubjectEvaluation,
  visit: string,
  form: string,
  item: string,
): JsonValue | undefined {
  return findFormEvaluation(evaluation, visit, form)?.derived[item];
}

function outcomes(evaluation: SubjectEvaluation): string[] {
  return evaluation.outcomes.map((o) => `${o.visitKey}:${o.outcomeId}:${o.kind}`);
}

describe('the sample subject', () => {
  it('is complete and consistent', () => {
    const evaluation = evaluate();
    expect(evaluation.forms.flatMap((f) => f.missing)).toEqual([]);
    expect(failing(evaluation)).toEqual([]);
    expect(evaluation.outcomes).toEqual([]);
  });

  it('shows every scheduled form as complete once saved, and the rest as not in the visit', () => {
    const stored: StoredFormStates = {};
    for (const visit of study.visits) {
      stored[visit.key] = Object.fromEntries(visit.forms.map((f) => [f, { saved: true, openQueryCount: 0 }]));
    }
    const matrix = computeStatusMatrix(study, evaluate(), stored);
    expect(matrix.v1?.demographicInfo).toBe('check');
    expect(matrix.v2?.demographicInfo).toBe('empty');
    expect(matrix.all?.adverseEvent).toBe('check');
    const statuses = new Set(Object.values(matrix).flatMap((row) => Object.values(row)));
    expect([...statuses].sort()).toEqual(['check', 'empty']);
  });
});

describe('inclusion criteria', () => {
  it('age 15 or older: a 14-year-old marked as meeting it raises a query', () => {
    const evaluation = evaluate([['v1.demographicInfo.birthDate', '2010-03-04']]);
    expect(derivedValue(evaluation, 'v1', 'demographicInfo', 'age')).toBe(14);
    expect(failing(evaluation)).toEqual([
      'v1:demographicInfo.underMinimumAge',
      'v1:inclusionExclusionEval.inc01.age',
      'v2:inclusionExclusionEval.inc01.age',
    ]);
    const fifteen = evaluate([['v1.demographicInfo.birthDate', '2010-03-03']]);
    expect(derivedValue(fifteen, 'v1', 'demographicInfo', 'age')).toBe(15);
    expect(failing(fifteen)).toEqual([]);
  });

  it('chronic perforation of 3 months or more: "not met" with a "yes" eligibility raises a query', () => {
    expect(failing(evaluate([['v1.inclusionExclusionEval.inc02', 'N']]))).toEqual([
      'v1:inclusionExclusionEval.inc02.notMet',
    ]);
    expect(failing(evaluate([['v1.inclusionExclusionEval.inc02', 'Y']]))).toEqual([]);
  });

  it('perforation 20 to 60 percent of the V1 membrane', () => {
    const id = 'inclusionExclusionEval.inc03.perforationPercent';
    const at = (diameter: number) => failing(evaluate([['v1.tympanicPhoto.perforationDiameter', diameter]]));
    expect(at(1.9)).toEqual([`v1:${id}`, `v2:${id}`]);
    expect(at(2)).toEqual([]);
    expect(at(6)).toEqual([]);
    expect(at(6.1)).toEqual([`v1:${id}`, `v2:${id}`]);
  });

  it('written consent: "met" without a consent date raises a query', () => {
    const evaluation = evaluate([['consentScreening.consentScreening.consentDate', null]]);
    expect(failing(evaluation)).toContain('v1:inclusionExclusionEval.inc04.consent');
    expect(failing(evaluate([['v1.inclusionExclusionEval.inc04', 'N']]))).toEqual([
      'v1:inclusionExclusionEval.inc04.notMet',
    ]);
  });
});

describe('exclusion criteria', () => {
  it.each(exclusionCriteria.map((c) => c.key))(
    '%s applying with a "yes" eligibility raises a query',
    (key) => {
      expect(failing(evaluate([[`v1.inclusionExclusionEval.${key}`, 'Y']]))).toEqual([
        `v1:inclusionExclusionEval.${key}.applies`,
      ]);
      expect(
        failing(
          evaluate([
            [`v1.inclusionExclusionEval.${key}`, 'Y'],
            ['v1.inclusionExclusionEval.eligible', 'N'],
          ]),
        ),
      ).toEqual([]);
    },
  );

  it('eGFR below 30 contradicts a "no" on the eGFR criterion', () => {
    expect(failing(evaluate([['v1.labTest.egfrResult', 29.9]]))).toEqual([
      'v1:inclusionExclusionEval.exc05.egfr',
      'v2:inclusionExclusionEval.exc05.egfr',
    ]);
    expect(failing(evaluate([['v1.labTest.egfrResult', 30]]))).toEqual([]);
  });

  it('a positive V1 pregnancy test contradicts a "no" on the pregnancy criterion and excludes the subject', () => {
    const evaluation = evaluate([['v1.pregnancyTest.result', 'positive']]);
    expect(failing(evaluation)).toEqual([
      'v1:inclusionExclusionEval.exc06.pregnancy',
      'v2:inclusionExclusionEval.exc06.pregnancy',
    ]);
    expect(outcomes(evaluation)).toEqual(['v1:pregnancyTest.positive:excluded']);
  });

  it('a criterion added to the JSON definition works without code', () => {
    const definition = JSON.parse(JSON.stringify(study)) as StudyDefinition;
    const form = definition.forms.find((f) => f.key === 'inclusionExclusionEval');
    form?.sections
      .find((s) => s.key === 'exclusion')
      ?.items.push({
        key: 'exc10',
        type: 'yesNo',
        label: { ko: '새 제외기준', en: 'New criterion' },
        required: true,
      });
    form?.checks?.push({
      id: 'inclusionExclusionEval.exc10.applies',
      item: 'exc10',
      when: {
        op: 'and',
        args: [
          { op: 'eq', args: [{ ref: 'eligible' }, 'Y'] },
          { op: 'eq', args: [{ ref: 'exc10' }, 'Y'] },
        ],
      },
      severity: 'query',
      message: { ko: '제외기준에 해당합니다.', en: 'An exclusion criterion applies.' },
    });
    expect(studyDefinitionSchema.safeParse(definition).success).toBe(true);
    const missing = evaluate([], SAMPLE_TODAY, definition).forms.flatMap((f) => f.missing.map((m) => m.path));
    expect(missing).toEqual(['v1.inclusionExclusionEval.exc10', 'v2.inclusionExclusionEval.exc10']);
    expect(failing(evaluate([['v1.inclusionExclusionEval.exc10', 'Y']], SAMPLE_TODAY, definition))).toEqual([
      'v1:inclusionExclusionEval.exc10.applies',
    ]);
  });
});

describe('reconfirm warnings with a "yes" eligibility (query severity)', () => {
  const cases: [string, Change, string[]][] = [
    ['V1 ear discharge yes', ['v1.diseaseBasicInfo.earDischarge', 'Y'], ['v1', 'v2']],
    ['otoscopy otorrhea yes', ['v1.otoscopyEndoscopy.otorrhea', 'Y'], ['v1']],
    ['ND on pure tone audiometry (air)', ['v2.ptaTest.airNd', true], ['v2']],
    ['ND on pure tone audiometry (bone)', ['v1.ptaTest.boneNd', true], ['v1']],
    ['ND on V1 body measurement', ['v1.bodyMeasurement.nd', true], ['v1', 'v2']],
    ['ND on physical exam', ['v2.physicalExam.nd', true], ['v2']],
    ['ND on vital signs', ['v1.vitalSigns.nd', true], ['v1']],
    ['ND on V1 lab test', ['v1.labTest.nd', true], ['v1', 'v2']],
  ];
  it.each(cases)('%s', (_name, change, visits) => {
    const raised = evaluate([change]).checks.filter((c) =>
      c.checkId.startsWith('inclusionExclusionEval.reconfirm.'),
    );
    expect(raised.map((c) => c.visitKey)).toEqual(visits);
    for (const check of raised) {
      expect(check.severity).toBe('query');
      expect(check.itemKey).toBe('eligible');
      expect(check.message.ko).toContain('재확인');
    }
    const notEligible = evaluate([
      change,
      ['v1.inclusionExclusionEval.eligible', 'N'],
      ['v2.inclusionExclusionEval.eligible', 'N'],
    ]);
    expect(
      notEligible.checks.filter((c) => c.checkId.startsWith('inclusionExclusionEval.reconfirm.')),
    ).toEqual([]);
  });
});

describe('derivations', () => {
  it('BMI = weight / (height m)², one decimal, only when both are positive', () => {
    const bmi = (height: JsonValue, weight: JsonValue) =>
      derivedValue(
        evaluate([
          ['v1.bodyMeasurement.height', height],
          ['v1.bodyMeasurement.weight', weight],
        ]),
        'v1',
        'bodyMeasurement',
        'bmi',
      );
    expect(bmi(175, 70)).toBe(22.9);
    expect(bmi(165, 60)).toBe(22);
    expect(bmi(0, 60)).toBeNull();
    expect(bmi(165, 0)).toBeNull();
    expect(bmi(-165, 60)).toBeNull();
    expect(bmi(null, 60)).toBeNull();
    expect(bmi('165', 60)).toBeNull();
  });

  it('age in full years at the consent date', () => {
    const age = (birthDate: string, consentDate = '2025-03-03') =>
      derivedValue(
        evaluate([
          ['v1.demographicInfo.birthDate', birthDate],
          ['consentScreening.consentScreening.consentDate', consentDate],
        ]),
        'v1',
        'demographicInfo',
        'age',
      );
    expect(age('1980-03-03')).toBe(45);
    expect(age('1980-03-04')).toBe(44);
    expect(age('2008-02-29', '2024-02-28')).toBe(15);
    expect(age('2008-02-29', '2023-02-28')).toBe(14);
    expect(age('2008-02-29', '2023-03-01')).toBe(15);
    expect(age('not a date')).toBeNull();
  });

  it('PTA averages and the spec §5 hearing bands', () => {
    const pta = (thresholds: (number | null)[]) => {
      const evaluation = evaluate(
        thresholds.map((value, i) => [`v1.ptaTest.air${[500, 1000, 2000, 4000][i]}`, value]),
      );
      return [
        derivedValue(evaluation, 'v1', 'ptaTest', 'airAverage'),
        derivedValue(evaluation, 'v1', 'ptaTest', 'airSeverity'),
      ];
    };
    const flat = (db: number) => pta([db, db, db, db]);
    expect(flat(-10)).toEqual([-10, '001']);
    expect(flat(15)).toEqual([15, '001']);
    expect(flat(16)).toEqual([16, '002']);
    expect(flat(25)).toEqual([25, '002']);
    expect(flat(26)).toEqual([26, '003']);
    expect(flat(40)).toEqual([40, '003']);
    expect(flat(41)).toEqual([41, '004']);
    expect(flat(55)).toEqual([55, '004']);
    expect(flat(56)).toEqual([56, '005']);
    expect(flat(70)).toEqual([70, '005']);
    expect(flat(71)).toEqual([71, '006']);
    expect(flat(90)).toEqual([90, '006']);
    expect(flat(91)).toEqual([91, '007']);
    expect(flat(120)).toEqual([120, '007']);
    // Between two whole-dB bands the average is rounded to a whole dB first.
    expect(pta([15, 15, 15, 16])).toEqual([15.3, '001']);
    expect(pta([15, 15, 16, 16])).toEqual([15.5, '002']);
    expect(pta([30, 35, 40, null])).toEqual([null, null]);
    const notDone = evaluate([['v1.ptaTest.airNd', true]]);
    expect(derivedValue(notDone, 'v1', 'ptaTest', 'airAverage')).toBeNull();
    expect(derivedValue(notDone, 'v1', 'ptaTest', 'airSeverity')).toBeNull();
    expect(derivedValue(notDone, 'v1', 'ptaTest', 'boneAverage')).toBe(17.5);
    const bone = evaluate([['v1.ptaTest.bone4000', 26]]);
    expect(derivedValue(bone, 'v1', 'ptaTest', 'boneAverage')).toBe(17.8);
  });

  it('perforation percent at V1 and V2 (with the V1 membrane) and decrease versus V2 at V4–V6', () => {
    const evaluation = evaluate([
      ['v1.tympanicPhoto.totalDiameter', 9],
      ['v2.tympanicPhoto.perforationDiameter', 3],
      ['v4.tympanicPhoto.perforationDiameter', 2],
    ]);
    expect(derivedValue(evaluation, 'v1', 'tympanicPhoto', 'perforationPercent')).toBe(44.4);
    expect(derivedValue(evaluation, 'v2', 'tympanicPhoto', 'perforationPercent')).toBe(33.3);
    expect(derivedValue(evaluation, 'v4', 'tympanicPhoto', 'decreasePercent')).toBe(33.3);
    expect(derivedValue(evaluation, 'v6', 'tympanicPhoto', 'decreasePercent')).toBe(100);
    const zero = evaluate([
      ['v1.tympanicPhoto.totalDiameter', 0],
      ['v2.tympanicPhoto.perforationDiameter', 0],
    ]);
    expect(derivedValue(zero, 'v1', 'tympanicPhoto', 'perforationPercent')).toBeNull();
    expect(derivedValue(zero, 'v4', 'tympanicPhoto', 'decreasePercent')).toBeNull();
    const grown = evaluate([['v4.tympanicPhoto.perforationDiameter', 5]]);
    expect(derivedValue(grown, 'v4', 'tympanicPhoto', 'decreasePercent')).toBe(-25);
  });

  it('randomization suitability follows the V2 eligibility', () => {
    expect(derivedValue(evaluate(), 'v2', 'randomizationNumber', 'suitable')).toBe('Y');
    expect(
      derivedValue(
        evaluate([['v2.inclusionExclusionEval.eligible', null]]),
        'v2',
        'randomizationNumber',
        'suitable',
      ),
    ).toBeNull();
  });
});

describe('date windows relative to screening (the V1 visit date, 2025-03-10)', () => {
  const row = (values: Record<string, JsonValue>) => [values];
  it('medical history: 12 weeks', () => {
    const at = (endDate: string) =>
      failing(
        evaluate([
          ['v1.medicalHistory.histories', row({ content: 'Otitis', startDate: '2024-10-01', endDate })],
        ]),
      );
    expect(at('2024-12-15')).toEqual(['v1:medicalHistory.outsideWindow']);
    expect(at('2024-12-16')).toEqual([]);
  });

  it('prior medication and treatment: 4 weeks', () => {
    const drug = (endDate: string) =>
      failing(
        evaluate([
          ['all.concomitantDrugs.drugs', row({ drugName: 'Cefaclor', startDate: '2025-01-01', endDate })],
        ]),
      );
    expect(drug('2025-02-09')).toEqual(['all:concomitantDrugs.outsideWindow']);
    expect(drug('2025-02-10')).toEqual([]);
    const treatment = (endDate: string) =>
      failing(
        evaluate([
          ['all.treatmentInvestigation.hasTreatment', 'Y'],
          [
            'all.treatmentInvestigation.treatments',
            row({ treatmentName: 'Ear cleaning', startDate: '2025-01-01', endDate }),
          ],
        ]),
      );
    expect(treatment('2025-02-09')).toEqual(['all:treatmentInvestigation.outsideWindow']);
    expect(treatment('2025-02-10')).toEqual([]);
  });

  it('lab: 2 weeks, at V1 only', () => {
    // The urine taken on the screening day (2025-03-10), as spec §5 asks of substituted results.
    const urineOnScreeningDay: Change = ['v1.labTest.urineSpecimenDate', '2025-03-10'];
    expect(failing(evaluate([['v1.labTest.specimenDate', '2025-02-23'], urineOnScreeningDay]))).toEqual([
      'v1:labTest.specimenOutsideWindow',
    ]);
    expect(failing(evaluate([['v1.labTest.specimenDate', '2025-02-24'], urineOnScreeningDay]))).toEqual([]);
    expect(failing(evaluate([['v6.labTest.specimenDate', '2025-02-23']]))).toEqual([]);
  });

  it('lab: urine is never substituted by earlier results (spec §5), at V1 only', () => {
    // Blood from 3 days before screening with urine on the same day: the urine was substituted.
    expect(failing(evaluate([['v1.labTest.specimenDate', '2025-03-07']]))).toEqual([
      'v1:labTest.urineNotOnScreeningDay',
    ]);
    // Blood substituted, urine taken on the screening day: allowed.
    expect(
      failing(
        evaluate([
          ['v1.labTest.specimenDate', '2025-03-07'],
          ['v1.labTest.urineSpecimenDate', '2025-03-10'],
        ]),
      ),
    ).toEqual([]);
    // A urine date of its own that is not the screening day.
    expect(failing(evaluate([['v1.labTest.urineSpecimenDate', '2025-03-09']]))).toEqual([
      'v1:labTest.urineNotOnScreeningDay',
    ]);
    // Everything on the screening day (the sample subject), and later visits: nothing to check.
    expect(failing(evaluate([]))).toEqual([]);
    expect(failing(evaluate([['v6.labTest.specimenDate', '2025-06-10']]))).toEqual([]);
  });

  it('lab: a retest only of the screening-day test (spec §5), at V1 only', () => {
    // The sample subject is screened on 2025-03-10, the day its specimen was taken.
    expect(failing(evaluate([['v1.labTest.retest', 'Y']]))).toEqual([]);
    expect(
      failing(
        evaluate([
          ['v1.labTest.retest', 'Y'],
          ['v1.labTest.specimenDate', '2025-03-05'],
          ['v1.labTest.urineSpecimenDate', '2025-03-10'],
        ]),
      ),
    ).toEqual(['v1:labTest.retestNotOnScreeningDay']);
    expect(
      failing(
        evaluate([
          ['v1.labTest.retest', 'N'],
          ['v1.labTest.specimenDate', '2025-03-05'],
          ['v1.labTest.urineSpecimenDate', '2025-03-10'],
        ]),
      ),
    ).toEqual([]);
  });

  it('imaging and impedance audiometry: 1 year', () => {
    expect(failing(evaluate([['v1.tbctImaging.imagingDate', '2024-03-09']]))).toEqual([
      'v1:tbctImaging.outsideWindow',
    ]);
    expect(failing(evaluate([['v1.tbctImaging.imagingDate', '2024-03-10']]))).toEqual([]);
    expect(failing(evaluate([['v1.impedanceAudiometry.examDate', '2024-03-09']]))).toEqual([
      'v1:impedanceAudiometry.outsideWindow',
    ]);
    expect(failing(evaluate([['v1.impedanceAudiometry.examDate', '2024-03-10']]))).toEqual([]);
  });

  it('ND switches a window check off', () => {
    expect(
      failing(
        evaluate([
          ['v1.tbctImaging.imagingDate', '2020-01-01'],
          ['v1.tbctImaging.nd', true],
        ]),
      ),
    ).toEqual([]);
  });
});

describe('visit date', () => {
  it('earlier than today: a warning, and a reason is required', () => {
    const evaluation = evaluate([['v3.visitDay.queryRadio', null]]);
    const warning = evaluation.checks.find(
      (c) => c.visitKey === 'v3' && c.checkId === 'visitDay.visitDateBeforeToday',
    );
    expect(warning?.severity).toBe('warning');
    expect(findFormEvaluation(evaluation, 'v3', 'visitDay')?.missing.map((m) => m.itemKey)).toEqual([
      'queryRadio',
    ]);
    const other = evaluate([['v3.visitDay.queryRadio', '099']]);
    expect(findFormEvaluation(other, 'v3', 'visitDay')?.missing.map((m) => m.itemKey)).toEqual([
      'queryInput',
    ]);
  });

  it('today: no warning and no reason asked', () => {
    const evaluation = evaluate([['v6.visitDay.visitDate', SAMPLE_TODAY]]);
    expect(evaluation.checks.filter((c) => c.visitKey === 'v6')).toEqual([]);
    const form = findFormEvaluation(evaluation, 'v6', 'visitDay');
    expect(form?.sections[0]?.items.queryRadio?.visible).toBe(false);
  });

  it('in the future: refused (hard)', () => {
    const evaluation = evaluate([['v6.visitDay.visitDate', '2025-06-21']]);
    expect(evaluation.checks.filter((c) => c.severity === 'hard').map((c) => c.checkId)).toEqual([
      'visitDay.visitDate.future',
    ]);
  });

  it('ND at V6 makes the visit date optional', () => {
    const evaluation = evaluate([
      ['v6.visitDay.nd', true],
      ['v6.visitDay.visitDate', null],
    ]);
    expect(findFormEvaluation(evaluation, 'v6', 'visitDay')?.missing).toEqual([]);
  });

  it('screening before consent raises a query', () => {
    // The specimen moves with the screening day, or the urine check would speak too.
    expect(
      failing(
        evaluate([
          ['v1.visitDay.visitDate', '2025-03-02'],
          ['v1.labTest.specimenDate', '2025-03-02'],
        ]),
      ),
    ).toEqual(['v1:visitDay.screeningBeforeConsent']);
  });

  it('visit windows are computed from V2', () => {
    const schedule = computeVisitSchedule(study, sampleSubject(), { today: SAMPLE_TODAY });
    expect(schedule.find((s) => s.visitKey === 'v3')).toEqual({
      visitKey: 'v3',
      actualDate: '2025-04-07',
      expectedDate: '2025-04-07',
      earliestDate: '2025-04-04',
      latestDate: '2025-04-10',
      status: 'inWindow',
    });
  });
});

describe('other date and text rules', () => {
  it('a birth date in the future or after consent is refused', () => {
    const evaluation = evaluate([['v1.demographicInfo.birthDate', '2025-07-01']]);
    expect(evaluation.checks.filter((c) => c.severity === 'hard').map((c) => c.checkId)).toEqual([
      'demographicInfo.birthDate.future',
      'demographicInfo.birthDateAfterConsent',
    ]);
  });

  it('comments and opinions are limited to 3500 characters', () => {
    const ok = validateFormValues(study, 'v1', 'vitalSigns', { opinion: 'a'.repeat(3500) });
    expect(ok.valid).toBe(true);
    const tooLong = validateFormValues(study, 'v1', 'vitalSigns', { opinion: 'a'.repeat(3501) });
    expect(tooLong.errors.map((e) => e.code)).toEqual(['tooLong']);
    expect(tooLong.errors[0]?.message.ko).toContain('3500');
  });

  it('randomization numbers are R + YY + XXX', () => {
    expect(
      validateFormValues(study, 'v2', 'randomizationNumber', { randomizationNumber: 'R01001' }).valid,
    ).toBe(true);
    expect(
      validateFormValues(study, 'v2', 'randomizationNumber', { randomizationNumber: 'R1001' }).valid,
    ).toBe(false);
  });

  it('end dates before start dates raise queries', () => {
    const event = { name: 'Otalgia', startDate: '2025-04-02', endDate: '2025-04-01', serious: 'N' };
    const evaluation = evaluate([
      ['all.adverseEvent.hasAdverseEvent', 'Y'],
      ['all.adverseEvent.events', [event]],
    ]);
    const check = evaluation.checks.find((c) => c.checkId === 'adverseEvent.endBeforeStart');
    expect(check?.path).toBe('all.adverseEvent.events[0].endDate');
    expect(check?.rowIndex).toBe(0);
    const missing = findFormEvaluation(evaluation, 'all', 'adverseEvent')?.missing.map((m) => m.itemKey);
    expect(missing).toEqual(['severity', 'causality', 'deviceAction', 'treatment', 'outcome']);
  });

  it('other consistency queries', () => {
    // Both within their ranges, so the consistency check is the only one raised.
    expect(
      failing(
        evaluate([
          ['v1.vitalSigns.bloodPressureSystolic', 95],
          ['v1.vitalSigns.bloodPressureDiastolic', 95],
        ]),
      ),
    ).toEqual(['v1:vitalSigns.systolicNotAboveDiastolic']);
    expect(failing(evaluate([['v1.diseaseBasicInfo.applicationSite', 'L']]))).toEqual([
      'v1:diseaseBasicInfo.applicationSiteNotPerforated',
      'v2:deviceApplication.siteDiffersFromPlan',
    ]);
    expect(failing(evaluate([['v2.deviceApplication.applicationDate', '2025-03-25']]))).toEqual([
      'v2:deviceApplication.dateDiffersFromVisit',
    ]);
    expect(failing(evaluate([['v1.demographicInfo.gender', 'M']]))).toEqual([
      'v1:pregnancyTest.maleOfChildbearingPotential',
      'v6:pregnancyTest.maleOfChildbearingPotential',
    ]);
    expect(failing(evaluate([['v1.medicalHistory.none', true]]))).toEqual(['v1:medicalHistory.noneWithRows']);
    expect(failing(evaluate([['v1.tympanicPhoto.perforationDiameter', 11]]))).toContain(
      'v1:tympanicPhoto.perforationLargerThanMembrane',
    );
  });
});

describe('routing outcomes (spec §4)', () => {
  it('eligibility "no" → go to end of study', () => {
    expect(outcomes(evaluate([['v1.inclusionExclusionEval.eligible', 'N']]))).toEqual([
      'v1:inclusionExclusionEval.notEligible:goToEndOfStudy',
    ]);
  });

  it('randomization "no" (V2 eligibility "no") → go to end of study', () => {
    expect(outcomes(evaluate([['v2.inclusionExclusionEval.eligible', 'N']]))).toEqual([
      'v2:inclusionExclusionEval.notEligible:goToEndOfStudy',
      'v2:randomizationNumber.notSuitable:goToEndOfStudy',
    ]);
  });

  it('device application "no" → go to end of study', () => {
    const evaluation = evaluate([['v2.deviceApplication.applied', 'N']]);
    expect(outcomes(evaluation)).toEqual(['v2:deviceApplication.notApplied:goToEndOfStudy']);
    expect(evaluation.outcomes[0]?.target).toEqual({ visit: 'all', form: 'endExamination' });
  });

  it('TBCT fracture or damage "yes" → excluded', () => {
    expect(outcomes(evaluate([['v1.tbctImaging.fractureOrDamage', 'Y']]))).toEqual([
      'v1:tbctImaging.fractureOrDamage:excluded',
    ]);
  });

  it('a positive pregnancy test → excluded (only for women of childbearing potential)', () => {
    expect(outcomes(evaluate([['v6.pregnancyTest.result', 'positive']]))).toEqual([
      'v6:pregnancyTest.positive:excluded',
    ]);
    expect(
      outcomes(
        evaluate([
          ['v6.pregnancyTest.result', 'positive'],
          ['v6.pregnancyTest.childbearingPotential', 'N'],
        ]),
      ),
    ).toEqual([]);
  });

  it.each(['pain', 'otorrhea', 'reperforation'])(
    'adverse event of interest "%s" → go to the adverse event page',
    (item) => {
      const evaluation = evaluate([[`v4.interestAdverseEvent.${item}`, 'Y']]);
      expect(outcomes(evaluation)).toEqual(['v4:interestAdverseEvent.present:goToAdverseEvent']);
      expect(evaluation.outcomes[0]?.target).toEqual({ visit: 'all', form: 'adverseEvent' });
      expect(
        outcomes(
          evaluate([
            [`v4.interestAdverseEvent.${item}`, 'Y'],
            ['v4.interestAdverseEvent.nd', true],
          ]),
        ),
      ).toEqual([]);
    },
  );
});

describe('conditional sections', () => {
  it('ear discharge details only when ear discharge is "yes"', () => {
    const evaluation = evaluate([['v1.diseaseBasicInfo.earDischarge', 'Y']]);
    const form = findFormEvaluation(evaluation, 'v1', 'diseaseBasicInfo');
    expect(form?.sections[1]?.visible).toBe(true);
    expect(form?.missing.map((m) => m.itemKey)).toEqual([
      'dischargeColor',
      'dischargeSmell',
      'dischargeMucus',
      'dischargeLump',
    ]);
    expect(findFormEvaluation(evaluate(), 'v1', 'diseaseBasicInfo')?.sections[1]?.visible).toBe(false);
  });

  it('the pregnancy test only for women of childbearing potential', () => {
    const evaluation = evaluate([['v1.pregnancyTest.childbearingPotential', 'N']]);
    expect(findFormEvaluation(evaluation, 'v1', 'pregnancyTest')?.sections[1]?.visible).toBe(false);
    const notDone = evaluate([['v1.pregnancyTest.testMethod', 'notPerformed']]);
    expect(findFormEvaluation(notDone, 'v1', 'pregnancyTest')?.missing.map((m) => m.itemKey)).toEqual([
      'notPerformedReason',
    ]);
  });

  it('abnormal lab results need a clinical significance', () => {
    const evaluation = evaluate([['v1.labTest.astNormal', 'abnormal']]);
    expect(findFormEvaluation(evaluation, 'v1', 'labTest')?.missing.map((m) => m.itemKey)).toEqual([
      'astSignificance',
    ]);
  });

  it('end of study asks the dropout or screening failure reason', () => {
    const dropout = evaluate([['all.endExamination.completed', 'N']]);
    expect(findFormEvaluation(dropout, 'all', 'endExamination')?.missing.map((m) => m.itemKey)).toEqual([
      'dropoutDate',
      'dropoutReason',
    ]);
    const failure = evaluate([['all.endExamination.completed', 'SF']]);
    expect(findFormEvaluation(failure, 'all', 'endExamination')?.missing.map((m) => m.itemKey)).toEqual([
      'screeningFailureReason',
    ]);
  });

  it('medical history rows are required unless "none" is checked', () => {
    const none = evaluate([
      ['v1.medicalHistory.none', true],
      ['v1.medicalHistory.histories', []],
    ]);
    expect(findFormEvaluation(none, 'v1', 'medicalHistory')?.missing).toEqual([]);
    const empty = evaluate([['v1.medicalHistory.histories', []]]);
    expect(findFormEvaluation(empty, 'v1', 'medicalHistory')?.missing.map((m) => m.itemKey)).toEqual([
      'histories',
    ]);
  });
});

describe('clinical plausibility (issue 43 item 3: ranges in docs/CLINICAL-RANGES.md)', () => {
  /** "checkId:severity" of every failing check of one form, without the everyday visit-date warnings. */
  function checksOf(evaluation: SubjectEvaluation, visit: string, form: string): string[] {
    return (findFormEvaluation(evaluation, visit, form)?.checks ?? []).map(
      (check) => `${check.checkId}:${check.severity}`,
    );
  }

  it('refuses impossible vital signs (320 mmHg, 99 °C) and queries unusual ones', () => {
    expect(checksOf(evaluate([['v1.vitalSigns.bloodPressureSystolic', 320]]), 'v1', 'vitalSigns')).toContain(
      'vitalSigns.bloodPressureSystolic.limit:hard',
    );
    expect(checksOf(evaluate([['v1.vitalSigns.bodyTemperature', 99]]), 'v1', 'vitalSigns')).toContain(
      'vitalSigns.bodyTemperature.limit:hard',
    );
    expect(checksOf(evaluate([['v1.vitalSigns.heartRate', 130]]), 'v1', 'vitalSigns')).toContain(
      'vitalSigns.heartRate.range:query',
    );
    // At the bounds: inside, nothing raised.
    expect(
      checksOf(
        evaluate([
          ['v1.vitalSigns.bloodPressureSystolic', 159],
          ['v1.vitalSigns.bodyTemperature', 37.9],
        ]),
        'v1',
        'vitalSigns',
      ),
    ).toEqual([]);
  });

  it('queries a "normal" result beside a value out of range, and not an abnormal one', () => {
    const high = evaluate([['v1.vitalSigns.bloodPressureSystolic', 170]]);
    expect(checksOf(high, 'v1', 'vitalSigns')).toEqual([
      'vitalSigns.bloodPressureSystolic.range:query',
      'vitalSigns.normalButOutOfRange:query',
    ]);
    const fever = evaluate([['v4.vitalSigns.bodyTemperature', 38.4]]);
    expect(checksOf(fever, 'v4', 'vitalSigns')).toContain('vitalSigns.normalButOutOfRange:query');
    const called = evaluate([
      ['v1.vitalSigns.bloodPressureSystolic', 170],
      ['v1.vitalSigns.result', 'abnormalNcs'],
    ]);
    expect(checksOf(called, 'v1', 'vitalSigns')).toEqual(['vitalSigns.bloodPressureSystolic.range:query']);
  });

  it('holds height, weight, BMI, perforation and PTA thresholds to their ranges', () => {
    // 17 cm (a slip for 170): refused; the BMI it gives is queried too until it is put right.
    expect(checksOf(evaluate([['v1.bodyMeasurement.height', 17]]), 'v1', 'bodyMeasurement')).toEqual([
      'bodyMeasurement.height.limit:hard',
      'bodyMeasurement.bmi.range:query',
    ]);
    // 165 cm, 120 kg: both possible, the BMI (44.1) asks for a look.
    expect(checksOf(evaluate([['v1.bodyMeasurement.weight', 120]]), 'v1', 'bodyMeasurement')).toEqual([
      'bodyMeasurement.bmi.range:query',
    ]);
    expect(
      checksOf(evaluate([['v1.otoscopyEndoscopy.perforationSize', 35]]), 'v1', 'otoscopyEndoscopy'),
    ).toEqual(['otoscopyEndoscopy.perforationSize.limit:hard']);
    expect(checksOf(evaluate([['v1.tympanicPhoto.totalDiameter', 12]]), 'v1', 'tympanicPhoto')).toEqual([
      'tympanicPhoto.totalDiameter.range:query',
    ]);
    // A healed eardrum's 0 mm is no finding.
    expect(checksOf(evaluate([['v2.tympanicPhoto.perforationDiameter', 0]]), 'v2', 'tympanicPhoto')).toEqual(
      [],
    );
    expect(checksOf(evaluate([['v1.ptaTest.air500', 130]]), 'v1', 'ptaTest')).toEqual([
      'ptaTest.air500.limit:hard',
    ]);
    expect(checksOf(evaluate([['v1.ptaTest.bone1000', 85]]), 'v1', 'ptaTest')).toEqual([
      'ptaTest.bone1000.range:query',
    ]);
  });

  it('keeps every soft range inside its hard limits, and refuses a definition that does not', () => {
    expect(studyDefinitionSchema.safeParse(study).success).toBe(true);
    const broken = JSON.parse(JSON.stringify(study)) as StudyDefinition;
    const item = broken.forms
      .find((form) => form.key === 'vitalSigns')
      ?.sections[0]?.items.find((candidate) => candidate.key === 'heartRate');
    if (!item) throw new Error('no heart rate item');
    item.max = 300;
    const result = studyDefinitionSchema.safeParse(broken);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message)).toContain(
      'vitalSigns.heartRate: range out of order (hardMin ≤ min ≤ max ≤ hardMax)',
    );
  });
});
