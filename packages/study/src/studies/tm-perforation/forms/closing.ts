import { eq, ref } from '../../../model/expression-builders.ts';
import type { FormDefinition } from '../../../model/study-definition.ts';
import { dateItem, item, opinionItem, section, t } from '../helpers.ts';

const completed = eq(ref('completed'), 'Y');
const droppedOut = eq(ref('completed'), 'N');
const screeningFailure = eq(ref('completed'), 'SF');

export const endExaminationForm: FormDefinition = {
  key: 'endExamination',
  label: t('종료 검사', 'End of study'),
  sections: [
    section('completion', t('임상시험 완료 여부', 'Study completion'), [
      item(
        'completed',
        'singleChoice',
        t('임상시험계획서에 따른 임상시험 완료 여부', 'Completed per protocol'),
        {
          codeList: 'completion',
          display: 'radio',
          required: true,
        },
      ),
      dateItem('observationEndDate', t('관찰 종료일', 'Observation end date'), {
        showWhen: completed,
        requiredWhen: completed,
      }),
    ]),
    section(
      'screeningFailure',
      t('스크리닝 탈락', 'Screening failure'),
      [
        item('screeningFailureReason', 'singleChoice', t('스크리닝 탈락 사유', 'Screening failure reason'), {
          codeList: 'screeningFailureReason',
          display: 'radio',
          required: true,
        }),
        opinionItem('screeningFailureDetail', t('상세 사유', 'Reason in detail')),
      ],
      { showWhen: screeningFailure },
    ),
    section(
      'dropout',
      t('중도 탈락', 'Drop-out'),
      [
        dateItem('dropoutDate', t('중도 탈락일', 'Drop-out date'), { required: true }),
        item('dropoutReason', 'singleChoice', t('중도 탈락 사유', 'Drop-out reason'), {
          codeList: 'dropoutReason',
          display: 'select',
          required: true,
        }),
        opinionItem('dropoutDetail', t('상세 사유', 'Reason in detail')),
      ],
      { showWhen: droppedOut },
    ),
  ],
};

export const testDirectorSigningForm: FormDefinition = {
  key: 'testDirectorSigning',
  label: t('시험책임자 서명', 'Investigator signature'),
  sections: [
    section(
      'signing',
      t('시험책임자 서명', 'Investigator signature'),
      [
        dateItem('signatureDate', t('서명일', 'Signature date'), { required: true }),
        item('signature', 'text', t('서명(시험책임자 성명)', 'Signature (investigator name)'), {
          required: true,
        }),
      ],
      {
        help: t(
          '본인은 이 대상자의 증례기록서에 기록된 모든 자료를 검토하였으며, 그 내용이 정확하고 완전함을 확인합니다.',
          "I have reviewed all data recorded in this subject's case report form and confirm that they are accurate and complete.",
        ),
      },
    ),
  ],
};
