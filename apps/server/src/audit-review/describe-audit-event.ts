import { type AuditChange, koreaDateTime, richTextWords } from '@cdms/contract';
import {
  type FormLayout,
  getFormLayout,
  getItemCodes,
  type ItemDefinition,
  parsePhotoReference,
  parseTracing,
  resolveVisit,
  type StudyDefinition,
  tracingAreaPercent,
} from '@cdms/study';
import type { Text } from '../http/language.ts';
import { subjectStatusText } from '../subjects/subject-status-text.ts';

/**
 * An audit record in words, for the inspector who reads the trail (issue 43 item 7): where it happened
 * (visit, form and item by their labels in the study definition), what it is about, and what changed
 * — values as the form shows them: a coded answer's label and not its code, a photo as "photo" and
 * not its id and hash, a tracing by its area and not its JSON. The stored record stays available as
 * is (the row's `target`, `before`, `after`); this only reads it. Labels come from the definition the
 * caller passes, so no study's keys are written here; a key the definition no longer has is shown as
 * stored, and a record kind this file does not know is described by its plain fields.
 */

/** The columns of an audit record this needs (the page's query selects them). */
export interface AuditRecordToDescribe {
  event_type: string;
  entity_type: string;
  entity_id: string | null;
  before: unknown;
  after: unknown;
  visit_key: string | null;
  form_key: string | null;
  item_key: string | null;
}

export interface AuditDescription {
  visitLabel: Text | null;
  formLabel: Text | null;
  itemLabel: Text | null;
  about: Text | null;
  changes: AuditChange[];
}

const same = (text: string): Text => ({ ko: text, en: text });
const TEXT_MAX = 200;
const cut = (text: string) => (text.length > TEXT_MAX ? `${text.slice(0, TEXT_MAX - 1)}…` : text);

/** What a record is about when no item or form says it; the subject has its own column. */
const entityWords: Record<string, Text> = {
  query: { ko: '쿼리', en: 'Query' },
  hold: { ko: '프리징/잠금', en: 'Freeze or lock' },
  sdv: { ko: 'SDV', en: 'SDV' },
  signature: { ko: '전자서명', en: 'Signature' },
  form_photo: { ko: '사진', en: 'Photo' },
  image: { ko: '이미지', en: 'Image' },
  attachment: { ko: '첨부파일', en: 'Attachment' },
  comment: { ko: '코멘트', en: 'Comment' },
  notice: { ko: '공지', en: 'Notice' },
  guideline: { ko: '가이드라인', en: 'Guideline' },
  user: { ko: '사용자', en: 'User' },
  site: { ko: '기관', en: 'Site' },
  membership: { ko: '권한', en: 'Membership' },
  study: { ko: '임상시험', en: 'Study' },
  study_definition: { ko: '임상시험 정의', en: 'Study definition' },
  study_design_draft: { ko: '설계 초안', en: 'Design draft' },
  study_amendment: { ko: '프로토콜 변경', en: 'Amendment' },
  study_design_review: { ko: '설계 검토', en: 'Design review' },
  session: { ko: '로그인 세션', en: 'Session' },
  lab_range: { ko: '정상 범위', en: 'Normal range' },
  training_module: { ko: '교육', en: 'Training module' },
  data_export: { ko: '데이터 내보내기', en: 'Data export' },
  randomization: { ko: '무작위 배정', en: 'Randomization' },
  task_notice: { ko: '업무 알림', en: 'Task notice' },
  monitoring_signal: { ko: '중앙 모니터링 신호', en: 'Monitoring signal' },
  monitoring_limits: { ko: '품질 허용 한계', en: 'Quality tolerance limits' },
  coding_assignment: { ko: '코딩', en: 'Coding' },
  coding_dictionary: { ko: '코딩 사전', en: 'Coding dictionary' },
  sae_report: { ko: 'SAE 보고', en: 'SAE report' },
  visit: { ko: '방문', en: 'Visit' },
};

