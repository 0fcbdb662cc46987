/**
 * The workbook's sheets and columns (docs/workbook-layout.md). The writer writes these English headers;
 * the reader finds columns by header, in any order, comparing without case, spaces or punctuation, and
 * takes the Korean header as well.
 */

export interface ColumnSpec {
  /** The field the column holds: a path into the row's object (`label.ko`, `window.offsetDays`). */
  id: string;
  en: string;
  ko: string;
  /** Required: the sheet is refused without it. 'label': one of the pair's two languages is enough. */
  required?: true | 'label';
  /** Written as compact JSON: expressions. */
  json?: true;
  /** Written for the reader's eyes only and ignored on reading (the truth is in another sheet). */
  info?: true;
  width?: number;
}

export interface SheetSpec {
  name: string;
  ko: string;
  columns: ColumnSpec[];
}

const label = (id: string, en: string, ko: string, required?: 'label'): ColumnSpec[] => [
  { id: `${id}.ko`, en: `${en} (ko)`, ko: `${ko} (ko)`, width: 28, ...(required ? { required } : {}) },
  { id: `${id}.en`, en: `${en} (en)`, ko: `${ko} (en)`, width: 28, ...(required ? { required } : {}) },
];

/** The study-level fields, one a row, in the Study sheet's Field column. */
export const STUDY_FIELDS: ColumnSpec[] = [
  { id: 'key', en: 'Key', ko: '시험 키' },
  { id: 'version', en: 'Version', ko: '버전' },
  ...label('label', 'Label', '이름'),
  { id: 'visitDate.form', en: 'Visit date form', ko: '방문일 양식' },
  { id: 'visitDate.item', en: 'Visit date item', ko: '방문일 항목' },
  { id: 'subjectStatus.complete', en: 'Status complete when', ko: '완료 상태 조건', json: true },
  { id: 'subjectStatus.dropout', en: 'Status dropout when', ko: '중도 탈락 상태 조건', json: true },
  {
    id: 'subjectStatus.screeningFailure',
    en: 'Status screening failure when',
    ko: '스크리닝 탈락 상태 조건',
    json: true,
  },
  { id: 'subjectStatus.ongoing', en: 'Status ongoing when', ko: '진행 중 상태 조건', json: true },
];

export const STUDY_SHEET: SheetSpec = {
  name: 'Study',
  ko: '시험',
  columns: [
    { id: 'field', en: 'Field', ko: '필드', required: true, width: 30 },
    { id: 'value', en: 'Value', ko: '값', required: true, width: 60 },
  ],
};

export const VISITS_SHEET: SheetSpec = {
  name: 'Visits',
  ko: '방문',
  columns: [
    { id: 'key', en: 'Key', ko: '키', required: true, width: 16 },
    ...label('label', 'Label', '이름', 'label'),
    { id: 'group', en: 'Group', ko: '그룹', width: 14 },
    { id: 'window.anchorVisit', en: 'Window anchor visit', ko: '기준 방문', width: 16 },
    { id: 'window.offsetDays', en: 'Window offset days', ko: '기준일로부터 일수', width: 12 },
    { id: 'window.minusDays', en: 'Window minus days', ko: '허용 전 일수', width: 12 },
    { id: 'window.plusDays', en: 'Window plus days', ko: '허용 후 일수', width: 12 },
    { id: 'forms', en: 'Forms', ko: '양식', required: true, width: 60 },
    { id: 'unscheduled', en: 'Unscheduled', ko: '비정기', width: 12 },
  ],
};

export const FORMS_SHEET: SheetSpec = {
  name: 'Forms',
  ko: '양식',
  columns: [
    { id: 'key', en: 'Key', ko: '키', required: true, width: 22 },
    ...label('label', 'Label', '이름', 'label'),
    { id: 'visits', en: 'Visits (info)', ko: '방문 (참고)', info: true, width: 40 },
    { id: 'variants', en: 'Variants (info)', ko: '변형 (참고)', info: true, width: 30 },
  ],
};

