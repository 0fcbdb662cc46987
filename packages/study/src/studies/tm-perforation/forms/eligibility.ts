import type { Expression } from '../../../model/expression.ts';
import {
  and,
  eq,
  gt,
  isChecked,
  isEmpty,
  isYes,
  lt,
  ne,
  notEmpty,
  or,
  param,
  ref,
} from '../../../model/expression-builders.ts';
import type { CheckDefinition, FormDefinition } from '../../../model/study-definition.ts';
import { exclusionCriteria, inclusionCriteria } from '../criteria.ts';
import { dateItem, item, section, t } from '../helpers.ts';
import { CONSENT_DATE } from '../refs.ts';

const eligible = isYes('eligible');

// spec §5: with a "yes" evaluation, warn to reconfirm when any of these holds. Two-part references
// (form.item) read the same visit's form; three-part ones (v1.form.item) always read V1.
const reconfirmRules: { id: string; when: Expression; ko: string; en: string }[] = [
  {
    id: 'v1EarDischarge',
    when: isYes('v1.diseaseBasicInfo.earDischarge'),
    ko: 'V1 질병 기본 정보에서 이루가 "예"입니다.',
    en: 'Ear discharge is "Yes" in the V1 disease information.',
  },
  {
    id: 'otoscopyOtorrhea',
    when: isYes('otoscopyEndoscopy.otorrhea'),
    ko: '이경/내시경 검사에서 이루가 "예"입니다.',
    en: 'Otorrhoea is "Yes" in otoscopy / endoscopy.',
  },
  {
    id: 'ptaNotDone',
    when: or(isChecked('ptaTest.airNd'), isChecked('ptaTest.boneNd')),
    ko: '순음 청력 검사에 ND가 체크되어 있습니다.',
    en: 'ND is checked on pure tone audiometry.',
  },
  {
    id: 'v1BodyMeasurementNotDone',
    when: isChecked('v1.bodyMeasurement.nd'),
    ko: 'V1 신체 계측에 ND가 체크되어 있습니다.',
    en: 'ND is checked on the V1 body measurements.',
  },
  {
    id: 'physicalExamNotDone',
    when: isChecked('physicalExam.nd'),
    ko: '신체 검사에 ND가 체크되어 있습니다.',
    en: 'ND is checked on the physical examination.',
  },
  {
    id: 'vitalSignsNotDone',
    when: isChecked('vitalSigns.nd'),
    ko: '활력 징후에 ND가 체크되어 있습니다.',
    en: 'ND is checked on the vital signs.',
  },
  {
    id: 'v1LabTestNotDone',
    when: isChecked('v1.labTest.nd'),
    ko: 'V1 실험실 검사에 ND가 체크되어 있습니다.',
    en: 'ND is checked on the V1 laboratory tests.',
  },
];

const reconfirmChecks: CheckDefinition[] = reconfirmRules.map((rule) => ({
  id: `inclusionExclusionEval.reconfirm.${rule.id}`,
  item: 'eligible',
  when: and(eligible, rule.when),
  severity: 'query',
  message: t(`${rule.ko} 적합 여부를 재확인하십시오.`, `${rule.en} Please reconfirm the eligibility.`),
}));

// An answer contradicting the eligibility: every criterion gets one, so a new criterion needs no code.
const criterionChecks: CheckDefinition[] = [
  ...inclusionCriteria.map(
    (criterion): CheckDefinition => ({
      id: `inclusionExclusionEval.${criterion.key}.notMet`,
      item: criterion.key,
      when: and(eligible, eq(ref(criterion.key), 'N')),
      severity: 'query',
      message: t(
        '선정기준을 충족하지 않으나 적합 여부가 "예"입니다.',
        'This inclusion criterion is not met, yet the subject is marked eligible.',
      ),
    }),
  ),
  ...exclusionCriteria.map(
    (criterion): CheckDefinition => ({
      id: `inclusionExclusionEval.${criterion.key}.applies`,
      item: criterion.key,
      when: and(eligible, isYes(criterion.key)),
      severity: 'query',
      message: t(
        '제외기준에 해당하나 적합 여부가 "예"입니다.',
        'This exclusion criterion applies, yet the subject is marked eligible.',
      ),
    }),
  ),
];

