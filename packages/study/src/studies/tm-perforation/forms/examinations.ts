import {
  and,
  daysBetween,
  eq,
  gt,
  isEmpty,
  isYes,
  lte,
  ne,
  notEmpty,
  or,
  param,
  ref,
} from '../../../model/expression-builders.ts';
import type { FormDefinition, ItemDefinition, SectionDefinition } from '../../../model/study-definition.ts';
import { CLINICAL_RANGES, normalDespiteOutOfRange } from '../clinical-ranges.ts';
import { dateItem, item, ndItem, opinionItem, section, TEXT_MAX_LENGTH, t } from '../helpers.ts';
import { SCREENING_DATE } from '../refs.ts';

// The four vital signs with their ranges: the items take them, and the "normal" check reads the same.
const VITAL_RANGES = {
  bloodPressureSystolic: CLINICAL_RANGES.bloodPressureSystolic,
  bloodPressureDiastolic: CLINICAL_RANGES.bloodPressureDiastolic,
  heartRate: CLINICAL_RANGES.heartRate,
  bodyTemperature: CLINICAL_RANGES.bodyTemperature,
} as const;

export const physicalExamForm: FormDefinition = {
  key: 'physicalExam',
  label: t('신체 검사', 'Physical examination'),
  sections: [
    section(
      'exam',
      t('신체 검사', 'Physical examination'),
      [
        ndItem(),
        item('result', 'singleChoice', t('결과', 'Result'), {
          codeList: 'normalAbnormal',
          display: 'radio',
          required: true,
        }),
      ],
      { notDoneItem: 'nd' },
    ),
    section(
      'examinations',
      t('이상 소견', 'Abnormal findings'),
      [
        item('bodyOrgan', 'text', t('신체 부위(기관)', 'Body system'), { required: true }),
        item('content', 'text', t('소견 내용', 'Finding'), { required: true }),
        item('diagnosis', 'singleChoice', t('임상적 유의성', 'Clinical significance'), {
          codeList: 'clinicalSignificance',
          display: 'radio',
          required: true,
        }),
        opinionItem('note', t('비고', 'Note')),
      ],
      {
        notDoneItem: 'nd',
        showWhen: eq(ref('result'), 'abnormal'),
        repeating: { key: 'examinations', rowsRequired: true },
      },
    ),
  ],
};

export const vitalSignsForm: FormDefinition = {
  key: 'vitalSigns',
  label: t('활력 징후', 'Vital signs'),
  sections: [
    section(
      'vitals',
      t('활력 징후', 'Vital signs'),
      [
        ndItem(),
        dateItem('measurementDate', t('측정일', 'Measurement date')),
        item('bloodPressureSystolic', 'integer', t('수축기 혈압', 'Systolic blood pressure'), {
          unit: 'mmHg',
          ...VITAL_RANGES.bloodPressureSystolic,
          required: true,
        }),
        item('bloodPressureDiastolic', 'integer', t('이완기 혈압', 'Diastolic blood pressure'), {
          unit: 'mmHg',
          ...VITAL_RANGES.bloodPressureDiastolic,
          required: true,
        }),
        item('heartRate', 'integer', t('맥박', 'Pulse rate'), {
          unit: 'bpm',
          ...VITAL_RANGES.heartRate,
          required: true,
        }),
        item('bodyTemperature', 'decimal', t('체온', 'Body temperature'), {
          unit: '°C',
          decimals: 1,
          ...VITAL_RANGES.bodyTemperature,
          required: true,
        }),
        item('result', 'singleChoice', t('결과', 'Result'), {
          codeList: 'vitalSignResult',
          display: 'radio',
          required: true,
        }),
        opinionItem(),
      ],
      { notDoneItem: 'nd' },
    ),
  ],
  checks: [
    {
      id: 'vitalSigns.systolicNotAboveDiastolic',
      item: 'bloodPressureSystolic',
      when: lte(ref('bloodPressureSystolic'), ref('bloodPressureDiastolic')),
      severity: 'query',
      message: t(
        '수축기 혈압이 이완기 혈압보다 높지 않습니다. 확인하십시오.',
        'The systolic pressure is not above the diastolic pressure. Please check.',
      ),
    },
    {
      // Issue 43: "normal" was accepted beside a systolic pressure of 320 mmHg.
      id: 'vitalSigns.normalButOutOfRange',
      item: 'result',
      when: normalDespiteOutOfRange('result', 'normal', Object.entries(VITAL_RANGES)),
      severity: 'query',
      message: t(
        '결과가 정상으로 기록되었으나 범위를 벗어난 활력 징후가 있습니다. 결과 또는 측정값을 확인하십시오.',
        'The result is recorded as normal, but a vital sign lies outside its expected range. Please check the result or the values.',
      ),
    },
  ],
};

