import type { SubjectStatus } from '@cdms/contract';
import type { Text } from '../http/language.ts';

/** A subject's status in the reader's words: the subject list's file, the casebook, the audit trail. */
export const subjectStatusText: Record<SubjectStatus, Text> = {
  screening: { ko: '스크리닝', en: 'Screening' },
  screening_failure: { ko: '스크리닝 탈락', en: 'Screening failure' },
  ongoing: { ko: '진행 중', en: 'Ongoing' },
  complete: { ko: '완료', en: 'Complete' },
  dropout: { ko: '중도 탈락', en: 'Drop-out' },
};
