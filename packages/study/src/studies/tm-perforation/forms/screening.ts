import {
  and,
  daysBetween,
  eq,
  gt,
  isChecked,
  isYes,
  lt,
  ne,
  notEmpty,
  op,
  param,
  ref,
  round,
  yearsBetween,
} from '../../../model/expression-builders.ts';
import type { FormDefinition } from '../../../model/study-definition.ts';
import { BMI_RANGE, CLINICAL_RANGES } from '../clinical-ranges.ts';
import { dateItem, item, ndItem, opinionItem, section, t } from '../helpers.ts';
import { CONSENT_DATE, SCREENING_DATE } from '../refs.ts';

export const demographicInfoForm: FormDefinition = {
  key: 'demographicInfo',
  label: t('인구학적 정보', 'Demographics'),
  sections: [
    section('demographics', t('인구학적 정보', 'Demographics'), [
      dateItem('birthDate', t('생년월일', 'Date of birth'), { required: true }),
      item('age', 'integer', t('나이(만)', 'Age (years)'), {
        derive: yearsBetween(ref('birthDate'), ref(CONSENT_DATE)),
        help: t(
          '동의서 서명일 기준 만 나이로 자동 계산됩니다.',
          'Computed in full years at the consent date.',
        ),
      }),
      item('gender', 'singleChoice', t('성별', 'Sex'), {
        codeList: 'gender',
        display: 'radio',
        required: true,
      }),
    ]),
  ],
  checks: [
    {
      id: 'demographicInfo.birthDateAfterConsent',
      item: 'birthDate',
      when: gt(ref('birthDate'), ref(CONSENT_DATE)),
      severity: 'hard',
      message: t(
        '생년월일이 동의서 서명일보다 이후입니다.',
        'The date of birth is later than the consent date.',
      ),
    },
    {
      id: 'demographicInfo.underMinimumAge',
      item: 'age',
      when: lt(ref('age'), param('minimumAge')),
      severity: 'warning',
      message: t(
        '만 15세 미만으로 선정기준에 맞지 않습니다.',
        'Younger than 15: the inclusion criterion is not met.',
      ),
    },
  ],
};

const dischargeColorIsColored = eq(ref('dischargeColor'), 'colored');

export const diseaseBasicInfoForm: FormDefinition = {
  key: 'diseaseBasicInfo',
  label: t('질병 기본 정보', 'Disease information'),
  sections: [
    section('disease', t('질병 기본 정보', 'Disease information'), [
      item('perforationSite', 'singleChoice', t('천공 부위', 'Perforation site'), {
        codeList: 'perforationSite',
        display: 'radio',
        required: true,
      }),
      item('applicationSite', 'singleChoice', t('시험기기 적용 예정 부위', 'Intended application site'), {
        codeList: 'side',
        display: 'radio',
        required: true,
      }),
      item('pain', 'singleChoice', t('통증', 'Pain'), {
        codeList: 'symptomLevel',
        display: 'radio',
        required: true,
      }),
      item('tinnitus', 'singleChoice', t('이명', 'Tinnitus'), {
        codeList: 'symptomLevel',
        display: 'radio',
        required: true,
      }),
      item('dizziness', 'singleChoice', t('어지럼', 'Dizziness'), {
        codeList: 'symptomLevel',
        display: 'radio',
        required: true,
      }),
      item('earDischarge', 'yesNo', t('이루(귀 분비물)', 'Ear discharge'), {
        display: 'radio',
        required: true,
      }),
    ]),
    section(
      'discharge',
      t('이루 양상', 'Ear discharge details'),
      [
        item('dischargeColor', 'singleChoice', t('색깔', 'Colour'), {
          codeList: 'dischargeColor',
          display: 'radio',
          required: true,
        }),
        item('dischargeColorFinding', 'text', t('색깔 소견', 'Colour finding'), {
          showWhen: dischargeColorIsColored,
          requiredWhen: dischargeColorIsColored,
        }),
        item('dischargeSmell', 'singleChoice', t('냄새', 'Smell'), {
          codeList: 'dischargeSmell',
          display: 'radio',
          required: true,
        }),
        item('dischargeMucus', 'yesNo', t('점액성', 'Mucoid'), { display: 'radio', required: true }),
        item('dischargeLump', 'yesNo', t('덩어리', 'Lumps'), { display: 'radio', required: true }),
        opinionItem('dischargeFindings', t('소견', 'Findings')),
        opinionItem('otherSymptoms', t('기타 증상', 'Other symptoms')),
      ],
      { showWhen: isYes('earDischarge') },
    ),
  ],
  checks: [
    {
      id: 'diseaseBasicInfo.applicationSiteNotPerforated',
      item: 'applicationSite',
      when: and(
        notEmpty(ref('perforationSite')),
        notEmpty(ref('applicationSite')),
        ne(ref('perforationSite'), 'B'),
        ne(ref('perforationSite'), ref('applicationSite')),
      ),
      severity: 'query',
      message: t(
        '적용 예정 부위가 천공 부위와 다릅니다. 확인하십시오.',
        'The intended application site is not a perforated side. Please check.',
      ),
    },
  ],
};