interface LabTest {
  key: string;
  ko: string;
  en: string;
  /** Units as commonly reported; sites with other units record them in the opinion. */
  unit?: string;
  /** Urine dipstick results are qualitative (negative, trace, 1+…), recorded as text. */
  qualitative?: boolean;
}

const hematology: LabTest[] = [
  { key: 'wbc', ko: '백혈구(WBC)', en: 'WBC', unit: '10³/µL' },
  { key: 'rbc', ko: '적혈구(RBC)', en: 'RBC', unit: '10⁶/µL' },
  { key: 'hemoglobin', ko: '혈색소(Hemoglobin)', en: 'Hemoglobin', unit: 'g/dL' },
  { key: 'hematocrit', ko: '적혈구용적률(Hematocrit)', en: 'Hematocrit', unit: '%' },
  { key: 'platelet', ko: '혈소판(Platelet)', en: 'Platelet', unit: '10³/µL' },
];
const chemistry: LabTest[] = [
  { key: 'bun', ko: '혈중요소질소(BUN)', en: 'BUN', unit: 'mg/dL' },
  { key: 'creatinine', ko: '크레아티닌(Creatinine)', en: 'Creatinine', unit: 'mg/dL' },
  { key: 'ast', ko: 'AST', en: 'AST', unit: 'U/L' },
  { key: 'alt', ko: 'ALT', en: 'ALT', unit: 'U/L' },
  { key: 'albumin', ko: '알부민(Albumin)', en: 'Albumin', unit: 'g/dL' },
  { key: 'totalProtein', ko: '총단백(Total protein)', en: 'Total protein', unit: 'g/dL' },
  { key: 'totalBilirubin', ko: '총빌리루빈(Total bilirubin)', en: 'Total bilirubin', unit: 'mg/dL' },
  { key: 'glucose', ko: '혈당(Glucose)', en: 'Glucose', unit: 'mg/dL' },
  { key: 'cholesterol', ko: '총콜레스테롤(Cholesterol)', en: 'Cholesterol', unit: 'mg/dL' },
  { key: 'egfr', ko: 'eGFR', en: 'eGFR', unit: 'mL/min/1.73m²' },
];
const coagulation: LabTest[] = [
  { key: 'pt', ko: '프로트롬빈 시간(PT)', en: 'PT', unit: 'sec' },
  { key: 'aptt', ko: '활성화 부분 트롬보플라스틴 시간(aPTT)', en: 'aPTT', unit: 'sec' },
];
const urine: LabTest[] = [
  { key: 'urineRbc', ko: '요잠혈(RBC)', en: 'Urine RBC (occult blood)', qualitative: true },
  { key: 'urineAlbumin', ko: '요단백(Albumin)', en: 'Urine albumin', qualitative: true },
  { key: 'urineGlucose', ko: '요당(Glucose)', en: 'Urine glucose', qualitative: true },
  { key: 'urinePh', ko: '요 pH', en: 'Urine pH' },
  { key: 'urineWbc', ko: '요백혈구(WBC)', en: 'Urine WBC', qualitative: true },
];

