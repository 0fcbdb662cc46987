import type { Language, LocalizedText } from '../model/localized-text.ts';
import type { StudyDefinition } from '../model/study-definition.ts';
import type {
  AmendmentChange,
  AmendmentChangeSet,
  AmendmentQuestion,
  AmendmentRefusal,
} from './change-set.ts';

// An amendment's change set in words, one language: what the amendment page lists before publish.
// Each line names the element it is about as the designer's review comments do (`form:VS/item:PULSE`),
// so a page can link it to the designer. Elements are named by label and key: "Vital signs (VS)".
// The Korean avoids particles after a name (a name may end in any sound): "양식 활력 징후 (VS): 삭제됨".

export interface ChangeLine {
  kind: AmendmentChange['kind'];
  element: string;
  text: string;
}

/** A question with its element and words; a code mapping's with `nextCodes`, the next list's codes to map onto. */
export type QuestionLine = (
  | Exclude<AmendmentQuestion, { code: 'codesNeedMapping' }>
  | (Extract<AmendmentQuestion, { code: 'codesNeedMapping' }> & { nextCodes: string[] })
) & { element: string; text: string };

export interface RefusalLine {
  code: AmendmentRefusal['code'];
  element: string;
  text: string;
}

export interface DescribedChangeSet {
  changes: ChangeLine[];
  questions: QuestionLine[];
  refusals: RefusalLine[];
}

type Words = Record<string, LocalizedText>;

const NAMES = {
  visit: { ko: '방문', en: 'Visit' },
  form: { ko: '양식', en: 'Form' },
  item: { ko: '항목', en: 'item' },
  codeList: { ko: '코드 목록', en: 'Code list' },
  check: { ko: '검사', en: 'edit check' },
  unscheduled: { ko: '비정기 방문', en: 'the unscheduled visit' },
} satisfies Words;

const CHANGES = {
  visitRemoved: {
    ko: '삭제됨: 이 방문의 자료는 보존되고 입력에서 숨겨집니다',
    en: 'removed: its data is retired (kept, hidden from entry)',
  },
  formRemovedFromVisit: {
    ko: '이 방문에서 빠짐: 그곳의 자료는 보존되고 입력에서 숨겨집니다',
    en: 'no longer at this visit: its data there is retired (kept, hidden from entry)',
  },
  formAdded: { ko: '추가됨', en: 'added' },
  formRetired: {
    ko: '삭제됨: 자료는 보존되고 입력에서 숨겨집니다',
    en: 'removed: its data is retired (kept, hidden from entry)',
  },
  renamed: { ko: '새 키 {to}: 값이 함께 옮겨집니다', en: 'renamed {to}: its values move with it' },
  itemAdded: { ko: '추가됨', en: 'added' },
  itemRetired: {
    ko: '삭제됨: 값은 보존되고 입력에서 숨겨집니다',
    en: 'removed: its values are retired (kept, hidden from entry)',
  },
  itemTypeChanged: {
    ko: '유형 {from} → {to}: 저장된 값을 변환합니다',
    en: 'type {from} → {to}: stored values are converted',
  },
  itemReevaluated: {
    ko: '{fields} 바뀜: 쿼리와 상태를 다시 평가합니다',
    en: '{fields} changed: queries and statuses are evaluated again',
  },
  derivationChanged: {
    ko: '계산식 바뀜: 저장된 계산값을 다시 계산합니다',
    en: 'derivation changed: stored derived values are computed again',
  },
  checkAdded: { ko: '추가됨: 저장된 자료에 적용합니다', en: 'added: applied to stored data' },
  checkRemoved: { ko: '삭제됨: 이 검사의 쿼리는 닫힙니다', en: 'removed: its queries close' },
  checkChanged: { ko: '바뀜: 저장된 자료에 다시 적용합니다', en: 'changed: applied again to stored data' },
  codesRecoded: {
    ko: '코드 변경 {map}: 이 목록을 쓰는 항목 {count}개의 값이 바뀝니다',
    en: 'codes re-coded {map}: the values of the {count} items using the list change',
  },
  codesRemoved: { ko: '코드 {codes} 삭제됨', en: 'codes {codes} removed' },
} satisfies Words;

