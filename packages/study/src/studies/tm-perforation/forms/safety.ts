import {
  and,
  daysBetween,
  gt,
  isChecked,
  isYes,
  lt,
  ne,
  not,
  or,
  param,
  ref,
} from '../../../model/expression-builders.ts';
import type { CheckDefinition, FormDefinition, ItemDefinition } from '../../../model/study-definition.ts';
import { dateItem, item, ndItem, opinionItem, section, t } from '../helpers.ts';
import { SCREENING_DATE } from '../refs.ts';

export const interestAdverseEventForm: FormDefinition = {
  key: 'interestAdverseEvent',
  label: t('관심 이상사례', 'Adverse events of interest'),
  sections: [
    section(
      'interest',
      t('관심 이상사례', 'Adverse events of interest'),
      [
        ndItem(),
        dateItem('collectionDate', t('수집일', 'Collection date'), { required: true }),
        item('pain', 'yesNo', t('통증', 'Pain'), { display: 'radio', required: true }),
        item('otorrhea', 'yesNo', t('이루', 'Otorrhoea'), { display: 'radio', required: true }),
        item('reperforation', 'yesNo', t('재천공', 'Reperforation'), { display: 'radio', required: true }),
      ],
      { notDoneItem: 'nd' },
    ),
  ],
  outcomes: [
    {
      id: 'interestAdverseEvent.present',
      kind: 'goToAdverseEvent',
      when: and(not(isChecked('nd')), or(isYes('pain'), isYes('otorrhea'), isYes('reperforation'))),
      target: { visit: 'all', form: 'adverseEvent' },
      message: t(
        '관심 이상사례가 있습니다. 이상사례 페이지에 기록하십시오.',
        'An adverse event of interest is present. Record it on the adverse event page.',
      ),
    },
  ],
};

const endBeforeStart = (form: string): CheckDefinition => ({
  id: `${form}.endBeforeStart`,
  item: 'endDate',
  when: lt(ref('endDate'), ref('startDate')),
  severity: 'query',
  message: t('종료일이 시작일보다 이전입니다.', 'The end date is earlier than the start date.'),
});

// spec §5: prior medication and treatment are collected within 4 weeks before screening.
const endedBeforeWindow = (form: string): CheckDefinition => ({
  id: `${form}.outsideWindow`,
  item: 'endDate',
  when: gt(daysBetween(ref('endDate'), ref(SCREENING_DATE)), param('priorMedicationWindowDays')),
  severity: 'query',
  message: t(
    '스크리닝 4주 이전에 종료되었습니다. 수집 대상인지 확인하십시오.',
    'This ended more than 4 weeks before screening. Please check that it belongs here.',
  ),
});

const ongoingAndEndDate = (): ItemDefinition[] => [
  item('ongoing', 'checkbox', t('지속 여부(현재 진행 중)', 'Ongoing')),
  dateItem('endDate', t('종료일', 'End date'), { showWhen: ne(ref('ongoing'), true) }),
];

export const adverseEventForm: FormDefinition = {
  key: 'adverseEvent',
  label: t('이상사례', 'Adverse events'),
  sections: [
    section('gate', t('이상사례', 'Adverse events'), [
      item('hasAdverseEvent', 'yesNo', t('이상사례 발생 여부', 'Any adverse event'), {
        display: 'radio',
        required: true,
      }),
    ]),
    section(
      'events',
      t('이상사례 목록', 'Adverse event list'),
      [
        item('name', 'text', t('이상사례명', 'Adverse event term'), { required: true }),
        dateItem('startDate', t('발현일', 'Start date'), { required: true }),
        item('startTime', 'time', t('발현 시각', 'Start time')),
        dateItem('endDate', t('종료일', 'End date')),
        item('endTime', 'time', t('종료 시각', 'End time')),
        item('serious', 'yesNo', t('중대한 이상사례 여부', 'Serious'), {
          display: 'radio',
          required: true,
          critical: true,
        }),
        item('severity', 'singleChoice', t('중증도', 'Severity'), {
          codeList: 'aeSeverity',
          display: 'radio',
          required: true,
        }),
        item('causality', 'singleChoice', t('시험기기와의 인과관계', 'Relationship to the device'), {
          codeList: 'aeCausality',
          display: 'select',
          required: true,
        }),
        item('deviceAction', 'singleChoice', t('시험기기에 대한 조치', 'Action taken with the device'), {
          codeList: 'aeDeviceAction',
          display: 'select',
          required: true,
        }),
        item('treatment', 'yesNo', t('이상사례에 대한 처치 여부', 'Treatment given'), {
          display: 'radio',
          required: true,
        }),
        item('outcome', 'singleChoice', t('결과', 'Outcome'), {
          codeList: 'aeOutcome',
          display: 'select',
          required: true,
        }),
        opinionItem('others', t('기타', 'Other remarks')),
      ],
      { showWhen: isYes('hasAdverseEvent'), repeating: { key: 'events', rowsRequired: true } },
    ),
  ],
  checks: [endBeforeStart('adverseEvent')],
};