const height = ref('height');
const weight = ref('weight');
const heightInMetres = op('div', height, 100);

export const bodyMeasurementForm: FormDefinition = {
  key: 'bodyMeasurement',
  label: t('신체 계측', 'Body measurements'),
  sections: [
    section(
      'body',
      t('신체 계측', 'Body measurements'),
      [
        ndItem(),
        dateItem('measurementDate', t('측정일', 'Measurement date')),
        item('height', 'decimal', t('신장', 'Height'), {
          unit: 'cm',
          decimals: 1,
          ...CLINICAL_RANGES.height,
          required: true,
        }),
        item('weight', 'decimal', t('체중', 'Weight'), {
          unit: 'kg',
          decimals: 1,
          ...CLINICAL_RANGES.weight,
          required: true,
        }),
        // spec §5: weight / (height in metres)², one decimal, only when both are positive.
        item('bmi', 'decimal', t('체질량지수(BMI)', 'Body mass index (BMI)'), {
          unit: 'kg/m²',
          decimals: 1,
          ...BMI_RANGE,
          derive: op(
            'if',
            and(gt(weight, 0), gt(height, 0)),
            round(op('div', weight, op('mul', heightInMetres, heightInMetres)), 1),
            null,
          ),
        }),
      ],
      { notDoneItem: 'nd' },
    ),
  ],
};

const notOngoing = ne(ref('ongoing'), true);

export const medicalHistoryForm: FormDefinition = {
  key: 'medicalHistory',
  label: t('병력', 'Medical history'),
  sections: [
    section('history', t('병력', 'Medical history'), [item('none', 'checkbox', t('해당 없음', 'None'))], {
      help: t(
        '스크리닝 전 12주 이내의 병력을 기록합니다.',
        'Record conditions within 12 weeks before screening.',
      ),
    }),
    section(
      'histories',
      t('병력 목록', 'Conditions'),
      [
        item('content', 'text', t('병력(질환명)', 'Condition'), { required: true }),
        dateItem('startDate', t('시작일', 'Start date')),
        item('ongoing', 'checkbox', t('지속 여부(현재 진행 중)', 'Ongoing')),
        dateItem('endDate', t('종료일', 'End date'), { showWhen: notOngoing }),
        opinionItem(),
      ],
      { showWhen: ne(ref('none'), true), repeating: { key: 'histories', rowsRequired: true } },
    ),
  ],
  checks: [
    {
      id: 'medicalHistory.endBeforeStart',
      item: 'endDate',
      when: lt(ref('endDate'), ref('startDate')),
      severity: 'query',
      message: t('종료일이 시작일보다 이전입니다.', 'The end date is earlier than the start date.'),
    },
    {
      id: 'medicalHistory.outsideWindow',
      item: 'endDate',
      when: gt(daysBetween(ref('endDate'), ref(SCREENING_DATE)), param('medicalHistoryWindowDays')),
      severity: 'query',
      message: t(
        '스크리닝 12주 이전에 종료된 병력입니다. 수집 대상인지 확인하십시오.',
        'This condition ended more than 12 weeks before screening. Please check that it belongs here.',
      ),
    },
    {
      id: 'medicalHistory.noneWithRows',
      item: 'none',
      when: and(isChecked('none'), gt(op('count', ref('histories')), 0)),
      severity: 'query',
      message: t(
        "'해당 없음'이 선택되었으나 병력이 입력되어 있습니다.",
        "'None' is checked but conditions are recorded.",
      ),
    },
  ],
};