export const ITEMS_SHEET: SheetSpec = {
  name: 'Items',
  ko: '항목',
  columns: [
    { id: 'form', en: 'Form', ko: '양식', required: true, width: 20 },
    { id: 'variant', en: 'Variant visits', ko: '변형 방문', width: 14 },
    { id: 'section.key', en: 'Section', ko: '섹션', required: true, width: 18 },
    ...label('section.label', 'Section label', '섹션 이름'),
    ...label('section.help', 'Section help', '섹션 도움말'),
    { id: 'section.showWhen', en: 'Section show when', ko: '섹션 표시 조건', json: true, width: 30 },
    { id: 'section.notDoneItem', en: 'Section not-done item', ko: '섹션 미시행 항목', width: 16 },
    { id: 'section.repeating.key', en: 'Repeating group', ko: '반복 그룹', width: 16 },
    { id: 'section.repeating.rowsRequired', en: 'Rows required', ko: '행 필수', width: 10 },
    { id: 'section.repeating.maxRows', en: 'Max rows', ko: '최대 행 수', width: 10 },
    { id: 'key', en: 'Item', ko: '항목', required: true, width: 20 },
    { id: 'type', en: 'Type', ko: '유형', required: true, width: 14 },
    ...label('label', 'Label', '이름', 'label'),
    ...label('help', 'Help', '도움말'),
    { id: 'unit', en: 'Unit', ko: '단위', width: 8 },
    { id: 'decimals', en: 'Decimals', ko: '소수 자릿수', width: 9 },
    { id: 'min', en: 'Min', ko: '최솟값', width: 8 },
    { id: 'max', en: 'Max', ko: '최댓값', width: 8 },
    { id: 'rangeSeverity', en: 'Range severity', ko: '범위 심각도', width: 10 },
    { id: 'hardMin', en: 'Hard min', ko: '절대 최솟값', width: 8 },
    { id: 'hardMax', en: 'Hard max', ko: '절대 최댓값', width: 8 },
    { id: 'maxLength', en: 'Max length', ko: '최대 길이', width: 9 },
    { id: 'pattern', en: 'Pattern', ko: '패턴', width: 16 },
    { id: 'codeList', en: 'Code list', ko: '코드 목록', width: 16 },
    { id: 'display', en: 'Display', ko: '표시 방식', width: 9 },
    { id: 'required', en: 'Required', ko: '필수', width: 9 },
    { id: 'requiredWhen', en: 'Required when', ko: '필수 조건', json: true, width: 30 },
    { id: 'showWhen', en: 'Show when', ko: '표시 조건', json: true, width: 30 },
    { id: 'readOnly', en: 'Read only', ko: '읽기 전용', width: 9 },
    { id: 'derive', en: 'Derivation', ko: '계산식', json: true, width: 30 },
    { id: 'notFuture', en: 'Not future', ko: '미래 날짜 불가', width: 9 },
    { id: 'critical', en: 'Critical', ko: '핵심 항목', width: 9 },
    { id: 'personalData', en: 'Personal data', ko: '개인 정보', width: 9 },
  ],
};

export const CODE_LISTS_SHEET: SheetSpec = {
  name: 'Code lists',
  ko: '코드 목록',
  columns: [
    { id: 'key', en: 'List', ko: '목록', required: true, width: 20 },
    { id: 'code', en: 'Code', ko: '코드', required: true, width: 12 },
    ...label('label', 'Label', '이름', 'label'),
  ],
};

export const CHECKS_SHEET: SheetSpec = {
  name: 'Checks',
  ko: '검사',
  columns: [
    { id: 'form', en: 'Form', ko: '양식', required: true, width: 20 },
    { id: 'id', en: 'Id', ko: 'ID', required: true, width: 24 },
    { id: 'item', en: 'Item', ko: '항목', required: true, width: 18 },
    { id: 'severity', en: 'Severity', ko: '심각도', required: true, width: 10 },
    { id: 'when', en: 'Fails when', ko: '실패 조건', required: true, json: true, width: 50 },
    ...label('message', 'Message', '메시지', 'label'),
    { id: 'visits', en: 'Visits', ko: '방문', width: 20 },
  ],
};

