import { describe, expect, it } from 'vitest';
import { getFormLayout } from '../../engine/study-index.ts';
import type { LocalizedText } from '../../model/localized-text.ts';
import {
  type StudyDefinition,
  sectionsForVisit,
  studyDefinitionSchema,
} from '../../model/study-definition.ts';
import { exclusionCriteria, inclusionCriteria, tmPerforationStudy } from './index.ts';

// spec §2 "Forms per visit", verbatim.
const FORMS_PER_VISIT: Record<string, string[]> = {
  consentScreening: ['consentScreening'],
  v1: [
    'visitDay',
    'demographicInfo',
    'diseaseBasicInfo',
    'bodyMeasurement',
    'physicalExam',
    'medicalHistory',
    'vitalSigns',
    'labTest',
    'pregnancyTest',
    'otoscopyEndoscopy',
    'tympanicPhoto',
    'tbctImaging',
    'impedanceAudiometry',
    'ptaTest',
    'inclusionExclusionEval',
  ],
  v2: [
    'visitDay',
    'physicalExam',
    'vitalSigns',
    'otoscopyEndoscopy',
    'tympanicPhoto',
    'ptaTest',
    'inclusionExclusionEval',
    'randomizationNumber',
    'deviceApplication',
    'interestAdverseEvent',
  ],
  v3: [
    'visitDay',
    'physicalExam',
    'vitalSigns',
    'otoscopyEndoscopy',
    'tympanicPhoto',
    'impedanceAudiometry',
    'interestAdverseEvent',
  ],
  v4: [
    'visitDay',
    'physicalExam',
    'vitalSigns',
    'otoscopyEndoscopy',
    'tympanicPhoto',
    'impedanceAudiometry',
    'interestAdverseEvent',
  ],
  v5: [
    'visitDay',
    'physicalExam',
    'vitalSigns',
    'otoscopyEndoscopy',
    'tympanicPhoto',
    'impedanceAudiometry',
    'interestAdverseEvent',
  ],
  v6: [
    'visitDay',
    'physicalExam',
    'vitalSigns',
    'labTest',
    'pregnancyTest',
    'otoscopyEndoscopy',
    'tympanicPhoto',
    'impedanceAudiometry',
    'interestAdverseEvent',
  ],
  all: [
    'adverseEvent',
    'concomitantDrugs',
    'treatmentInvestigation',
    'endExamination',
    'testDirectorSigning',
  ],
};

const FORM_KEYS = [
  'visitDay',
  'demographicInfo',
  'diseaseBasicInfo',
  'bodyMeasurement',
  'physicalExam',
  'medicalHistory',
  'vitalSigns',
  'labTest',
  'pregnancyTest',
  'otoscopyEndoscopy',
  'tympanicPhoto',
  'tbctImaging',
  'impedanceAudiometry',
  'ptaTest',
  'inclusionExclusionEval',
  'randomizationNumber',
  'deviceApplication',
  'interestAdverseEvent',
  'adverseEvent',
  'concomitantDrugs',
  'treatmentInvestigation',
  'endExamination',
  'testDirectorSigning',
  'consentScreening',
];

function itemKeys(visitKey: string, formKey: string): string[] {
  const layout = getFormLayout(tmPerforationStudy, visitKey, formKey);
  return layout ? [...layout.items.keys()] : [];
}

function codesOf(listKey: string): string[] {
  return tmPerforationStudy.codeLists.find((l) => l.key === listKey)?.codes.map((c) => c.code) ?? [];
}

/** Every object in the definition that looks like a localized text, with where it is. */
function localizedTexts(value: unknown, path: string, into: { path: string; text: LocalizedText }[] = []) {
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) localizedTexts(v, `${path}[${i}]`, into);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      if (['label', 'help', 'message'].includes(key))
        into.push({ path: `${path}.${key}`, text: child as LocalizedText });
      else localizedTexts(child, `${path}.${key}`, into);
    }
  }
  return into;
}