/** Field names of records other than item changes, as a reader names them. */
const fieldWords: Record<string, Text> = {
  status: { ko: '상태', en: 'Status' },
  state: { ko: '상태', en: 'State' },
  kind: { ko: '종류', en: 'Kind' },
  level: { ko: '범위', en: 'Level' },
  meaning: { ko: '서명의 의미', en: 'Meaning' },
  printedName: { ko: '서명자', en: 'Signed by' },
  role: { ko: '역할', en: 'Role' },
  roles: { ko: '역할', en: 'Roles' },
  name: { ko: '이름', en: 'Name' },
  email: { ko: '이메일', en: 'E-mail' },
  text: { ko: '내용', en: 'Text' },
  message: { ko: '내용', en: 'Message' },
  title: { ko: '제목', en: 'Title' },
  format: { ko: '형식', en: 'Format' },
  rowCount: { ko: '행 수', en: 'Rows' },
  fileName: { ko: '파일 이름', en: 'File name' },
  contentType: { ko: '파일 형식', en: 'File type' },
  sourceType: { ko: '원본 형식', en: 'Source format' },
  width: { ko: '너비', en: 'Width' },
  height: { ko: '높이', en: 'Height' },
  code: { ko: '코드', en: 'Code' },
  version: { ko: '버전', en: 'Version' },
  arm: { ko: '배정군', en: 'Arm' },
  randomizationNumber: { ko: '무작위 배정 번호', en: 'Randomization number' },
  screeningNumber: { ko: '스크리닝 번호', en: 'Screening number' },
  siteCode: { ko: '기관', en: 'Site' },
  initials: { ko: '이니셜', en: 'Initials' },
  consentDate: { ko: '동의일', en: 'Consent date' },
  registeredAt: { ko: '등록 일시', en: 'Registered at' },
  assignee: { ko: '담당', en: 'Assigned to' },
  value: { ko: '값', en: 'Value' },
  dimensions: { ko: '크기', en: 'Dimensions' },
  content: { ko: '내용', en: 'Content' },
  channels: { ko: '발송 방법', en: 'Channels' },
  messages: { ko: '메시지 수', en: 'Messages' },
  recipients: { ko: '받는 사람 수', en: 'Recipients' },
  alarmType: { ko: '알림 종류', en: 'Alarm type' },
  periodStart: { ko: '기간 시작', en: 'Period start' },
  periodEnd: { ko: '기간 끝', en: 'Period end' },
  guideType: { ko: '가이드라인 종류', en: 'Guideline type' },
  sms: { ko: '문자', en: 'SMS' },
  reason: { ko: '사유', en: 'Reason' },
  limits: { ko: '품질 허용 한계', en: 'Tolerance limits' },
  queryIds: { ko: '발행한 쿼리', en: 'Queries raised' },
  signalKind: { ko: '신호 종류', en: 'Signal kind' },
  comment: { ko: '코멘트', en: 'Comment' },
  answer: { ko: '답변', en: 'Answer' },
  filter: { ko: '조건', en: 'Filter' },
  locale: { ko: '언어', en: 'Language' },
  isAdmin: { ko: '관리자', en: 'Administrator' },
  active: { ko: '사용', en: 'Active' },
  target: { ko: '목표', en: 'Target' },
  enrollmentTarget: { ko: '등록 목표', en: 'Enrollment target' },
  gatesDataEntry: { ko: '교육 이수 전 입력 제한', en: 'Training required before data entry' },
  // Notices, guidelines, training and task notices.
  contentHtml: { ko: '내용', en: 'Content' },
  contentLength: { ko: '내용 길이', en: 'Content length' },
  global: { ko: '전체 공지', en: 'For all studies' },
  pinned: { ko: '상단 고정', en: 'Pinned' },
  visible: { ko: '공개', en: 'Visible' },
  effectiveDate: { ko: '시행일', en: 'Effective date' },
  alarmStart: { ko: '알림 시작', en: 'Reminder from' },
  alarmEnd: { ko: '알림 끝', en: 'Reminder until' },
  score: { ko: '점수', en: 'Score' },
  // Data exports.
  auditTrail: { ko: '감사 추적 포함', en: 'With audit trail' },
  maskPersonalData: { ko: '개인정보 가림', en: 'Personal data masked' },
  labels: { ko: '값 라벨', en: 'Value labels' },
  valuesAsOf: { ko: '값의 기준', en: 'Values' },
  byteSize: { ko: '파일 크기(바이트)', en: 'File size (bytes)' },
  file: { ko: '파일', en: 'File' },
  subjects: { ko: '대상자 수', en: 'Subjects' },
  values: { ko: '값 수', en: 'Values' },
  // Laboratory normal ranges.
  testKey: { ko: '검사 항목', en: 'Test' },
  sex: { ko: '성별', en: 'Sex' },
  low: { ko: '하한', en: 'Lower limit' },
  high: { ko: '상한', en: 'Upper limit' },
  unit: { ko: '단위', en: 'Unit' },
  effectiveFrom: { ko: '적용 시작일', en: 'Effective from' },
  retired: { ko: '폐기', en: 'Retired' },
  // Queries, SDV, signatures.
  proposedValue: { ko: '제안한 값', en: 'Proposed value' },
  from: { ko: '이전', en: 'From' },
  to: { ko: '이후', en: 'To' },
  mode: { ko: '방식', en: 'Mode' },
  firstSubjectsPerSite: { ko: '기관별 첫 대상자 수', en: 'First subjects per site' },
  changedItems: { ko: '바뀐 항목', en: 'Changed items' },
  // Review listings (issue 50 item 4).
  listing: { ko: '검토 목록', en: 'Listing' },
  reviewedVersion: { ko: '검토한 버전', en: 'Version reviewed' },
  columns: { ko: '표시한 열', en: 'Columns shown' },
  count: { ko: '개수', en: 'Count' },
  // Medical coding (issue 51).
  verbatim: { ko: '원문', en: 'Verbatim' },
  term: { ko: '용어', en: 'Term' },
  dictionaryVersion: { ko: '사전 버전', en: 'Dictionary version' },
  termCount: { ko: '용어 수', en: 'Terms' },
  recoded: { ko: '재코딩', en: 'Recoded' },
  sentToQueue: { ko: '대기열로 보냄', en: 'Sent to the queue' },
  autoCoded: { ko: '자동 코딩', en: 'Coded automatically' },
  pt: { ko: 'PT', en: 'PT' },
  soc: { ko: 'SOC', en: 'SOC' },
  atc: { ko: 'ATC', en: 'ATC' },
  // The design draft and amendments.
  revision: { ko: '개정', en: 'Revision' },
  changes: { ko: '바뀐 줄 수', en: 'Changed lines' },
  bytes: { ko: '크기(바이트)', en: 'Size (bytes)' },
  number: { ko: '프로토콜 변경 번호', en: 'Amendment number' },
  fromVersion: { ko: '운영 중인 버전', en: 'Live version' },
  draftVersion: { ko: '초안 버전', en: 'Draft version' },
  draftRevision: { ko: '초안 개정', en: 'Draft revision' },
  draftHash: { ko: '초안 해시', en: 'Draft hash' },
  toVersion: { ko: '새 버전', en: 'New version' },
  contentHash: { ko: '버전 내용 해시', en: "Version's content hash" },
  publishedAt: { ko: '배포 시각', en: 'Published at' },
  scope: { ko: '범위', en: 'Scope' },
  migrationTarget: { ko: '이관 대상', en: 'Migrated' },
  renamedValues: { ko: '이름이 바뀐 값', en: 'Renamed values' },
  retiredValues: { ko: '보관된 값(입력 제외)', en: 'Retired values' },
  keptForms: { ko: '이관된 양식 수', en: 'Forms moved' },
  sites: { ko: '기관별 승인 시행일', en: "Sites' approval dates" },
  declarations: { ko: '선언', en: 'Declarations' },
  // Sites, studies, subjects, visits.
  site: { ko: '기관', en: 'Site' },
  institutionNumber: { ko: '기관 번호', en: 'Institution no.' },
  registered_on: { ko: '등록일', en: 'Registered on' },
  title_en: { ko: '영문 제목', en: 'English title' },
  protocol_number: { ko: '프로토콜 번호', en: 'Protocol number' },
  sponsor: { ko: '의뢰자', en: 'Sponsor' },
  screening_number_format: { ko: '스크리닝 번호 형식', en: 'Screening number format' },
  randomization_enabled: { ko: '무작위 배정', en: 'Randomization' },
  randomization_number_format: { ko: '무작위 배정 번호 형식', en: 'Randomization number format' },
  key: { ko: '정의', en: 'Definition' },
  source: { ko: '출처', en: 'Source' },
  assignmentDate: { ko: '배정일', en: 'Assignment date' },
  group: { ko: '배정군', en: 'Group' },
  groupVisibleRoles: { ko: '배정군 열람 역할', en: 'Roles that see the group' },
  showGroup: { ko: '양식에 배정군 기록', en: 'Group in the form' },
  unblindedAt: { ko: '눈가림 해제 일시', en: 'Unblinded at' },
  failureCount: { ko: '실패 횟수', en: 'Failures' },
  cause: { ko: '원인', en: 'Cause' },
  repeatKey: { ko: '회차', en: 'Occurrence' },
  visitDate: { ko: '방문일', en: 'Visit date' },
  // SAE reports (issue 51).
  eventNumber: { ko: '이상사례 번호', en: 'Event number' },
  awarenessAt: { ko: '인지 시각', en: 'Awareness time' },
  dueAt: { ko: '보고 기한', en: 'Due' },
  criteria: { ko: '중대성 기준', en: 'Seriousness criteria' },
  narrative: { ko: '경과 기술', en: 'Narrative' },
  relevantHistory: { ko: '관련 병력', en: 'Relevant history' },
  suspectProducts: { ko: '의심 약물·기기', en: 'Suspect drugs and device' },
  outcome: { ko: '결과', en: 'Outcome' },
  reporter: { ko: '보고자', en: 'Reporter' },
  submittedAt: { ko: '제출 시각', en: 'Submitted at' },
  acknowledgedAt: { ko: '접수 확인 시각', en: 'Acknowledged at' },
  overdue: { ko: '기한 초과', en: 'Overdue' },
};

