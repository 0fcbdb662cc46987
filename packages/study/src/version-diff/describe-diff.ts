import type { Language, LocalizedText } from '../model/localized-text.ts';
import { type FieldChange, isExpressionObject, isLocalizedText, isPlainObject } from './compare-values.ts';
import type { CollectionDiff, DefinitionDiff, ElementChange, LayoutDiff, Move } from './diff-definitions.ts';

// A diff as lines a reader reads top to bottom, in one language: what the page lists and the PDF prints.
// The order follows the definition: the study's fields, visits, the unscheduled visit, code lists, forms
// (each: its fields, sections, items, checks, outcomes, variants); in each collection the added elements
// come first, then the removed ones, then the changed ones, each in document order.

export type DiffLineKind = 'added' | 'removed' | 'changed' | 'moved';

export interface DiffLine {
  /** Where the line is about, as keys (`forms/vitalSigns/items/pulse/unit`): a page links or groups by it. */
  path: string;
  kind: DiffLineKind;
  /** "Form Vital signs › item Pulse: unit bpm → /min". */
  text: string;
}

const WORDS = {
  study: { ko: '시험', en: 'Study' },
  visit: { ko: '방문', en: 'Visit' },
  unscheduledVisit: { ko: '비정기 방문', en: 'Unscheduled visit' },
  codeList: { ko: '코드 목록', en: 'Code list' },
  code: { ko: '코드', en: 'code' },
  form: { ko: '양식', en: 'Form' },
  formInVisit: { ko: '양식', en: 'form' },
  section: { ko: '섹션', en: 'section' },
  item: { ko: '항목', en: 'item' },
  check: { ko: '검사', en: 'check' },
  outcome: { ko: '결과', en: 'outcome' },
  variant: { ko: '변형', en: 'variant' },
  added: { ko: '추가됨', en: 'added' },
  removed: { ko: '삭제됨', en: 'removed' },
  addedToVisit: { ko: '방문에 추가됨', en: 'added to the visit' },
  removedFromVisit: { ko: '방문에서 빠짐', en: 'removed from the visit' },
  movedInVisit: { ko: '방문 안의 순서 바뀜', en: 'moved within the visit' },
  order: { ko: '순서', en: 'order' },
  yes: { ko: '예', en: 'yes' },
  no: { ko: '아니요', en: 'no' },
} satisfies Record<string, LocalizedText>;

/**
 * The names of the model's fields, for a reader; a field not listed (one the model gains later, a
 * parameter's or a role's name) shows as its key.
 */
const FIELD_NAMES: Record<string, LocalizedText> = {
  key: { ko: '키', en: 'key' },
  version: { ko: '버전', en: 'version' },
  label: { ko: '이름', en: 'label' },
  help: { ko: '도움말', en: 'help' },
  type: { ko: '유형', en: 'type' },
  unit: { ko: '단위', en: 'unit' },
  decimals: { ko: '소수 자릿수', en: 'decimals' },
  min: { ko: '최솟값', en: 'min' },
  max: { ko: '최댓값', en: 'max' },
  rangeSeverity: { ko: '범위 심각도', en: 'range severity' },
  hardMin: { ko: '절대 최솟값', en: 'hard min' },
  hardMax: { ko: '절대 최댓값', en: 'hard max' },
  maxLength: { ko: '최대 길이', en: 'max length' },
  pattern: { ko: '형식(정규식)', en: 'pattern' },
  required: { ko: '필수', en: 'required' },
  requiredWhen: { ko: '필수 조건', en: 'required when' },
  showWhen: { ko: '표시 조건', en: 'shown when' },
  readOnly: { ko: '읽기 전용', en: 'read-only' },
  derive: { ko: '계산식', en: 'derivation' },
  codeList: { ko: '코드 목록', en: 'code list' },
  display: { ko: '표시 방식', en: 'display' },
  notFuture: { ko: '미래 날짜 불가', en: 'not in the future' },
  critical: { ko: '핵심 항목', en: 'critical' },
  personalData: { ko: '개인 식별 정보', en: 'personal data' },
  notDoneItem: { ko: '미시행 항목', en: 'not-done item' },
  repeating: { ko: '반복 그룹', en: 'repeating group' },
  rowsRequired: { ko: '행 필수', en: 'rows required' },
  maxRows: { ko: '최대 행 수', en: 'max rows' },
  group: { ko: '방문 그룹', en: 'group' },
  window: { ko: '방문 허용 기간', en: 'window' },
  anchorVisit: { ko: '기준 방문', en: 'anchor visit' },
  offsetDays: { ko: '기준일부터 일수', en: 'offset days' },
  minusDays: { ko: '앞 허용 일수', en: 'days before' },
  plusDays: { ko: '뒤 허용 일수', en: 'days after' },
  forms: { ko: '양식', en: 'forms' },
  item: { ko: '항목', en: 'item' },
  when: { ko: '조건', en: 'when' },
  severity: { ko: '심각도', en: 'severity' },
  message: { ko: '메시지', en: 'message' },
  visits: { ko: '방문', en: 'visits' },
  kind: { ko: '종류', en: 'kind' },
  target: { ko: '대상', en: 'target' },
  visitDate: { ko: '방문일 항목', en: 'visit date' },
  parameters: { ko: '매개변수', en: 'parameters' },
  value: { ko: '값', en: 'value' },
  subjectStatus: { ko: '대상자 상태 규칙', en: 'status rules' },
  roles: { ko: '역할', en: 'roles' },
};

