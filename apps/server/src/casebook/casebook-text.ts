import type { Text } from '../http/language.ts';

/** The casebook's own words in both languages; the study's words come from its definition. */

export const casebookText = {
  title: { ko: '증례기록서', en: 'Casebook' },
  subtitle: { ko: '대상자별 전체 증례기록 (CRF)', en: 'Complete case report form of one subject' },
  study: { ko: '임상시험', en: 'Study' },
  studyTitle: { ko: '임상시험 제목', en: 'Study title' },
  site: { ko: '기관', en: 'Site' },
  subject: { ko: '대상자', en: 'Subject' },
  screeningNumber: { ko: '스크리닝 번호', en: 'Screening number' },
  randomizationNumber: { ko: '무작위 배정 번호', en: 'Randomization number' },
  initials: { ko: '이니셜', en: 'Initials' },
  consentDate: { ko: '동의일', en: 'Consent date' },
  status: { ko: '상태', en: 'Status' },
  printedAt: { ko: '출력 일시', en: 'Printed at' },
  printedBy: { ko: '출력자', en: 'Printed by' },
  withAudit: { ko: '감사 추적 포함', en: 'Audit trail included' },
  yes: { ko: '예', en: 'Yes' },
  no: { ko: '아니오', en: 'No' },
  signatureState: { ko: '시험책임자 서명', en: "Investigator's signature" },
  holdsInForce: { ko: '프리징·잠금', en: 'Freezes and locks' },
  none: { ko: '없음', en: 'None' },
  noData: { ko: '입력된 자료가 없습니다.', en: 'No data have been entered.' },
  unscheduledReason: { ko: '비정기 방문 사유', en: 'Reason for the unscheduled visit' },
  item: { ko: '항목', en: 'Item' },
  value: { ko: '값', en: 'Value' },
  unit: { ko: '단위', en: 'Unit' },
  sdv: { ko: 'SDV', en: 'SDV' },
  derived: { ko: '자동 계산', en: 'derived' },
  noRows: { ko: '행 없음', en: 'No rows' },
  saved: { ko: '저장', en: 'Saved' },
  version: { ko: '버전', en: 'Version' },
  enteredUnder: { ko: '정의 버전 {version}', en: 'Definition version {version}' },
  sdvVerified: { ko: '확인됨', en: 'verified' },
  sdvChanged: { ko: '확인 후 변경됨', en: 'changed since verified' },
  sdvSummary: {
    ko: 'SDV: 입력 항목 {total}개 중 {verified}개 확인',
    en: 'SDV: {verified} of {total} entered items verified',
  },
  queries: { ko: '쿼리', en: 'Queries' },
  query: { ko: '쿼리', en: 'Query' },
  auditTrail: { ko: '감사 추적', en: 'Audit trail' },
  photoCaption: {
    ko: '고막 사진과 측정 윤곽(주황: 고막, 청록 점선: 천공) · 천공 면적 비율 {area} · 직경 비율 {diameter}',
    en: 'Eardrum photo with its tracing (amber: membrane, dashed cyan: perforation) · perforation area {area} · diameter ratio {diameter}',
  },
  time: { ko: '일시', en: 'Time' },
  user: { ko: '사용자', en: 'User' },
  change: { ko: '이전 → 이후', en: 'Old → new' },
  reason: { ko: '사유', en: 'Reason' },
  signaturePage: { ko: '시험책임자 서명 (21 CFR §11.50)', en: "Investigator's signature (21 CFR §11.50)" },
  printedName: { ko: '서명자 성명', en: 'Printed name of the signer' },
  role: { ko: '역할', en: 'Role' },
  signedAt: { ko: '서명 일시', en: 'Date and time of signing' },
  meaning: { ko: '서명의 의미', en: 'Meaning of the signature' },
  notSigned: { ko: '서명되지 않음', en: 'Not signed' },
  notSignedDetail: {
    ko: '이 대상자의 증례기록서에는 시험책임자의 전자서명이 없습니다.',
    en: "This subject's casebook has not been signed by the investigator.",
  },
  invalidated: {
    ko: '서명 무효화: {at}, 사유: {reason}',
    en: 'Signature invalidated on {at} because {reason}',
  },
  previousSignature: { ko: '무효화된 서명', en: 'The invalidated signature' },
  page: { ko: '{n} / {m} 페이지', en: 'Page {n} of {m}' },
  frozen: { ko: '프리징', en: 'Frozen' },
  locked: { ko: '잠금', en: 'Locked' },
  audiogram: { ko: '청력도', en: 'Audiogram' },
  audiogramFrequency: { ko: '주파수 (Hz)', en: 'Frequency (Hz)' },
  audiogramLevel: { ko: '청력 역치 (dB HL)', en: 'Hearing level (dB HL)' },
  audiogramAir: { ko: '기도', en: 'Air conduction' },
  audiogramBone: { ko: '골도', en: 'Bone conduction' },
  audiogramEar: { ko: '시험 귀: {ear}', en: 'Study ear: {ear}' },
  earR: { ko: '우측', en: 'right' },
  earL: { ko: '좌측', en: 'left' },
  earUnknown: { ko: '미입력', en: 'not recorded' },
} satisfies Record<string, Text>;

export const holdLevelText: Record<'form' | 'subject' | 'site' | 'study', Text> = {
  form: { ko: '양식', en: 'form' },
  subject: { ko: '대상자', en: 'subject' },
  site: { ko: '기관', en: 'site' },
  study: { ko: '임상시험', en: 'study' },
};

export const messageKindText: Record<string, Text> = {
  opened: { ko: '발행', en: 'Opened' },
  answer: { ko: '답변', en: 'Answer' },
  comment: { ko: '의견', en: 'Comment' },
  close: { ko: '종료', en: 'Closed' },
  cancel: { ko: '취소', en: 'Cancelled' },
  reopen: { ko: '재발행', en: 'Reopened' },
  value_changed: { ko: '값 변경', en: 'Value changed' },
  closed_by_check: { ko: '검증 통과로 종료', en: 'Closed by the check' },
};

/** `{name}` placeholders filled in. */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    values[name] === undefined ? whole : String(values[name]),
  );
}