function labTestItems(test: LabTest): ItemDefinition[] {
  const abnormal = eq(ref(`${test.key}Normal`), 'abnormal');
  return [
    test.qualitative
      ? item(`${test.key}Result`, 'text', t(`${test.ko} 결과`, `${test.en} result`), { required: true })
      : item(`${test.key}Result`, 'decimal', t(`${test.ko} 결과`, `${test.en} result`), {
          decimals: 2,
          required: true,
          ...(test.unit ? { unit: test.unit } : {}),
        }),
    item(`${test.key}Normal`, 'singleChoice', t(`${test.ko} 정상 여부`, `${test.en} normal/abnormal`), {
      codeList: 'normalAbnormal',
      display: 'radio',
      required: true,
    }),
    item(
      `${test.key}Significance`,
      'singleChoice',
      t(`${test.ko} 임상적 유의성`, `${test.en} clinical significance`),
      {
        codeList: 'clinicalSignificance',
        display: 'radio',
        showWhen: abnormal,
        requiredWhen: abnormal,
      },
    ),
    item(`${test.key}Opinion`, 'text', t(`${test.ko} 소견`, `${test.en} opinion`), {
      maxLength: TEXT_MAX_LENGTH,
    }),
  ];
}

function panel(
  key: string,
  label: [string, string],
  tests: LabTest[],
  leadingItems: ItemDefinition[] = [],
): SectionDefinition {
  return section(key, t(label[0], label[1]), [...leadingItems, ...tests.flatMap(labTestItems)], {
    notDoneItem: 'nd',
  });
}

/**
 * Spec §5: earlier results may stand in for the screening tests except urine, which is taken on the
 * screening day. Urine is often collected on another day than the blood, so the panel has its own date;
 * empty means "the specimen collection date above".
 */
const urineSpecimenDate = dateItem(
  'urineSpecimenDate',
  t('요검사 검체 채취일', 'Urine specimen collection date'),
  {
    help: t(
      '요검사 검체를 위 검체 채취일과 다른 날 채취한 경우에만 입력합니다. 스크리닝 시 요검사는 이전 결과로 대체할 수 없습니다.',
      'Enter only when the urine specimen was taken on another day than the specimen collection date above. At screening, urine results cannot be replaced by earlier ones.',
    ),
  },
);

export const labTestForm: FormDefinition = {
  key: 'labTest',
  label: t('실험실 검사', 'Laboratory tests'),
  sections: [
    section(
      'specimen',
      t('검체 채취', 'Specimen collection'),
      [
        ndItem(),
        dateItem('specimenDate', t('검체 채취일', 'Specimen collection date'), { required: true }),
        // Spec §5: a screening-day test may be repeated once, and then the retest is what is recorded.
        item('retest', 'yesNo', t('재검 결과', 'Retest result'), {
          display: 'radio',
          help: t(
            '스크리닝 당일 검사를 1회 재검한 경우 "예"를 선택하고 재검 결과를 기록합니다.',
            'Choose "Yes" when the screening-day test was repeated once, and record the retest result.',
          ),
        }),
      ],
      {
        notDoneItem: 'nd',
        help: t(
          '스크리닝 전 2주 이내의 검사 결과(요검사 제외)는 대체할 수 있습니다. 스크리닝 당일 검사는 1회 재검할 수 있으며, 이 경우 재검 결과를 기록합니다.',
          'Results (except urine) from within 2 weeks before screening may be used instead. A screening-day test may be repeated once; record the retest result.',
        ),
      },
    ),
    panel('hematology', ['혈액학 검사', 'Hematology'], hematology),
    panel('chemistry', ['혈액화학 검사', 'Blood chemistry'], chemistry),
    panel('coagulation', ['혈액응고 검사', 'Coagulation'], coagulation),
    panel('urine', ['요검사', 'Urinalysis'], urine, [urineSpecimenDate]),
  ],
  checks: [
    {
      id: 'labTest.specimenOutsideWindow',
      item: 'specimenDate',
      visits: ['v1'],
      when: gt(daysBetween(ref('specimenDate'), ref(SCREENING_DATE)), param('labWindowDays')),
      severity: 'query',
      message: t(
        '검체 채취일이 스크리닝 2주 이전입니다. 대체 인정 기간을 확인하십시오.',
        'The specimen was taken more than 2 weeks before screening. Please check the substitution window.',
      ),
    },
    {
      // Only the screening-day test may be repeated: a retest of substituted (earlier) results is not.
      id: 'labTest.retestNotOnScreeningDay',
      item: 'retest',
      visits: ['v1'],
      when: and(isYes('retest'), ne(ref('specimenDate'), ref(SCREENING_DATE))),
      severity: 'query',
      message: t(
        '재검은 스크리닝 당일 검사에 한해 1회 허용됩니다. 검체 채취일과 재검 여부를 확인하십시오.',
        'Only the screening-day test may be repeated (once). Please check the specimen date and the retest answer.',
      ),
    },
    {
      // Spec §5: the substitution by results from the 2 weeks before screening excludes urine.
      id: 'labTest.urineNotOnScreeningDay',
      item: 'urineSpecimenDate',
      visits: ['v1'],
      when: and(
        notEmpty(ref(SCREENING_DATE)),
        or(
          and(notEmpty(ref('urineSpecimenDate')), ne(ref('urineSpecimenDate'), ref(SCREENING_DATE))),
          and(
            isEmpty(ref('urineSpecimenDate')),
            notEmpty(ref('specimenDate')),
            ne(ref('specimenDate'), ref(SCREENING_DATE)),
          ),
        ),
      ),
      severity: 'query',
      message: t(
        '요검사는 이전 결과로 대체할 수 없습니다. 스크리닝 당일 채취한 요검사 결과와 채취일을 기록하십시오.',
        'Urine results cannot be replaced by earlier ones. Please record the urinalysis taken on the screening day and its date.',
      ),
    },
  ],
};