describe('tympanic membrane perforation study definition', () => {
  it('validates against studyDefinitionSchema', () => {
    const result = studyDefinitionSchema.safeParse(tmPerforationStudy);
    expect(result.success ? [] : result.error.issues).toEqual([]);
  });

  it('survives a JSON round trip unchanged and still valid', () => {
    const copy = JSON.parse(JSON.stringify(tmPerforationStudy)) as StudyDefinition;
    expect(copy).toEqual(tmPerforationStudy);
    expect(studyDefinitionSchema.safeParse(copy).success).toBe(true);
  });

  it('has exactly the spec form keys', () => {
    expect(tmPerforationStudy.forms.map((f) => f.key).sort()).toEqual([...FORM_KEYS].sort());
  });

  it('lists the forms of every visit exactly as spec §2', () => {
    const actual = Object.fromEntries(tmPerforationStudy.visits.map((v) => [v.key, v.forms]));
    expect(actual).toEqual(FORMS_PER_VISIT);
  });

  it('groups the visits as the subject detail rail does', () => {
    expect(tmPerforationStudy.visits.map((v) => `${v.key}:${v.group}`)).toEqual([
      'consentScreening:consent',
      'v1:screening',
      'v2:baseline',
      'v3:follow_up',
      'v4:follow_up',
      'v5:follow_up',
      'v6:end_of_study',
      'all:all',
    ]);
  });

  it('has Korean and English text everywhere, and no Hangul in the English', () => {
    const texts = localizedTexts(tmPerforationStudy, 'study');
    expect(texts.length).toBeGreaterThan(400);
    const bad = texts.filter(
      ({ text }) =>
        !text || text.ko.trim() === '' || text.en.trim() === '' || /[\uac00-\ud7a3]/.test(text.en),
    );
    expect(bad.map((b) => b.path)).toEqual([]);
    const koreanLabels = texts.filter(({ text }) => /[\uac00-\ud7a3]/.test(text.ko));
    expect(koreanLabels.length / texts.length).toBeGreaterThan(0.9);
  });

  it('uses the spec item keys of the subject-detail store', () => {
    expect(itemKeys('v1', 'demographicInfo')).toEqual(expect.arrayContaining(['birthDate', 'age', 'gender']));
    expect(itemKeys('v1', 'bodyMeasurement')).toEqual(
      expect.arrayContaining(['nd', 'height', 'weight', 'bmi']),
    );
    expect(itemKeys('v1', 'vitalSigns')).toEqual(
      expect.arrayContaining([
        'bloodPressureSystolic',
        'bloodPressureDiastolic',
        'heartRate',
        'bodyTemperature',
      ]),
    );
    expect(itemKeys('v6', 'visitDay')).toEqual(
      expect.arrayContaining(['visitDate', 'nd', 'queryRadio', 'queryInput']),
    );
    expect(itemKeys('v1', 'medicalHistory')).toEqual(expect.arrayContaining(['none']));
    expect(getFormLayout(tmPerforationStudy, 'v1', 'medicalHistory')?.groups.has('histories')).toBe(true);
    expect(itemKeys('all', 'adverseEvent')).toContain('hasAdverseEvent');
    expect(getFormLayout(tmPerforationStudy, 'all', 'adverseEvent')?.groups.has('events')).toBe(true);
    expect(itemKeys('v1', 'physicalExam')).toEqual(expect.arrayContaining(['nd', 'result']));
    expect(getFormLayout(tmPerforationStudy, 'v1', 'physicalExam')?.groups.has('examinations')).toBe(true);
    expect(itemKeys('v2', 'interestAdverseEvent')).toEqual([
      'nd',
      'collectionDate',
      'pain',
      'otorrhea',
      'reperforation',
    ]);
    expect(itemKeys('all', 'concomitantDrugs')).toContain('nd');
    expect(getFormLayout(tmPerforationStudy, 'all', 'concomitantDrugs')?.groups.has('drugs')).toBe(true);
  });

  it('has ND on the visit day only at V6', () => {
    for (const visit of ['v1', 'v2', 'v3', 'v4', 'v5'])
      expect(itemKeys(visit, 'visitDay')).not.toContain('nd');
    expect(itemKeys('v6', 'visitDay')).toContain('nd');
    const helps = ['v1', 'v2', 'v3', 'v6'].map(
      (v) => getFormLayout(tmPerforationStudy, v, 'visitDay')?.sections[0]?.help?.ko,
    );
    expect(new Set(helps).size).toBe(4);
  });

  it('has the tympanic photo layouts of V1, V2, V3 and V4–V6, each with the photo and its tracing', () => {
    const photo = ['photo', 'tracing', 'measurementMethod', 'perforationAreaPercent'];
    expect(itemKeys('v1', 'tympanicPhoto')).toEqual([
      ...photo,
      'totalDiameter',
      'perforationDiameter',
      'perforationPercent',
    ]);
    expect(itemKeys('v2', 'tympanicPhoto')).toEqual([...photo, 'perforationDiameter', 'perforationPercent']);
    expect(itemKeys('v3', 'tympanicPhoto')).toEqual([...photo, 'perforationDiameter', 'perforationPercent']);
    for (const visit of ['v4', 'v5', 'v6']) {
      expect(itemKeys(visit, 'tympanicPhoto')).toEqual([
        ...photo,
        'perforationDiameter',
        'perforationPercent',
        'decreasePercent',
        'regeneration',
        'evaluation',
        'opinion',
      ]);
    }
    expect(codesOf('healingEvaluation')).toEqual(['partialHealing', 'completeHealing', 'failToHeal']);
  });

  it('has PTA air and bone sections at 500/1000/2000/4000 Hz with averages and the air severity 001–007', () => {
    const keys = itemKeys('v1', 'ptaTest');
    for (const prefix of ['air', 'bone']) {
      for (const hz of [500, 1000, 2000, 4000]) expect(keys).toContain(`${prefix}${hz}`);
      expect(keys).toContain(`${prefix}Nd`);
      expect(keys).toContain(`${prefix}Average`);
    }
    expect(keys).toContain('airSeverity');
    expect(keys).not.toContain('boneSeverity');
    expect(codesOf('hearingSeverity')).toEqual(['001', '002', '003', '004', '005', '006', '007']);
  });

  it('has the four lab panels with every test of the spec and its result, judgement, significance and opinion', () => {
    const layout = getFormLayout(tmPerforationStudy, 'v1', 'labTest');
    expect(layout?.sections.map((s) => s.key)).toEqual([
      'specimen',
      'hematology',
      'chemistry',
      'coagulation',
      'urine',
    ]);
    const tests = {
      hematology: ['wbc', 'rbc', 'hemoglobin', 'hematocrit', 'platelet'],
      chemistry: [
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
      ],
      coagulation: ['pt', 'aptt'],
      urine: ['urineRbc', 'urineAlbumin', 'urineGlucose', 'urinePh', 'urineWbc'],
    };
    for (const [panel, keys] of Object.entries(tests)) {
      const section = layout?.sections.find((s) => s.key === panel);
      expect(section?.notDoneItem).toBe('nd');
      // Urine has its own specimen date first (spec §5: urine is never substituted by earlier results).
      const leading = panel === 'urine' ? ['urineSpecimenDate'] : [];
      expect(section?.items.map((i) => i.key)).toEqual([
        ...leading,
        ...keys.flatMap((k) => [`${k}Result`, `${k}Normal`, `${k}Significance`, `${k}Opinion`]),
      ]);
    }
    expect(itemKeys('v1', 'labTest')).toEqual(expect.arrayContaining(['nd', 'specimenDate']));
  });

  it('has the twelve adverse event row fields of spec §3', () => {
    const events = getFormLayout(tmPerforationStudy, 'all', 'adverseEvent')?.groups.get('events');
    expect(events?.items.map((i) => i.key)).toEqual([
      'name',
      'startDate',
      'startTime',
      'endDate',
      'endTime',
      'serious',
      'severity',
      'causality',
      'deviceAction',
      'treatment',
      'outcome',
      'others',
    ]);
  });

  it('has the concomitant drug, treatment, medical history and physical exam row fields', () => {
    const group = (form: string, key: string, visit = 'all') =>
      getFormLayout(tmPerforationStudy, visit, form)
        ?.groups.get(key)
        ?.items.map((i) => i.key);
    expect(group('concomitantDrugs', 'drugs')).toEqual([
      'drugName',
      'dose',
      'unit',
      'frequency',
      'route',
      'startDate',
      'ongoing',
      'endDate',
      'indication',
    ]);
    expect(group('treatmentInvestigation', 'treatments')).toEqual([
      'treatmentName',
      'site',
      'startDate',
      'ongoing',
      'endDate',
      'indication',
    ]);
    expect(group('medicalHistory', 'histories', 'v1')).toEqual([
      'content',
      'startDate',
      'ongoing',
      'endDate',
      'opinion',
    ]);
    expect(group('physicalExam', 'examinations', 'v1')).toEqual([
      'bodyOrgan',
      'content',
      'diagnosis',
      'note',
    ]);
  });

  it('has the end of study fields with dropout reasons 001–010', () => {
    expect(itemKeys('all', 'endExamination')).toEqual([
      'completed',
      'observationEndDate',
      'screeningFailureReason',
      'screeningFailureDetail',
      'dropoutDate',
      'dropoutReason',
      'dropoutDetail',
    ]);
    expect(codesOf('completion')).toEqual(['Y', 'N', 'SF']);
    expect(codesOf('dropoutReason')).toEqual([
      '001',
      '002',
      '003',
      '004',
      '005',
      '006',
      '007',
      '008',
      '009',
      '010',
    ]);
  });

  it('has the consent step, the signature and the randomization fields', () => {
    expect(itemKeys('consentScreening', 'consentScreening')).toEqual([
      'consentDate',
      'initials',
      'screeningNumber',
    ]);
    const consent = getFormLayout(tmPerforationStudy, 'consentScreening', 'consentScreening');
    expect(consent?.items.get('initials')?.item.readOnly).toBe(true);
    expect(consent?.items.get('screeningNumber')?.item.readOnly).toBe(true);
    const signing = getFormLayout(tmPerforationStudy, 'all', 'testDirectorSigning');
    expect(signing?.sections[0]?.help?.ko).toContain('확인합니다');
    expect(itemKeys('all', 'testDirectorSigning')).toEqual(['signatureDate', 'signature']);
    expect(itemKeys('v2', 'randomizationNumber')).toEqual([
      'suitable',
      'assignmentDate',
      'randomizationNumber',
      'group',
    ]);
    expect(itemKeys('v2', 'deviceApplication')).toEqual([
      'applied',
      'site',
      'applicationDate',
      'applicationTime',
    ]);
  });

  it('lists the four inclusion criteria and the nine shown exclusion criteria, never more', () => {
    expect(inclusionCriteria).toHaveLength(4);
    expect(exclusionCriteria).toHaveLength(9);
    // The criteria are read from the eligibility role's sections: the V1 layout shows the same nine.
    const evaluation = getFormLayout(tmPerforationStudy, 'v1', 'inclusionExclusionEval');
    expect(evaluation?.sections.find((s) => s.key === 'exclusion')?.items.map((i) => i.key)).toEqual(
      Array.from({ length: 9 }, (_, index) => `exc0${index + 1}`),
    );
  });

  it('keeps comments and opinions within 3500 characters', () => {
    for (const form of tmPerforationStudy.forms) {
      for (const visit of tmPerforationStudy.visits.filter((v) => v.forms.includes(form.key))) {
        for (const section of sectionsForVisit(form, visit.key)) {
          for (const item of section.items) {
            if (item.type === 'textarea') expect(item.maxLength, `${form.key}.${item.key}`).toBe(3500);
            if (item.type === 'text')
              expect(item.maxLength, `${form.key}.${item.key}`).toBeLessThanOrEqual(3500);
          }
        }
      }
    }
  });

  it('keeps visit windows relative to V2', () => {
    for (const visit of tmPerforationStudy.visits) {
      if (visit.window) expect(visit.window.anchorVisit).toBe('v2');
    }
    expect(tmPerforationStudy.visits.filter((v) => v.window).map((v) => v.key)).toEqual([
      'v1',
      'v3',
      'v4',
      'v5',
      'v6',
    ]);
  });
});