export function describeDiff(diff: DefinitionDiff, language: Language): DiffLine[] {
  const say = (text: LocalizedText) => text[language];
  const lines: DiffLine[] = [];
  const line = (path: string, kind: DiffLineKind, where: string, what: string) =>
    lines.push({ path, kind, text: `${where}: ${what}` });

  const fieldLines = (path: string, where: string, fields: FieldChange[]) => {
    for (const change of fields)
      line(
        `${path}/${change.field.replaceAll('.', '/')}`,
        'changed',
        where,
        `${fieldName(change.field, language)} ${formatValue(change.before, language)} → ${formatValue(change.after, language)}`,
      );
  };
  /** A kept element that changed place among its siblings (items say their sections themselves). */
  const orderLine = (path: string, where: string, move: Move | undefined) => {
    if (move) line(path, 'moved', where, `${say(WORDS.order)} ${move.from} → ${move.to}`);
  };
  /** Added, removed and changed elements of one collection; `name` says an element as "item Pulse". */
  const collectionLines = <T, C extends ElementChange<T>>(
    path: string,
    parent: string,
    diff: CollectionDiff<T, C>,
    keyOf: (element: T) => string,
    name: (element: T) => string,
    addedNote: (element: T) => string = () => '',
    within?: (change: C, path: string, where: string) => void,
  ) => {
    const where = (element: T) => (parent ? `${parent} › ${name(element)}` : name(element));
    for (const element of diff.added)
      line(`${path}/${keyOf(element)}`, 'added', where(element), `${say(WORDS.added)}${addedNote(element)}`);
    for (const element of diff.removed)
      line(`${path}/${keyOf(element)}`, 'removed', where(element), say(WORDS.removed));
    for (const change of diff.changed) {
      const elementPath = `${path}/${change.key}`;
      orderLine(elementPath, where(change.after), change.moved);
      fieldLines(elementPath, where(change.after), change.fields);
      within?.(change, elementPath, where(change.after));
    }
  };
  const layoutLines = (path: string, where: string, layout: LayoutDiff) => {
    collectionLines(
      `${path}/sections`,
      where,
      layout.sections,
      (section) => section.key,
      (section) => `${say(WORDS.section)} ${say(section.label)}`,
    );
    const items = layout.items;
    const itemName = (entry: { item: { label: LocalizedText } }) =>
      `${say(WORDS.item)} ${say(entry.item.label)}`;
    const inSection = (entry: { sectionLabel: LocalizedText }) =>
      ` (${say(WORDS.section)} ${say(entry.sectionLabel)})`;
    for (const entry of items.added)
      line(
        `${path}/items/${entry.item.key}`,
        'added',
        `${where} › ${itemName(entry)}`,
        `${say(WORDS.added)}${inSection(entry)}`,
      );
    for (const entry of items.removed)
      line(`${path}/items/${entry.item.key}`, 'removed', `${where} › ${itemName(entry)}`, say(WORDS.removed));
    for (const change of items.changed) {
      const itemPath = `${path}/items/${change.key}`;
      const itemWhere = `${where} › ${itemName(change.after)}`;
      if (change.before.section !== change.after.section) {
        const from = `${say(WORDS.section)} ${say(change.before.sectionLabel)}`;
        const to = `${say(WORDS.section)} ${say(change.after.sectionLabel)}`;
        const what = language === 'ko' ? `${from} → ${to} 이동` : `moved from ${from} to ${to}`;
        line(itemPath, 'moved', itemWhere, what);
      } else orderLine(itemPath, itemWhere, change.moved);
      fieldLines(itemPath, itemWhere, change.fields);
    }
  };

  fieldLines('study', say(WORDS.study), diff.study);
  collectionLines(
    'visits',
    '',
    diff.visits,
    (visit) => visit.key,
    (visit) => `${say(WORDS.visit)} ${say(visit.label)}`,
    () => '',
    (change, path, where) => {
      const formName = (key: string) => {
        const label = diff.formLabels[key];
        return `${say(WORDS.formInVisit)} ${label ? say(label) : key}`;
      };
      for (const key of change.forms.added)
        line(`${path}/forms/${key}`, 'added', `${where} › ${formName(key)}`, say(WORDS.addedToVisit));
      for (const key of change.forms.removed)
        line(`${path}/forms/${key}`, 'removed', `${where} › ${formName(key)}`, say(WORDS.removedFromVisit));
      for (const key of change.forms.moved)
        line(`${path}/forms/${key}`, 'moved', `${where} › ${formName(key)}`, say(WORDS.movedInVisit));
    },
  );
  fieldLines('unscheduledVisit', say(WORDS.unscheduledVisit), diff.unscheduledVisit);
  collectionLines(
    'codeLists',
    '',
    diff.codeLists,
    (list) => list.key,
    (list) => `${say(WORDS.codeList)} ${list.key}`,
    () => '',
    (change, path, where) =>
      collectionLines(
        `${path}/codes`,
        where,
        change.codes,
        (code) => code.code,
        (code) => `${say(WORDS.code)} ${code.code} (${say(code.label)})`,
      ),
  );
  collectionLines(
    'forms',
    '',
    diff.forms,
    (form) => form.key,
    (form) => `${say(WORDS.form)} ${say(form.label)}`,
    () => '',
    (change, path, where) => {
      layoutLines(path, where, change.layout);
      collectionLines(
        `${path}/checks`,
        where,
        change.checks,
        (check) => check.id,
        (check) => `${say(WORDS.check)} ${check.id}`,
      );
      collectionLines(
        `${path}/outcomes`,
        where,
        change.outcomes,
        (outcome) => outcome.id,
        (outcome) => `${say(WORDS.outcome)} ${outcome.id}`,
      );
      collectionLines(
        `${path}/variants`,
        where,
        change.variants,
        (variant) => variant.visits.join('+'),
        (variant) => `${say(WORDS.variant)} (${say(WORDS.visit)} ${variant.visits.join(', ')})`,
        () => '',
        (variant, variantPath, variantWhere) => layoutLines(variantPath, variantWhere, variant.layout),
      );
    },
  );
  return lines;
}