const testPerformed = and(notEmpty(ref('testMethod')), ne(ref('testMethod'), 'notPerformed'));
const testNotPerformed = eq(ref('testMethod'), 'notPerformed');

export const pregnancyTestForm: FormDefinition = {
  key: 'pregnancyTest',
  label: t('임신 검사', 'Pregnancy test'),
  sections: [
    section('eligibility', t('대상 여부', 'Applicability'), [
      item('childbearingPotential', 'yesNo', t('가임 여성 여부', 'Woman of childbearing potential'), {
        display: 'radio',
        required: true,
        help: t(
          '남성 또는 가임력이 없는 여성은 "아니오"를 선택하면 검사 항목이 표시되지 않습니다.',
          'Choose "No" for men and women without childbearing potential; the test is then not shown.',
        ),
      }),
    ]),
    section(
      'test',
      t('임신 검사', 'Pregnancy test'),
      [
        item('testMethod', 'singleChoice', t('검사 방법', 'Test'), {
          codeList: 'pregnancyTestMethod',
          display: 'radio',
          required: true,
        }),
        item('notPerformedReason', 'text', t('미시행 사유', 'Reason not performed'), {
          showWhen: testNotPerformed,
          requiredWhen: testNotPerformed,
        }),
        item('result', 'singleChoice', t('결과', 'Result'), {
          codeList: 'pregnancyResult',
          display: 'radio',
          showWhen: testPerformed,
          requiredWhen: testPerformed,
        }),
      ],
      { showWhen: isYes('childbearingPotential') },
    ),
  ],
  checks: [
    {
      id: 'pregnancyTest.maleOfChildbearingPotential',
      item: 'childbearingPotential',
      when: and(isYes('childbearingPotential'), eq(ref('v1.demographicInfo.gender'), 'M')),
      severity: 'query',
      message: t(
        "남성 대상자에게 가임 여성 여부가 '예'로 입력되었습니다.",
        "Childbearing potential is 'Yes' for a male subject.",
      ),
    },
  ],
  outcomes: [
    {
      id: 'pregnancyTest.positive',
      kind: 'excluded',
      when: and(isYes('childbearingPotential'), eq(ref('result'), 'positive')),
      target: { visit: 'all', form: 'endExamination' },
      message: t(
        '임신 검사 결과가 양성입니다. 대상자는 임상시험에서 제외됩니다. 종료 검사를 작성하십시오.',
        'The pregnancy test is positive: the subject is excluded from the study. Complete the end of study.',
      ),
    },
  ],
};