/** Stored words that have a reader's word (states, kinds, levels). */
const valueWords: Record<string, Text> = {
  locked: { ko: '잠금', en: 'Locked' },
  frozen: { ko: '프리징', en: 'Frozen' },
  form: { ko: '양식', en: 'Form' },
  subject: { ko: '대상자', en: 'Subject' },
  site: { ko: '기관', en: 'Site' },
  study: { ko: '임상시험', en: 'Study' },
  open: { ko: '열림', en: 'Open' },
  answered: { ko: '답변됨', en: 'Answered' },
  closed: { ko: '종료', en: 'Closed' },
  cancelled: { ko: '취소', en: 'Cancelled' },
  camera: { ko: '카메라', en: 'Camera' },
  upload: { ko: '파일', en: 'File' },
  verified: { ko: '확인됨', en: 'Verified' },
  unverified: { ko: '미확인', en: 'Not verified' },
  reviewed: { ko: '검토함', en: 'Reviewed' },
  not_reviewed: { ko: '검토 안 함', en: 'Not reviewed' },
  manual: { ko: '수동', en: 'Manual' },
  draft: { ko: '초안', en: 'Draft' },
  published: { ko: '게시', en: 'Published' },
  retired: { ko: '폐기', en: 'Retired' },
  email: { ko: '이메일', en: 'E-mail' },
  sms: { ko: '문자', en: 'SMS' },
  system: { ko: '시스템', en: 'System' },
  // Subject statuses (a status change's cause is stored in camelCase).
  ...subjectStatusText,
  screeningFailure: subjectStatusText.screening_failure,
  active: { ko: '진행 중', en: 'Active' },
  // How a randomization list came about.
  generated: { ko: '생성', en: 'Generated' },
  imported: { ko: '가져오기', en: 'Imported' },
  // SDV plans, signatures, query kinds.
  all: { ko: '전체', en: 'All' },
  critical: { ko: '핵심 항목', en: 'Critical items' },
  signed: { ko: '서명됨', en: 'Signed' },
  invalidated: { ko: '무효', en: 'Invalidated' },
  value_changed: { ko: '값 변경', en: 'Value changed' },
  // Guideline types and task notice kinds.
  protocol: { ko: '임상시험계획서', en: 'Protocol' },
  crf_guideline: { ko: 'CRF 작성 지침', en: 'CRF guideline' },
  lab_manual: { ko: '검사 매뉴얼', en: 'Lab manual' },
  general: { ko: '일반', en: 'General' },
  schedule: { ko: '일정', en: 'Schedule' },
  safety: { ko: '안전성', en: 'Safety' },
  data_entry: { ko: '데이터 입력', en: 'Data entry' },
  training: { ko: '교육', en: 'Training' },
  // SAE report statuses and criteria (issue 51).
  submitted: { ko: '제출됨', en: 'Submitted' },
  acknowledged: { ko: '접수 확인됨', en: 'Acknowledged' },
  initial: { ko: '최초 보고', en: 'Initial report' },
  followUp: { ko: '추적 보고', en: 'Follow-up' },
  death: { ko: '사망', en: 'Death' },
  lifeThreatening: { ko: '생명 위협', en: 'Life-threatening' },
  hospitalisation: { ko: '입원 또는 입원 기간 연장', en: 'Hospitalisation or prolongation' },
  disability: { ko: '장애 또는 기능 저하', en: 'Disability or incapacity' },
  congenitalAnomaly: { ko: '선천적 기형', en: 'Congenital anomaly' },
  medicallyImportant: { ko: '기타 의학적으로 중요한 상황', en: 'Other medically important' },
};

