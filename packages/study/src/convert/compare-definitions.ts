import type { FormDefinition, ItemDefinition, StudyDefinition } from '../model/study-definition.ts';
import { sameValue } from '../version-diff/compare-values.ts';

/**
 * What an imported definition would change in the current one, for the import's preview: visits,
 * forms, code lists and items added or removed, and items whose meaning changes (type, label, code
 * list, requirement, logic, range). An import never drops or renames anything without this list.
 */

export type ItemChange =
  | 'type'
  | 'label'
  | 'codeList'
  | 'required'
  | 'showWhen'
  | 'derive'
  | 'range'
  | 'unit';

export interface DefinitionComparison {
  visits: { added: string[]; removed: string[] };
  forms: { added: string[]; removed: string[] };
  codeLists: { added: string[]; removed: string[]; changed: string[] };
  /** Items as `form.item` (a repeated key counted once per form). */
  items: { added: string[]; removed: string[]; changed: { item: string; changes: ItemChange[] }[] };
}

function itemsOf(form: FormDefinition): Map<string, ItemDefinition> {
  const items = new Map<string, ItemDefinition>();
  for (const section of [...form.sections, ...(form.variants ?? []).flatMap((variant) => variant.sections)])
    for (const item of section.items) if (!items.has(item.key)) items.set(item.key, item);
  return items;
}

function keysAddedAndRemoved(before: Iterable<string>, after: Iterable<string>) {
  const old = new Set(before);
  const now = new Set(after);
  return { added: [...now].filter((key) => !old.has(key)), removed: [...old].filter((key) => !now.has(key)) };
}

function itemChanges(before: ItemDefinition, after: ItemDefinition): ItemChange[] {
  const changes: ItemChange[] = [];
  if (before.type !== after.type) changes.push('type');
  if (!sameValue(before.label, after.label)) changes.push('label');
  if (before.codeList !== after.codeList) changes.push('codeList');
  if (
    Boolean(before.required) !== Boolean(after.required) ||
    !sameValue(before.requiredWhen, after.requiredWhen)
  )
    changes.push('required');
  if (!sameValue(before.showWhen, after.showWhen)) changes.push('showWhen');
  if (!sameValue(before.derive, after.derive)) changes.push('derive');
  const range = (item: ItemDefinition) => [item.min, item.max, item.hardMin, item.hardMax, item.decimals];
  if (!sameValue(range(before), range(after))) changes.push('range');
  if (before.unit !== after.unit) changes.push('unit');
  return changes;
}

export function compareDefinitions(
  before: StudyDefinition | null,
  after: StudyDefinition,
): DefinitionComparison {
  const oldForms = new Map((before?.forms ?? []).map((form) => [form.key, form]));
  const items: DefinitionComparison['items'] = { added: [], removed: [], changed: [] };
  for (const form of after.forms) {
    const now = itemsOf(form);
    const old = oldForms.get(form.key);
    const then = old ? itemsOf(old) : new Map<string, ItemDefinition>();
    for (const [key, item] of now) {
      const previous = then.get(key);
      if (!previous) items.added.push(`${form.key}.${key}`);
      else {
        const changes = itemChanges(previous, item);
        if (changes.length > 0) items.changed.push({ item: `${form.key}.${key}`, changes });
      }
    }
    for (const key of then.keys()) if (!now.has(key)) items.removed.push(`${form.key}.${key}`);
  }
  const kept = new Set(after.forms.map((form) => form.key));
  for (const form of before?.forms ?? [])
    if (!kept.has(form.key)) for (const key of itemsOf(form).keys()) items.removed.push(`${form.key}.${key}`);
  const oldLists = new Map((before?.codeLists ?? []).map((list) => [list.key, list]));
  return {
    visits: keysAddedAndRemoved(
      (before?.visits ?? []).map((visit) => visit.key),
      after.visits.map((visit) => visit.key),
    ),
    forms: keysAddedAndRemoved(oldForms.keys(), kept),
    codeLists: {
      ...keysAddedAndRemoved(
        oldLists.keys(),
        after.codeLists.map((list) => list.key),
      ),
      changed: after.codeLists
        .filter((list) => oldLists.has(list.key) && !sameValue(oldLists.get(list.key)?.codes, list.codes))
        .map((list) => list.key),
    },
    items,
  };
}