/** A field's name in the language, each part of `window.plusDays` named on its own. */
function fieldName(field: string, language: Language): string {
  return field
    .split('.')
    .map((part) => FIELD_NAMES[part]?.[language] ?? part)
    .join(' › ');
}

/**
 * A value as a reader reads it: "—" for none, yes/no in the language, a label as "ko / en", a list of
 * keys joined with commas, an object of fields (a window, a role, a parameter that came or went) as
 * "name value · name value", an expression (for now) and anything else as compact JSON.
 */
export function formatValue(value: unknown, language: Language): string {
  if (value === undefined || value === null) return '—';
  if (typeof value === 'boolean') return (value ? WORDS.yes : WORDS.no)[language];
  if (typeof value === 'string') return value === '' ? '""' : value;
  if (typeof value === 'number') return String(value);
  if (isLocalizedText(value)) return `${value.ko} / ${value.en}`;
  if (Array.isArray(value) && value.every((entry) => typeof entry === 'string' || typeof entry === 'number'))
    return value.join(', ');
  if (isPlainObject(value) && !isExpressionObject(value))
    return Object.entries(value)
      .filter(([, entry]) => entry !== undefined)
      .map(([field, entry]) => `${fieldName(field, language)} ${formatValue(entry, language)}`)
      .join(' · ');
  return JSON.stringify(value);
}