/** A stored value that is an instant (ISO, UTC) as the app shows times; anything else: null. */
function koreaTime(iso: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?Z$/.test(iso)) return null;
  return koreaDateTime(iso);
}

/**
 * Fields a reader has no use for on the page: where the record is (its own columns), hashes, tokens
 * and internal ids. They stay in the stored record behind the details toggle.
 */
function isHiddenField(key: string): boolean {
  return (
    ['visitKey', 'formKey', 'itemKey', 'itemPath', 'uploadedSize', 'size', 'signedAt'].includes(key) ||
    /(hash|sha256|token|secret|password|id|ids)$/i.test(key)
  );
}

const yes: Text = { ko: '예', en: 'Yes' };
const no: Text = { ko: '아니오', en: 'No' };

/** A plain stored value in words, or null when it is empty or not plain (an object stays in the raw record). */
function plainValue(value: unknown): Text | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'boolean') return value ? yes : no;
  if (typeof value === 'number') return same(String(value));
  if (typeof value === 'string') return valueWords[value] ?? same(koreaTime(value) ?? cut(value));
  if (typeof value === 'object' && !Array.isArray(value)) {
    // A localized text as stored ({ ko, en }): the reader's language, not its JSON.
    const { ko, en } = value as Record<string, unknown>;
    if (typeof ko === 'string' && typeof en === 'string') return { ko: cut(ko), en: cut(en) };
    return null;
  }
  if (Array.isArray(value) && value.every((entry) => ['string', 'number'].includes(typeof entry))) {
    const words = value.map((entry) => plainValue(entry) ?? same(''));
    return { ko: cut(words.map((w) => w.ko).join(', ')), en: cut(words.map((w) => w.en).join(', ')) };
  }
  return null;
}