const perforationPercent = ref('v1.tympanicPhoto.perforationPercent');

// An answer contradicting recorded data (spec §5 inclusion thresholds; eGFR and pregnancy exclusions).
const dataChecks: CheckDefinition[] = [
  {
    id: 'inclusionExclusionEval.inc01.age',
    item: 'inc01',
    when: and(isYes('inc01'), lt(ref('v1.demographicInfo.age'), param('minimumAge'))),
    severity: 'query',
    message: t('대상자의 나이가 만 15세 미만입니다.', 'The subject is younger than 15.'),
  },
  {
    id: 'inclusionExclusionEval.inc03.perforationPercent',
    item: 'inc03',
    when: and(
      isYes('inc03'),
      or(
        lt(perforationPercent, param('perforationMinPercent')),
        gt(perforationPercent, param('perforationMaxPercent')),
      ),
    ),
    severity: 'query',
    message: t(
      'V1 고막 사진의 천공 비율이 20~60% 범위를 벗어납니다.',
      'The V1 perforation percent is outside 20 to 60 percent.',
    ),
  },
  {
    id: 'inclusionExclusionEval.inc04.consent',
    item: 'inc04',
    when: and(isYes('inc04'), isEmpty(ref(CONSENT_DATE))),
    severity: 'query',
    message: t('동의서 서명일이 입력되지 않았습니다.', 'No informed consent date is recorded.'),
  },
  {
    id: 'inclusionExclusionEval.exc05.egfr',
    item: 'exc05',
    when: and(eq(ref('exc05'), 'N'), lt(ref('v1.labTest.egfrResult'), param('egfrThreshold'))),
    severity: 'query',
    message: t('V1 eGFR이 30 미만입니다.', 'The V1 eGFR is below 30.'),
  },
  {
    id: 'inclusionExclusionEval.exc06.pregnancy',
    item: 'exc06',
    when: and(eq(ref('exc06'), 'N'), eq(ref('v1.pregnancyTest.result'), 'positive')),
    severity: 'query',
    message: t('V1 임신 검사 결과가 양성입니다.', 'The V1 pregnancy test is positive.'),
  },
];

const endOfStudyTarget = { visit: 'all', form: 'endExamination' };

export const inclusionExclusionEvalForm: FormDefinition = {
  key: 'inclusionExclusionEval',
  label: t('선정/제외기준 평가', 'Inclusion / exclusion evaluation'),
  sections: [
    section('evaluation', t('적합성 평가', 'Eligibility'), [
      item('eligible', 'yesNo', t('임상시험 참여 적합 여부', 'Eligible for the trial'), {
        display: 'radio',
        required: true,
        critical: true,
      }),
    ]),
    section(
      'inclusion',
      t('선정기준', 'Inclusion criteria'),
      inclusionCriteria.map((c) =>
        item(c.key, 'yesNo', c.label, { display: 'radio', required: true, critical: true }),
      ),
      { help: t('각 기준을 충족하면 "예"를 선택하십시오.', 'Choose "Yes" when the criterion is met.') },
    ),
    section(
      'exclusion',
      t('제외기준', 'Exclusion criteria'),
      exclusionCriteria.map((c) =>
        item(c.key, 'yesNo', c.label, { display: 'radio', required: true, critical: true }),
      ),
      { help: t('각 기준에 해당하면 "예"를 선택하십시오.', 'Choose "Yes" when the criterion applies.') },
    ),
  ],
  checks: [...reconfirmChecks, ...criterionChecks, ...dataChecks],
  outcomes: [
    {
      id: 'inclusionExclusionEval.notEligible',
      kind: 'goToEndOfStudy',
      when: eq(ref('eligible'), 'N'),
      target: endOfStudyTarget,
      message: t(
        '부적합으로 평가되었습니다. 종료 검사를 작성하십시오.',
        'The subject is not eligible. Complete the end of study page.',
      ),
    },
  ],
};

const suitable = isYes('suitable');