const QUESTIONS = {
  formRenameOrReplace: {
    ko: '{removed} 삭제, {added} 추가: 이름만 바꾼 것(자료가 옮겨짐)인지, 다른 양식으로 바꾼 것(자료는 보존되고 숨겨짐)인지 정하세요.',
    en: '{removed} removed and {added} added: declare a rename (the data moves) or a replacement (the data is retired).',
  },
  itemRenameOrReplace: {
    ko: '{removed} 삭제, {added} 추가: 이름만 바꾼 것(값이 옮겨짐)인지, 다른 항목으로 바꾼 것(값은 보존되고 숨겨짐)인지 정하세요.',
    en: '{removed} removed and {added} added: declare a rename (the values move) or a replacement (the values are retired).',
  },
  codesNeedMapping: {
    ko: '코드 {codes} 삭제됨: 저장된 값마다 새 목록의 코드를 정하세요.',
    en: 'codes {codes} removed: map each to a code of the new list for the stored values.',
  },
  conversionNeeded: {
    ko: '유형 {from} → {to}: 저장된 값의 변환을 선언하세요.',
    en: 'type {from} → {to}: declare the conversion of the stored values.',
  },
} satisfies Record<AmendmentQuestion['code'], LocalizedText>;

const REFUSALS = {
  unknownForm: { ko: '이 버전에 없는 양식입니다.', en: 'the live version has no such form.' },
  unknownItem: { ko: '이 양식에 없는 항목입니다.', en: 'the live form has no such item.' },
  unknownCodeList: { ko: '이 버전에 없는 코드 목록입니다.', en: 'the live version has no such code list.' },
  unknownCode: { ko: '운영 중인 목록에 없는 코드: {choice}.', en: 'code {choice} is not in the live list.' },
  unknownTargetCode: { ko: '새 목록에 없는 코드: {choice}.', en: 'code {choice} is not in the new list.' },
  duplicateRename: { ko: '이름 바꾸기가 두 번 선언됨: {key}.', en: '{key} is renamed twice.' },
  renameTargetExists: {
    ko: '{from} → {to}: 운영 중인 버전에 이미 있는 키입니다.',
    en: '{from} → {to}: the live version already has {to}.',
  },
  renameTargetMissing: {
    ko: '{from} → {to}: 새 버전에 없는 키입니다.',
    en: '{from} → {to}: the new version has no {to}.',
  },
  renameSourceKept: {
    ko: '{from} → {to}: 새 버전에 원래 키도 남아 있습니다.',
    en: '{from} → {to}: the new version still has {from}.',
  },
  impossibleConversion: {
    ko: '유형 {from} → {to}: 저장된 값을 변환할 수 없습니다. 새 항목을 추가하세요.',
    en: 'type {from} → {to}: stored values cannot be converted; add a new item instead.',
  },
  conversionMismatch: {
    ko: '선언한 변환({declared})이 새 버전의 유형과 다릅니다: {to}.',
    en: 'the conversion declared ({declared}) is not the new type ({to}).',
  },
  conversionOfRetiredItem: {
    ko: '새 버전에서 삭제되는 항목의 변환입니다.',
    en: 'a conversion of an item the new version removes.',
  },
  groupChanged: {
    ko: '반복 그룹 {from} → {to}: 반복 그룹을 옮기는 변경은 지원하지 않습니다.',
    en: 'moved between repeating groups ({from} → {to}): not supported.',
  },
  codeListSwitched: {
    ko: '코드 목록 {from} → {to}: 새 목록에 없는 저장 코드: {codes}.',
    en: 'code list {from} → {to}: the new list lacks stored codes {codes}.',
  },
  unknownReplacement: {
    ko: '{removed} → {added}: 삭제되고 추가된 한 쌍이 아닙니다.',
    en: '{removed} → {added}: not a removed and added pair.',
  },
} satisfies Record<AmendmentRefusal['code'], LocalizedText>;