/** Rich text as stored (sanitized HTML: notices, guidelines) as the words a reader sees. */
function richTextValue(value: unknown): Text | null {
  return plainValue(typeof value === 'string' ? richTextWords(value) : value);
}

/** Where an item sits in the form's layout: a plain item, a repeating group, or a column of one. */
interface ItemPlace {
  item?: ItemDefinition;
  groupLabel?: Text;
}

function itemPlace(layout: FormLayout | undefined, key: string | null): ItemPlace | undefined {
  if (!layout || !key) return undefined;
  const direct = layout.items.get(key)?.item;
  if (direct) return { item: direct };
  const group = layout.groups.get(key);
  if (group) return { groupLabel: group.label };
  // A query's path: `group[row].column`, or with its `visit.form.` prefix.
  const column = /([A-Za-z][A-Za-z0-9]*)$/.exec(key)?.[1];
  const item = column ? layout.items.get(column)?.item : undefined;
  return item ? { item } : undefined;
}

/** An item's value as the form shows it. */
export function itemValueText(
  definition: StudyDefinition | undefined,
  place: ItemPlace | undefined,
  value: unknown,
): Text | null {
  if (value === null || value === undefined || value === '') return null;
  if (Array.isArray(value) && value.length === 0) return null;
  const item = place?.item;
  if (place?.groupLabel && Array.isArray(value))
    return { ko: `${value.length}행`, en: `${value.length} ${value.length === 1 ? 'row' : 'rows'}` };
  if (item && definition) {
    const codes = getItemCodes(definition, item);
    const labelOf = (code: unknown) =>
      codes.find((candidate) => candidate.code === String(code))?.label ?? same(String(code));
    if ((item.type === 'singleChoice' || item.type === 'yesNo') && codes.length > 0) return labelOf(value);
    if (item.type === 'multipleChoice' && Array.isArray(value)) {
      const labels = value.map(labelOf);
      return { ko: labels.map((l) => l.ko).join(', '), en: labels.map((l) => l.en).join(', ') };
    }
    if (item.type === 'checkbox')
      return value === true ? { ko: '체크함', en: 'Checked' } : { ko: '체크 안 함', en: 'Not checked' };
    if ((item.type === 'integer' || item.type === 'decimal') && item.unit && typeof value === 'number')
      return same(`${value} ${item.unit}`);
  }
  // A photo or a tracing is recognised by its value too, so an item the definition no longer has
  // still shows no hash or JSON.
  if (item?.type === 'photo' || parsePhotoReference(value)) return { ko: '사진', en: 'Photo' };
  if (item?.type === 'tracing' || (typeof value === 'string' && value.startsWith('{"version"'))) {
    const tracing = parseTracing(value);
    const area = tracing ? tracingAreaPercent(tracing) : null;
    return area === null
      ? { ko: '윤곽 그림', en: 'Tracing' }
      : { ko: `윤곽 그림 (면적 ${area.toFixed(1)}%)`, en: `Tracing (area ${area.toFixed(1)}%)` };
  }
  if (Array.isArray(value) && value.some((entry) => typeof entry === 'object'))
    return { ko: `${value.length}행`, en: `${value.length} ${value.length === 1 ? 'row' : 'rows'}` };
  return plainValue(value);
}