export const randomizationNumberForm: FormDefinition = {
  key: 'randomizationNumber',
  label: t('무작위 배정 번호', 'Randomization number'),
  sections: [
    section(
      'randomization',
      t('무작위 배정', 'Randomization'),
      [
        item('suitable', 'yesNo', t('무작위 배정 적합 여부', 'Suitable for randomization'), {
          derive: ref('inclusionExclusionEval.eligible'),
          help: t(
            'V2 선정/제외기준 평가에서 자동으로 입력됩니다.',
            'Filled from the V2 eligibility evaluation.',
          ),
        }),
        dateItem('assignmentDate', t('배정일', 'Assignment date'), {
          readOnly: true,
          requiredWhen: suitable,
        }),
        item('randomizationNumber', 'text', t('무작위 배정 번호', 'Randomization number'), {
          readOnly: true,
          requiredWhen: suitable,
          pattern: 'R[0-9]{5}',
          help: t(
            'R + 기관 번호 2자리(YY) + 기관 내 배정 번호 3자리(XXX)',
            'R + institution number (YY) + assignment number within the institution (XXX)',
          ),
        }),
        item('group', 'singleChoice', t('배정군', 'Group'), {
          codeList: 'treatmentGroup',
          readOnly: true,
          requiredWhen: suitable,
        }),
      ],
      { help: t('배정 정보는 시스템이 자동으로 입력합니다.', 'The system fills in the assignment.') },
    ),
  ],
  outcomes: [
    {
      id: 'randomizationNumber.notSuitable',
      kind: 'goToEndOfStudy',
      when: eq(ref('suitable'), 'N'),
      target: endOfStudyTarget,
      message: t(
        '무작위 배정 부적합입니다. 종료 검사를 작성하십시오.',
        'Not suitable for randomization. Complete the end of study page.',
      ),
    },
  ],
};

const applied = isYes('applied');

export const deviceApplicationForm: FormDefinition = {
  key: 'deviceApplication',
  label: t('시험기기 적용', 'Device application'),
  sections: [
    section('application', t('시험기기 적용', 'Device application'), [
      item('applied', 'yesNo', t('시험기기 적용 여부', 'Device applied'), {
        display: 'radio',
        required: true,
      }),
      item('site', 'singleChoice', t('적용 부위', 'Application site'), {
        codeList: 'side',
        display: 'radio',
        showWhen: applied,
        requiredWhen: applied,
      }),
      dateItem('applicationDate', t('적용일', 'Application date'), {
        showWhen: applied,
        requiredWhen: applied,
      }),
      item('applicationTime', 'time', t('적용 시각', 'Application time'), {
        showWhen: applied,
        requiredWhen: applied,
      }),
    ]),
  ],
  checks: [
    {
      id: 'deviceApplication.siteDiffersFromPlan',
      item: 'site',
      when: and(
        notEmpty(ref('v1.diseaseBasicInfo.applicationSite')),
        notEmpty(ref('site')),
        ne(ref('site'), ref('v1.diseaseBasicInfo.applicationSite')),
      ),
      severity: 'query',
      message: t(
        '적용 부위가 V1의 적용 예정 부위와 다릅니다.',
        'The application site differs from the site intended at V1.',
      ),
    },
    {
      id: 'deviceApplication.dateDiffersFromVisit',
      item: 'applicationDate',
      when: and(
        notEmpty(ref('applicationDate')),
        notEmpty(ref('visitDay.visitDate')),
        ne(ref('applicationDate'), ref('visitDay.visitDate')),
      ),
      severity: 'query',
      message: t('적용일이 V2 방문일과 다릅니다.', 'The application date differs from the V2 visit date.'),
    },
  ],
  outcomes: [
    {
      id: 'deviceApplication.notApplied',
      kind: 'goToEndOfStudy',
      when: eq(ref('applied'), 'N'),
      target: endOfStudyTarget,
      message: t(
        '시험기기가 적용되지 않았습니다. 종료 검사를 작성하십시오.',
        'The device was not applied. Complete the end of study page.',
      ),
    },
  ],
};