const FIELDS: Words = {
  min: { ko: '최솟값', en: 'min' },
  max: { ko: '최댓값', en: 'max' },
  hardMin: { ko: '절대 최솟값', en: 'hard min' },
  hardMax: { ko: '절대 최댓값', en: 'hard max' },
  decimals: { ko: '소수 자릿수', en: 'decimals' },
  maxLength: { ko: '최대 길이', en: 'max length' },
  pattern: { ko: '형식', en: 'pattern' },
  required: { ko: '필수', en: 'required' },
  requiredWhen: { ko: '필수 조건', en: 'required when' },
  showWhen: { ko: '표시 조건', en: 'shown when' },
  notFuture: { ko: '미래 날짜 금지', en: 'no future date' },
};

/** `template` with `{name}` replaced by the values. */
function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(values, name) ? String(values[name]) : whole,
  );
}

/** The names of a definition's elements by label and key, the next version first. */
function namer(live: StudyDefinition, next: StudyDefinition, language: Language) {
  const label = (text: LocalizedText | undefined, key: string) =>
    text ? `${text[language] || text.en || text.ko} (${key})` : key;
  const findForm = (key: string) =>
    next.forms.find((form) => form.key === key) ?? live.forms.find((form) => form.key === key);
  const itemLabel = (formKey: string, itemKey: string): LocalizedText | undefined => {
    for (const definition of [next, live]) {
      const form = definition.forms.find((entry) => entry.key === formKey);
      for (const sections of [form?.sections ?? [], ...(form?.variants ?? []).map((v) => v.sections)])
        for (const section of sections)
          for (const item of section.items) if (item.key === itemKey) return item.label;
    }
    return undefined;
  };
  const visit = (key: string) => {
    if (key === 'unscheduled-') return NAMES.unscheduled[language];
    const found =
      next.visits.find((entry) => entry.key === key) ?? live.visits.find((entry) => entry.key === key);
    return `${NAMES.visit[language]} ${label(found?.label, key)}`;
  };
  const form = (key: string) => `${NAMES.form[language]} ${label(findForm(key)?.label, key)}`;
  const item = (formKey: string, itemKey: string) =>
    `${form(formKey)} › ${NAMES.item[language]} ${label(itemLabel(formKey, itemKey), itemKey)}`;
  const codeList = (key: string) => `${NAMES.codeList[language]} ${key}`;
  return { visit, form, item, codeList };
}

const itemElement = (form: string, item: string) => `form:${form}/item:${item}`;

/**
 * The change set in words, in `language`: each change, question and refusal with the element it is
 * about. `live` and `next` give the labels (a removed element's from the live version).
 */