export const concomitantDrugsForm: FormDefinition = {
  key: 'concomitantDrugs',
  label: t('선행/병용 약물', 'Prior and concomitant medication'),
  sections: [
    section(
      'gate',
      t('선행/병용 약물', 'Prior and concomitant medication'),
      [
        ndItem(),
        item(
          'hasConcomitantDrugs',
          'yesNo',
          t('선행/병용 약물 여부', 'Any prior or concomitant medication'),
          {
            display: 'radio',
            required: true,
          },
        ),
      ],
      {
        notDoneItem: 'nd',
        help: t(
          '스크리닝 전 4주 이내에 투여한 약물(선행 약물)과 임상시험 기간 중 투여한 약물을 기록합니다.',
          'Record medication taken within 4 weeks before screening (prior medication) and during the trial.',
        ),
      },
    ),
    section(
      'drugs',
      t('약물 목록', 'Medication list'),
      [
        item('drugName', 'text', t('약물명', 'Drug name'), { required: true }),
        item('dose', 'decimal', t('1회 투여량', 'Dose per administration'), { decimals: 3, min: 0 }),
        item('unit', 'text', t('단위', 'Unit')),
        item('frequency', 'text', t('투여 빈도', 'Frequency')),
        item('route', 'singleChoice', t('투여 경로', 'Route'), { codeList: 'route', display: 'select' }),
        dateItem('startDate', t('투여 시작일', 'Start date')),
        ...ongoingAndEndDate(),
        item('indication', 'text', t('투여 목적(적응증)', 'Indication')),
      ],
      {
        notDoneItem: 'nd',
        showWhen: isYes('hasConcomitantDrugs'),
        repeating: { key: 'drugs', rowsRequired: true },
      },
    ),
  ],
  checks: [endBeforeStart('concomitantDrugs'), endedBeforeWindow('concomitantDrugs')],
};

export const treatmentInvestigationForm: FormDefinition = {
  key: 'treatmentInvestigation',
  label: t('선행/병용 치료', 'Prior and concomitant treatment'),
  sections: [
    section(
      'gate',
      t('선행/병용 치료', 'Prior and concomitant treatment'),
      [
        item('hasTreatment', 'yesNo', t('선행/병용 치료(시술) 여부', 'Any prior or concomitant treatment'), {
          display: 'radio',
          required: true,
        }),
      ],
      {
        help: t(
          '스크리닝 전 4주 이내의 치료(시술)와 임상시험 기간 중의 치료를 기록합니다.',
          'Record treatments within 4 weeks before screening and during the trial.',
        ),
      },
    ),
    section(
      'treatments',
      t('치료 목록', 'Treatment list'),
      [
        item('treatmentName', 'text', t('치료(시술)명', 'Treatment'), { required: true }),
        item('site', 'text', t('부위', 'Site')),
        dateItem('startDate', t('시작일', 'Start date')),
        ...ongoingAndEndDate(),
        item('indication', 'text', t('치료 목적(적응증)', 'Indication')),
      ],
      { showWhen: isYes('hasTreatment'), repeating: { key: 'treatments', rowsRequired: true } },
    ),
  ],
  checks: [endBeforeStart('treatmentInvestigation'), endedBeforeWindow('treatmentInvestigation')],
};
