import { eq, lt, ref, today } from '../../../model/expression-builders.ts';
import type { FormDefinition, SectionDefinition } from '../../../model/study-definition.ts';
import { dateItem, item, ndItem, section, t } from '../helpers.ts';
import { CONSENT_DATE } from '../refs.ts';

export const consentScreeningForm: FormDefinition = {
  key: 'consentScreening',
  label: t('동의 및 스크리닝 번호 부여', 'Consent and screening number'),
  sections: [
    section('consent', t('서면 동의', 'Written informed consent'), [
      dateItem('consentDate', t('동의서 서명일', 'Informed consent signature date'), { required: true }),
      item('initials', 'text', t('대상자 이니셜', 'Subject initials'), {
        readOnly: true,
        required: true,
        maxLength: 10,
        help: t('대상자 등록 시 입력한 이니셜이 표시됩니다.', 'Shown from the subject registration.'),
      }),
      item('screeningNumber', 'text', t('스크리닝 번호', 'Screening number'), {
        readOnly: true,
        required: true,
        help: t('시스템이 자동으로 부여합니다.', 'Assigned by the system.'),
      }),
    ]),
  ],
};

// spec §5: a visit date earlier than today shows a warning with reason choices and a free-text reason.
const visitDateEarlierThanToday = lt(ref('visitDate'), today());

function visitSection(help: [string, string], withNotDone: boolean): SectionDefinition {
  return section(
    'visit',
    t('방문일', 'Visit date'),
    [
      ...(withNotDone ? [ndItem()] : []),
      dateItem('visitDate', t('방문일', 'Visit date'), { required: true }),
      item(
        'queryRadio',
        'singleChoice',
        t('방문일이 오늘보다 이전인 사유', 'Reason the visit date is earlier than today'),
        {
          codeList: 'visitDateDelayReason',
          display: 'radio',
          showWhen: visitDateEarlierThanToday,
          requiredWhen: visitDateEarlierThanToday,
        },
      ),
      item('queryInput', 'text', t('상세 사유', 'Reason in detail'), {
        showWhen: visitDateEarlierThanToday,
        requiredWhen: eq(ref('queryRadio'), '099'),
      }),
    ],
    { help: t(help[0], help[1]), ...(withNotDone ? { notDoneItem: 'nd' } : {}) },
  );
}

export const visitDayForm: FormDefinition = {
  key: 'visitDay',
  label: t('방문일', 'Visit day'),
  // V3–V5 (follow-up); V1, V2 and V6 have their own instructions, and only V6 has ND.
  sections: [
    visitSection(
      [
        '추적 관찰 방문일을 입력하십시오. 방문 허용 범위는 기저 방문(V2)일을 기준으로 계산됩니다.',
        'Enter the follow-up visit date. The visit window is counted from the baseline visit (V2).',
      ],
      false,
    ),
  ],
  variants: [
    {
      visits: ['v1'],
      sections: [
        visitSection(
          [
            '스크리닝 방문일을 입력하십시오. 스크리닝 검사는 서면 동의를 받은 후에 시행합니다.',
            'Enter the screening visit date. Screening tests are done after written informed consent.',
          ],
          false,
        ),
      ],
    },
    {
      visits: ['v2'],
      sections: [
        visitSection(
          [
            '기저 방문(시험기기 적용일)을 입력하십시오. 이후 방문 일정은 이 날짜를 기준으로 합니다.',
            'Enter the baseline visit (device application day). Later visits are scheduled from this date.',
          ],
          false,
        ),
      ],
    },
    {
      visits: ['v6'],
      sections: [
        visitSection(
          [
            '종료 방문일을 입력하십시오. 방문이 이루어지지 않은 경우 ND에 체크하십시오.',
            'Enter the end-of-study visit date. Check ND if the visit did not take place.',
          ],
          true,
        ),
      ],
    },
  ],
  checks: [
    {
      id: 'visitDay.visitDateBeforeToday',
      item: 'visitDate',
      when: visitDateEarlierThanToday,
      severity: 'warning',
      message: t(
        '방문일이 오늘보다 이전입니다. 사유를 선택하십시오.',
        'The visit date is earlier than today. Select a reason.',
      ),
    },
    {
      id: 'visitDay.screeningBeforeConsent',
      item: 'visitDate',
      visits: ['v1'],
      when: lt(ref('visitDate'), ref(CONSENT_DATE)),
      severity: 'query',
      message: t(
        '스크리닝 방문일이 동의서 서명일보다 이전입니다. 확인하십시오.',
        'The screening visit date is earlier than the consent date. Please check.',
      ),
    },
  ],
};