/** The stored before/after of an item change ({ value }), or the object itself otherwise. */
function storedValue(record: unknown): unknown {
  return record !== null && typeof record === 'object' && 'value' in record
    ? (record as { value: unknown }).value
    : record;
}

/**
 * The plain fields of two stored objects, one line each (a field only in `after` reads as its value).
 * A `value` field is the item's value (SDV records carry it), shown as the form shows it.
 */
function fieldChanges(
  before: unknown,
  after: unknown,
  itemValue: (value: unknown) => Text | null,
): AuditChange[] {
  const asObject = (value: unknown) =>
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? { ...(value as Record<string, unknown>) }
      : {};
  const old = asObject(before);
  const next = asObject(after);
  // A photo's width and height read as one size ("800×600").
  for (const fields of [old, next]) {
    if (typeof fields.width === 'number' && typeof fields.height === 'number') {
      fields.dimensions = `${fields.width}×${fields.height}`;
      delete fields.width;
      delete fields.height;
    }
  }
  const keys = [...new Set([...Object.keys(old), ...Object.keys(next)])].filter((key) => !isHiddenField(key));
  const changes: AuditChange[] = [];
  for (const key of keys) {
    const show = key === 'value' ? itemValue : key.endsWith('Html') ? richTextValue : plainValue;
    const was = show(old[key]);
    const now = show(next[key]);
    if (was === null && now === null) continue;
    changes.push({ field: fieldWords[key] ?? same(key), before: was, after: now });
  }
  return changes;
}

/** Describes one record with the study definition (undefined: none published; keys are shown as stored). */
export function describeAuditEvent(
  record: AuditRecordToDescribe,
  definition: StudyDefinition | undefined,
): AuditDescription {
  const visitKey = record.visit_key || null;
  const formKey = record.form_key || null;
  const itemKey = record.item_key || null;
  const layout = definition && visitKey && formKey ? getFormLayout(definition, visitKey, formKey) : undefined;
  const place = itemPlace(layout, itemKey);
  const visitLabel = visitKey
    ? ((definition && resolveVisit(definition, visitKey)?.label) ?? same(visitKey))
    : null;
  const formLabel = formKey
    ? (definition?.forms.find((form) => form.key === formKey)?.label ?? same(formKey))
    : null;
  const itemLabel = itemKey ? (place?.item?.label ?? place?.groupLabel ?? same(itemKey)) : null;
  const about =
    record.entity_type === 'item' || record.entity_type === 'form' || record.entity_type === 'subject'
      ? null
      : (entityWords[record.entity_type] ?? same(record.entity_type));

  let changes: AuditChange[];
  if (record.event_type === 'data.item_changed') {
    // An item's value before and after, as the form shows it; the item is named in its own column.
    const before = storedValue(record.before);
    const after = storedValue(record.after);
    let afterText = itemValueText(definition, place, after);
    // One photo replaced by another reads "photo → photo" otherwise.
    if (parsePhotoReference(before) && parsePhotoReference(after) && before !== after)
      afterText = { ko: '새 사진', en: 'New photo' };
    changes = [{ field: null, before: itemValueText(definition, place, before), after: afterText }];
  } else {
    changes = fieldChanges(record.before, record.after, (value) => itemValueText(definition, place, value));
  }
  return { visitLabel, formLabel, itemLabel, about, changes };
}