export const OUTCOMES_SHEET: SheetSpec = {
  name: 'Outcomes',
  ko: '결과',
  columns: [
    { id: 'form', en: 'Form', ko: '양식', required: true, width: 20 },
    { id: 'id', en: 'Id', ko: 'ID', required: true, width: 24 },
    { id: 'kind', en: 'Kind', ko: '종류', required: true, width: 18 },
    { id: 'when', en: 'When', ko: '조건', required: true, json: true, width: 50 },
    { id: 'target.visit', en: 'Target visit', ko: '대상 방문', width: 14 },
    { id: 'target.form', en: 'Target form', ko: '대상 양식', width: 18 },
    ...label('message', 'Message', '메시지', 'label'),
    { id: 'visits', en: 'Visits', ko: '방문', width: 20 },
  ],
};

export const PARAMETERS_SHEET: SheetSpec = {
  name: 'Parameters',
  ko: '매개변수',
  columns: [
    { id: 'key', en: 'Key', ko: '키', required: true, width: 24 },
    { id: 'value', en: 'Value', ko: '값', required: true, width: 12 },
    ...label('label', 'Label', '이름', 'label'),
  ],
};

export const ROLES_SHEET: SheetSpec = {
  name: 'Roles',
  ko: '역할',
  columns: [
    { id: 'role', en: 'Role', ko: '역할', required: true, width: 22 },
    { id: 'field', en: 'Field', ko: '필드', required: true, width: 22 },
    { id: 'value', en: 'Value', ko: '값', required: true, width: 40 },
  ],
};

/** The sheets in the order they are written (after the README). */
export const DEFINITION_SHEETS: SheetSpec[] = [
  STUDY_SHEET,
  VISITS_SHEET,
  FORMS_SHEET,
  ITEMS_SHEET,
  CODE_LISTS_SHEET,
  CHECKS_SHEET,
  OUTCOMES_SHEET,
  PARAMETERS_SHEET,
  ROLES_SHEET,
];

export const README_SHEET_NAME = 'README';

/** Header names compared without case, spaces or punctuation ("Label (ko)" = "label ko" = "LABELKO"). */
export function normalizedHeader(name: string): string {
  return name.toLowerCase().replace(/[\s()\-_.:/?!*]/g, '');
}

/** Separator of lists in a cell (visit keys, form keys): commas, spaces or both. */
export function splitList(text: string): string[] {
  return text.split(/[\s,;]+/).filter((part) => part !== '');
}

/** The instructions sheet, in Korean then English: one paragraph a row. */
export const README_LINES: string[] = [
  'CDMS 시험 정의 통합 문서 / CDMS study definition workbook',
  '',
  '한국어: 시트마다 첫 행은 머리글입니다. 머리글의 순서는 바꿔도 되지만 이름은 그대로 두세요. 한 행이 방문 하나, 양식 하나, 항목 하나, 코드 하나, 검사 하나입니다. 조건과 계산식(Show when, Derivation, Fails when…)은 JSON 식으로 씁니다. 목록(방문, 양식)은 쉼표로 구분합니다. 참/거짓 칸은 TRUE 또는 FALSE입니다. 자세한 설명은 docs/workbook-layout.md에 있습니다.',
  '',
  'English: the first row of every sheet is its header. Columns may be reordered but keep their names. One row is one visit, form, item, code or check. Conditions and computations (Show when, Derivation, Fails when…) are JSON expressions. Lists (visits, forms) are separated by commas. Yes/no cells are TRUE or FALSE. The full description is docs/workbook-layout.md.',
  '',
  'Study: Field / Value rows — Key, Version, Label (ko), Label (en), Visit date form, Visit date item, Status … when.',
  'Visits: one row per visit in order; Forms lists the visit’s forms in order; one row with Unscheduled = TRUE describes the unscheduled visit.',
  'Forms: one row per form in order (Visits and Variants columns are for information only).',
  'Items: one row per item in order; rows of the same Form, Variant visits and Section make one section; a row without Item declares an empty section.',
  'Code lists: one row per code. Checks, Outcomes: one row each. Parameters: Key, Value (a number cell is a number). Roles: Role, Field, Value.',
];