export function describeChangeSet(
  set: Pick<AmendmentChangeSet, 'changes' | 'questions' | 'refusals'>,
  live: StudyDefinition,
  next: StudyDefinition,
  language: Language,
): DescribedChangeSet {
  const name = namer(live, next, language);
  const say = (words: LocalizedText, values: Record<string, string | number> = {}) =>
    fill(words[language], values);
  const list = (values: readonly string[]) => values.join(', ');

  function changeLine(change: AmendmentChange): ChangeLine {
    const line = (element: string, subject: string, text: string) => ({
      kind: change.kind,
      element,
      text: `${subject}: ${text}`,
    });
    switch (change.kind) {
      case 'visitRemoved':
        return line(`visit:${change.visit}`, name.visit(change.visit), say(CHANGES.visitRemoved));
      case 'formRemovedFromVisit':
        return line(
          `form:${change.form}`,
          `${name.visit(change.visit)} › ${name.form(change.form)}`,
          say(CHANGES.formRemovedFromVisit),
        );
      case 'formAdded':
        return line(`form:${change.form}`, name.form(change.form), say(CHANGES.formAdded));
      case 'formRetired':
        return line(`form:${change.form}`, name.form(change.form), say(CHANGES.formRetired));
      case 'formRenamed':
        return line(`form:${change.to}`, name.form(change.from), say(CHANGES.renamed, { to: change.to }));
      case 'itemAdded':
        return line(
          itemElement(change.form, change.item),
          name.item(change.form, change.item),
          say(CHANGES.itemAdded),
        );
      case 'itemRetired':
        return line(
          itemElement(change.form, change.item),
          name.item(change.form, change.item),
          say(CHANGES.itemRetired),
        );
      case 'itemRenamed':
        return line(
          itemElement(change.form, change.to),
          name.item(change.form, change.from),
          say(CHANGES.renamed, { to: change.to }),
        );
      case 'itemTypeChanged':
        return line(
          itemElement(change.form, change.item),
          name.item(change.form, change.item),
          say(CHANGES.itemTypeChanged, { from: change.from, to: change.to }),
        );
      case 'itemReevaluated':
        return line(
          itemElement(change.form, change.item),
          name.item(change.form, change.item),
          say(CHANGES.itemReevaluated, {
            fields: list(change.fields.map((field) => FIELDS[field]?.[language] ?? field)),
          }),
        );
      case 'derivationChanged':
        return line(
          itemElement(change.form, change.item),
          name.item(change.form, change.item),
          say(CHANGES.derivationChanged),
        );
      case 'checkChanged': {
        const words =
          change.change === 'added'
            ? CHANGES.checkAdded
            : change.change === 'removed'
              ? CHANGES.checkRemoved
              : CHANGES.checkChanged;
        return line(
          `form:${change.form}`,
          `${name.form(change.form)} › ${NAMES.check[language]} ${change.check}`,
          say(words),
        );
      }
      case 'codesRecoded':
        return line(
          `codeList:${change.codeList}`,
          name.codeList(change.codeList),
          say(CHANGES.codesRecoded, {
            map: list(Object.entries(change.map).map(([from, to]) => `${from} → ${to}`)),
            count: change.items.length,
          }),
        );
      case 'codesRemoved':
        return line(
          `codeList:${change.codeList}`,
          name.codeList(change.codeList),
          say(CHANGES.codesRemoved, { codes: list(change.codes) }),
        );
    }
  }

  function questionLine(question: AmendmentQuestion): QuestionLine {
    switch (question.code) {
      case 'formRenameOrReplace':
        return {
          ...question,
          element: `form:${question.added}`,
          text: say(QUESTIONS.formRenameOrReplace, {
            removed: name.form(question.removed),
            added: name.form(question.added),
          }),
        };
      case 'itemRenameOrReplace':
        return {
          ...question,
          element: itemElement(question.form, question.added),
          text: `${name.form(question.form)}: ${say(QUESTIONS.itemRenameOrReplace, {
            removed: `${NAMES.item[language]} ${question.removed}`,
            added: `${NAMES.item[language]} ${question.added}`,
          })}`,
        };
      case 'codesNeedMapping':
        return {
          ...question,
          element: `codeList:${question.codeList}`,
          nextCodes: (next.codeLists.find((entry) => entry.key === question.codeList)?.codes ?? []).map(
            (code) => code.code,
          ),
          text: `${name.codeList(question.codeList)}: ${say(QUESTIONS.codesNeedMapping, {
            codes: list(question.codes),
          })}`,
        };
      case 'conversionNeeded':
        return {
          ...question,
          element: itemElement(question.form, question.item),
          text: `${name.item(question.form, question.item)}: ${say(QUESTIONS.conversionNeeded, {
            from: question.from,
            to: question.to,
          })}`,
        };
    }
  }

  const changes = set.changes.map(changeLine);
  const questions = set.questions.map(questionLine);
  const refusals = set.refusals.map((refusal): RefusalLine => {
    const { code } = refusal;
    const values: Record<string, string> = {};
    for (const [key, value] of Object.entries(refusal))
      if (key !== 'code') values[key] = Array.isArray(value) ? list(value as string[]) : String(value ?? '—');
    const form = 'form' in refusal ? refusal.form : undefined;
    const item = 'item' in refusal ? refusal.item : undefined;
    const codeList = 'codeList' in refusal ? refusal.codeList : undefined;
    const element =
      form && item
        ? itemElement(form, item)
        : form
          ? `form:${form}`
          : codeList
            ? `codeList:${codeList}`
            : 'study';
    const subject =
      form && item ? name.item(form, item) : form ? name.form(form) : codeList ? name.codeList(codeList) : '';
    const text = say(REFUSALS[code], values);
    return { code, element, text: subject ? `${subject}: ${text}` : text };
  });

  return { changes, questions, refusals };
}
