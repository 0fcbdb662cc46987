import type { Code, CodeList, StudyDefinition } from '@cdms/study';
import { move, replaceAt } from './list-edits.ts';

/**
 * The code list editor's edits, as pure functions from the study's code lists to the next ones: lists
 * added and removed, codes added, changed, moved and removed. Each gives the same lists back when
 * nothing changes. The page applies the result with the reducer's `replaceCodeLists` edit.
 */

/** A new list: the model wants at least one code, so it starts with code 1 to be named. */
export function newCodeList(key: string): CodeList {
  return { key, codes: [{ code: '1', label: { ko: '', en: '' } }] };
}

export function addCodeList(lists: CodeList[], list: CodeList): CodeList[] {
  return [...lists, list];
}

/** The items that choose from a list (a list in use is not removed: they would lose their choices). */
export function itemsUsingCodeList(definition: StudyDefinition, key: string): string[] {
  return definition.forms.flatMap((form) =>
    [form.sections, ...(form.variants ?? []).map((variant) => variant.sections)]
      .flat()
      .flatMap((section) => section.items)
      .filter((item) => item.codeList === key)
      .map((item) => `${form.key}.${item.key}`),
  );
}

export function removeCodeList(lists: CodeList[], index: number): CodeList[] {
  return lists[index] ? lists.filter((_, at) => at !== index) : lists;
}

/** A new code at the end of a list: the next number not taken, to be named. */
export function addCode(lists: CodeList[], listIndex: number): CodeList[] {
  const list = lists[listIndex];
  if (!list) return lists;
  const taken = new Set(list.codes.map((code) => code.code));
  let number = list.codes.length + 1;
  while (taken.has(String(number))) number += 1;
  return replaceAt(lists, listIndex, (current) => ({
    ...current,
    codes: [...current.codes, { code: String(number), label: { ko: '', en: '' } }],
  }));
}

export function updateCode(lists: CodeList[], listIndex: number, codeIndex: number, code: Code): CodeList[] {
  if (!lists[listIndex]?.codes[codeIndex]) return lists;
  return replaceAt(lists, listIndex, (list) => ({
    ...list,
    codes: replaceAt(list.codes, codeIndex, () => code),
  }));
}

export function moveCode(lists: CodeList[], listIndex: number, codeIndex: number, by: -1 | 1): CodeList[] {
  const list = lists[listIndex];
  if (!list) return lists;
  const codes = move(list.codes, codeIndex, codeIndex + by);
  return codes === list.codes ? lists : replaceAt(lists, listIndex, (current) => ({ ...current, codes }));
}

/** A list keeps at least one code (the model wants one). */
export function removeCode(lists: CodeList[], listIndex: number, codeIndex: number): CodeList[] {
  const list = lists[listIndex];
  if (!list || list.codes.length <= 1 || !list.codes[codeIndex]) return lists;
  return replaceAt(lists, listIndex, (current) => ({
    ...current,
    codes: current.codes.filter((_, at) => at !== codeIndex),
  }));
}
