import type {
  FormDefinition,
  ItemDefinition,
  ItemType,
  SectionDefinition,
  StudyDefinition,
} from '../model/study-definition.ts';
import { isExpressionObject, isPlainObject } from '../version-diff/compare-values.ts';
import { diffDefinitions, type ElementChange, type PlacedItem } from '../version-diff/diff-definitions.ts';
import { conversionKind } from './conversions.ts';
import type { AmendmentDeclarations, FormRename, ItemRename } from './declarations.ts';

// The change set of an amendment (issue 49 item 2): what publishing `next` over the `live` version does to
// the data already stored, with what the data manager declared. The diff itself is version-diff's
// (`diffDefinitions`), taken after the declared renames are applied to the live version, so a renamed
// item reads as the same item; item identity is form key + item key across all layouts of a form (the
// default sections and every visit variant). Alongside the changes: the questions still to be declared
// before publish, the declarations refused, and the plan `migrateFormValues` moves stored values by.

/** A form's item as the data knows it: its definition (first layout that has it) and its repeating group. */
interface IndexedItem {
  item: ItemDefinition;
  /** The key of the repeating group whose rows hold it; absent for an item stored at the form's top. */
  group?: string;
}

export type AmendmentChange =
  | { kind: 'visitRemoved'; visit: string }
  | { kind: 'formRemovedFromVisit'; visit: string; form: string }
  | { kind: 'formAdded'; form: string }
  | { kind: 'formRetired'; form: string }
  | { kind: 'formRenamed'; from: string; to: string }
  | { kind: 'itemAdded'; form: string; item: string }
  | { kind: 'itemRetired'; form: string; item: string }
  | { kind: 'itemRenamed'; form: string; from: string; to: string }
  | {
      kind: 'itemTypeChanged';
      form: string;
      item: string;
      from: ItemType;
      to: ItemType;
      conversion: 'widening' | 'declared';
    }
  | { kind: 'itemReevaluated'; form: string; item: string; fields: string[] }
  | { kind: 'derivationChanged'; form: string; item: string }
  | { kind: 'checkChanged'; form: string; check: string; change: 'added' | 'removed' | 'changed' }
  | { kind: 'codesRecoded'; codeList: string; map: Record<string, string>; items: ItemRef[] }
  | { kind: 'codesRemoved'; codeList: string; codes: string[]; items: ItemRef[] };
export type AmendmentChangeKind = AmendmentChange['kind'];

/** An item named by form and item key. */
export interface ItemRef {
  form: string;
  item: string;
}

/** What must still be declared before publish; keys name the live version unless the field says `added`. */
export type AmendmentQuestion =
  | { code: 'formRenameOrReplace'; removed: string; added: string }
  | { code: 'itemRenameOrReplace'; form: string; removed: string; added: string }
  | { code: 'codesNeedMapping'; codeList: string; codes: string[]; items: ItemRef[] }
  | { code: 'conversionNeeded'; form: string; item: string; from: ItemType; to: ItemType };
export type AmendmentQuestionCode = AmendmentQuestion['code'];

/** What cannot be published as declared (a declaration naming what does not exist, an impossible change). */
export type AmendmentRefusal =
  | { code: 'unknownForm'; form: string }
  | { code: 'unknownItem'; form: string; item: string }
  | { code: 'unknownCodeList'; codeList: string }
  | { code: 'unknownCode'; codeList: string; choice: string }
  | { code: 'unknownTargetCode'; codeList: string; choice: string }
  | { code: 'duplicateRename'; form?: string; key: string }
  | { code: 'renameTargetExists'; form?: string; from: string; to: string }
  | { code: 'renameTargetMissing'; form?: string; from: string; to: string }
  | { code: 'renameSourceKept'; form?: string; from: string; to: string }
  | { code: 'impossibleConversion'; form: string; item: string; from: ItemType; to: ItemType }
  | {
      code: 'conversionMismatch';
      form: string;
      item: string;
      declared: ItemType;
      from: ItemType;
      to: ItemType;
    }
  | { code: 'conversionOfRetiredItem'; form: string; item: string }
  | { code: 'groupChanged'; form: string; item: string; from: string | null; to: string | null }
  | { code: 'codeListSwitched'; form: string; item: string; from: string; to: string; codes: string[] }
  | { code: 'unknownReplacement'; form?: string; removed: string; added: string };
export type AmendmentRefusalCode = AmendmentRefusal['code'];

/** How one live item's stored values move: JSON, so a server may keep it with the migration job. */
export interface ItemPlan {
  /** Its key in the next version; null when it is retired. */
  to: string | null;
  /** The live repeating group whose rows hold it. */
  group?: string;
  /** A type change: the live and next types. */
  convert?: { from: ItemType; to: ItemType };
  /** Old code → new code of the item's code list. */
  codes?: Record<string, string>;
}

export interface FormPlan {
  /** Its key in the next version; null when it is retired. */
  to: string | null;
  /** Every live item of the form (across layouts), by live key. */
  items: Record<string, ItemPlan>;
  /** The live repeating groups: whether each is kept in the next version. */
  groups: Record<string, boolean>;
}

export interface MigrationPlan {
  forms: Record<string, FormPlan>;
  /** Scheduled visits of the live version that the next one lacks: their data is retired whole. */
  visitsRemoved: string[];
  /** Per kept scheduled visit, the live forms it no longer offers (data there is retired). */
  formsRemovedFromVisits: Record<string, string[]>;
  /** The live forms the unscheduled visits no longer offer. */
  formsRemovedFromUnscheduled: string[];
}

export interface AmendmentChangeSet {
  changes: AmendmentChange[];
  questions: AmendmentQuestion[];
  refusals: AmendmentRefusal[];
  /** Nothing asked and nothing refused: the amendment may be published. */
  ready: boolean;
  plan: MigrationPlan;
}

/** Item fields whose change makes checks, queries and statuses of stored data be evaluated again. */
const REEVALUATED_FIELDS: ReadonlySet<string> = new Set([
  'min',
  'max',
  'rangeSeverity',
  'hardMin',
  'hardMax',
  'maxLength',
  'pattern',
  'decimals',
  'required',
  'requiredWhen',
  'showWhen',
  'notFuture',
]);

const CHOICE_TYPES: ReadonlySet<ItemType> = new Set(['singleChoice', 'multipleChoice']);

function layoutsOf(form: FormDefinition): SectionDefinition[][] {
  return [form.sections, ...(form.variants ?? []).map((variant) => variant.sections)];
}

/** A form's items across its layouts, by key (first layout wins), and its repeating groups. */
function indexForm(form: FormDefinition): { items: Map<string, IndexedItem>; groups: Set<string> } {
  const items = new Map<string, IndexedItem>();
  const groups = new Set<string>();
  for (const section of layoutsOf(form).flat()) {
    const group = section.repeating?.key;
    if (group) groups.add(group);
    for (const item of section.items) {
      if (!items.has(item.key)) items.set(item.key, group ? { item, group } : { item });
    }
  }
  return { items, groups };
}

/** Which forms of the definition a visit offers. */
function formsOfVisits(definition: StudyDefinition): Map<string, string[]> {
  return new Map(definition.visits.map((visit) => [visit.key, visit.forms]));
}

/**
 * The live definition with the accepted renames applied: form keys (visits, unscheduled visit, outcome
 * targets), item keys (every layout, checks, not-done items) and the references of expressions, so an
 * expression the next version rewrote only for the rename reads unchanged.
 */
function applyRenames(
  live: StudyDefinition,
  formRenames: Map<string, string>,
  itemRenames: Map<string, Map<string, string>>,
): StudyDefinition {
  const renamed = structuredClone(live);
  const formKey = (key: string) => formRenames.get(key) ?? key;
  const itemKey = (form: string, key: string) => itemRenames.get(form)?.get(key) ?? key;
  /** A reference (`item`, `form.item`, `visit.form.item`) as the renames write it; `form` is where it stands. */
  const renameRef = (ref: string, form: string | undefined): string => {
    const parts = ref.split('.');
    if (parts.length === 1 && form !== undefined) return itemKey(form, ref);
    if (parts.length === 2)
      return `${formKey(parts[0] as string)}.${itemKey(parts[0] as string, parts[1] as string)}`;
    if (parts.length === 3)
      return `${parts[0]}.${formKey(parts[1] as string)}.${itemKey(parts[1] as string, parts[2] as string)}`;
    return ref;
  };
  const renameRefs = (value: unknown, form: string | undefined): void => {
    if (Array.isArray(value)) for (const entry of value) renameRefs(entry, form);
    else if (isPlainObject(value)) {
      if (typeof value.ref === 'string' && isExpressionObject(value)) value.ref = renameRef(value.ref, form);
      else for (const entry of Object.values(value)) renameRefs(entry, form);
    }
  };
  for (const form of renamed.forms) {
    renameRefs([form.sections, form.variants, form.checks, form.outcomes], form.key);
    for (const outcome of form.outcomes ?? [])
      if (outcome.target) outcome.target.form = formKey(outcome.target.form);
  }
  renameRefs(renamed.subjectStatus, undefined);
  for (const visit of renamed.visits) visit.forms = visit.forms.map(formKey);
  if (renamed.unscheduledVisit) renamed.unscheduledVisit.forms = renamed.unscheduledVisit.forms.map(formKey);
  for (const form of renamed.forms) {
    const items = itemRenames.get(form.key);
    form.key = formKey(form.key);
    if (!items) continue;
    for (const section of layoutsOf(form).flat()) {
      for (const item of section.items) item.key = items.get(item.key) ?? item.key;
      if (section.notDoneItem) section.notDoneItem = items.get(section.notDoneItem) ?? section.notDoneItem;
    }
    for (const check of form.checks ?? []) check.item = items.get(check.item) ?? check.item;
  }
  return renamed;
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A stable order: by form, item, kind, then the rest of the entry. */
function sortEntries<T extends object>(entries: T[], kindOf: (entry: T) => string): T[] {
  const sortKey = (entry: T) => {
    const record = entry as Record<string, unknown>;
    const inForm = record.form !== undefined;
    const form = String(
      record.form ?? record.codeList ?? record.from ?? record.removed ?? record.visit ?? '',
    );
    const item = String(
      record.item ?? (inForm ? (record.from ?? record.removed) : undefined) ?? record.check ?? '',
    );
    return [form, item, kindOf(entry), JSON.stringify(entry)];
  };
  return entries
    .map((entry) => ({ entry, key: sortKey(entry) }))
    .sort((a, b) => {
      for (let index = 0; index < a.key.length; index++) {
        const order = compareText(a.key[index] as string, b.key[index] as string);
        if (order !== 0) return order;
      }
      return 0;
    })
    .map(({ entry }) => entry);
}

/**
 * The explicit change set of publishing `next` over `live`, with the data manager's declarations:
 * changes that affect stored data (sorted, stable), the questions still open, the refused declarations,
 * and the plan to migrate stored values.
 */
export function amendmentChangeSet(
  live: StudyDefinition,
  next: StudyDefinition,
  declarations: AmendmentDeclarations = {},
): AmendmentChangeSet {
  const changes: AmendmentChange[] = [];
  const questions: AmendmentQuestion[] = [];
  const refusals: AmendmentRefusal[] = [];

  const liveForms = new Map(live.forms.map((form) => [form.key, form]));
  const nextForms = new Map(next.forms.map((form) => [form.key, form]));
  const liveIndex = new Map(live.forms.map((form) => [form.key, indexForm(form)]));
  const nextIndex = new Map(next.forms.map((form) => [form.key, indexForm(form)]));

  // Form renames: each checked, the accepted ones applied.
  const formRenames = acceptRenames(
    declarations.formRenames ?? [],
    (rename) => {
      if (!liveForms.has(rename.from)) return { code: 'unknownForm', form: rename.from };
      if (liveForms.has(rename.to)) return { code: 'renameTargetExists', ...rename };
      if (!nextForms.has(rename.to)) return { code: 'renameTargetMissing', ...rename };
      if (nextForms.has(rename.from)) return { code: 'renameSourceKept', ...rename };
      return null;
    },
    refusals,
  );
  const nextFormKey = (liveKey: string) => formRenames.get(liveKey) ?? liveKey;

  // Item renames, grouped by live form.
  const itemRenames = new Map<string, Map<string, string>>();
  const byForm = new Map<string, ItemRename[]>();
  for (const rename of declarations.itemRenames ?? []) {
    byForm.set(rename.form, [...(byForm.get(rename.form) ?? []), rename]);
  }
  for (const [form, renames] of byForm) {
    const liveItems = liveIndex.get(form)?.items;
    if (!liveItems) {
      refusals.push({ code: 'unknownForm', form });
      continue;
    }
    const nextItems = nextIndex.get(nextFormKey(form))?.items ?? new Map<string, IndexedItem>();
    const accepted = acceptRenames(
      renames,
      (rename) => {
        const entry = { form, from: rename.from, to: rename.to };
        if (!liveItems.has(rename.from)) return { code: 'unknownItem', form, item: rename.from };
        if (liveItems.has(rename.to)) return { code: 'renameTargetExists', ...entry };
        if (!nextItems.has(rename.to)) return { code: 'renameTargetMissing', ...entry };
        if (nextItems.has(rename.from)) return { code: 'renameSourceKept', ...entry };
        return null;
      },
      refusals,
      form,
    );
    if (accepted.size > 0) itemRenames.set(form, accepted);
  }
  const nextItemKey = (form: string, item: string) => itemRenames.get(form)?.get(item) ?? item;

  const renamedLive = applyRenames(live, formRenames, itemRenames);
  const diff = diffDefinitions(renamedLive, next);
  const plan: MigrationPlan = {
    forms: {},
    visitsRemoved: [],
    formsRemovedFromVisits: {},
    formsRemovedFromUnscheduled: [],
  };

  // Visits: a visit removed, or a form a kept visit no longer offers, retires the data there.
  for (const visit of diff.visits.removed) {
    changes.push({ kind: 'visitRemoved', visit: visit.key });
    plan.visitsRemoved.push(visit.key);
  }
  const nextVisits = formsOfVisits(next);
  for (const visit of live.visits) {
    const offered = nextVisits.get(visit.key);
    if (!offered) continue;
    const gone = visit.forms.filter(
      (form) => nextForms.has(nextFormKey(form)) && !offered.includes(nextFormKey(form)),
    );
    for (const form of gone) changes.push({ kind: 'formRemovedFromVisit', visit: visit.key, form });
    if (gone.length > 0) plan.formsRemovedFromVisits[visit.key] = gone;
  }
  const unscheduledNext = next.unscheduledVisit?.forms ?? [];
  plan.formsRemovedFromUnscheduled = (live.unscheduledVisit?.forms ?? []).filter(
    (form) => nextForms.has(nextFormKey(form)) && !unscheduledNext.includes(nextFormKey(form)),
  );
  for (const form of plan.formsRemovedFromUnscheduled)
    changes.push({ kind: 'formRemovedFromVisit', visit: 'unscheduled-', form });

  // Forms added, retired, renamed; a removed and an added form undeclared is asked about.
  for (const form of diff.forms.added) changes.push({ kind: 'formAdded', form: form.key });
  for (const form of diff.forms.removed) changes.push({ kind: 'formRetired', form: form.key });
  for (const [from, to] of formRenames) changes.push({ kind: 'formRenamed', from, to });
  for (const removed of diff.forms.removed)
    for (const added of diff.forms.added)
      questions.push({ code: 'formRenameOrReplace', removed: removed.key, added: added.key });

  // Code mappings, checked against the live and next lists.
  const liveLists = new Map(live.codeLists.map((list) => [list.key, list]));
  const nextLists = new Map(next.codeLists.map((list) => [list.key, list]));
  const mappings = new Map<string, Record<string, string>>();
  for (const mapping of declarations.codeMappings ?? []) {
    const before = liveLists.get(mapping.codeList);
    if (!before) {
      refusals.push({ code: 'unknownCodeList', codeList: mapping.codeList });
      continue;
    }
    const after = nextLists.get(mapping.codeList)?.codes ?? [];
    const map: Record<string, string> = { ...mappings.get(mapping.codeList) };
    for (const [from, to] of Object.entries(mapping.map)) {
      if (!before.codes.some((code) => code.code === from))
        refusals.push({ code: 'unknownCode', codeList: mapping.codeList, choice: from });
      else if (!after.some((code) => code.code === to))
        refusals.push({ code: 'unknownTargetCode', codeList: mapping.codeList, choice: to });
      else map[from] = to;
    }
    mappings.set(mapping.codeList, map);
  }

  // Items, form by form (live forms that stay).
  const conversions = new Map(
    (declarations.typeConversions ?? []).map((conversion) => [
      `${conversion.form}.${conversion.item}`,
      conversion,
    ]),
  );
  const usedConversions = new Set<string>();
  const listUsers = new Map<string, ItemRef[]>();
  for (const form of live.forms) {
    const index = liveIndex.get(form.key) as ReturnType<typeof indexForm>;
    const toForm = formRenames.get(form.key) ?? (nextForms.has(form.key) ? form.key : null);
    const formPlan: FormPlan = { to: toForm, items: {}, groups: {} };
    plan.forms[form.key] = formPlan;
    const target = toForm === null ? undefined : nextIndex.get(toForm);
    for (const group of index.groups) formPlan.groups[group] = target?.groups.has(group) ?? false;
    for (const [itemKey, { item, group }] of index.items) {
      const itemPlan: ItemPlan = { to: null, ...(group ? { group } : {}) };
      formPlan.items[itemKey] = itemPlan;
      if (!target || toForm === null) continue;
      const toItem = nextItemKey(form.key, itemKey);
      const now = target.items.get(toItem);
      if (!now) {
        changes.push({ kind: 'itemRetired', form: form.key, item: itemKey });
        continue;
      }
      if ((group ?? null) !== (now.group ?? null)) {
        refusals.push({
          code: 'groupChanged',
          form: form.key,
          item: itemKey,
          from: group ?? null,
          to: now.group ?? null,
        });
      }
      itemPlan.to = toItem;
      if (toItem !== itemKey) changes.push({ kind: 'itemRenamed', form: toForm, from: itemKey, to: toItem });
      // Type.
      const declared = conversions.get(`${form.key}.${itemKey}`);
      if (declared) usedConversions.add(`${form.key}.${itemKey}`);
      const from = item.type;
      const to = now.item.type;
      if (declared && declared.to !== to) {
        refusals.push({
          code: 'conversionMismatch',
          form: form.key,
          item: itemKey,
          declared: declared.to,
          from,
          to,
        });
      } else if (from !== to) {
        const kind = conversionKind(from, to);
        if (kind === 'impossible')
          refusals.push({ code: 'impossibleConversion', form: form.key, item: itemKey, from, to });
        else if (kind === 'declared' && !declared)
          questions.push({ code: 'conversionNeeded', form: form.key, item: itemKey, from, to });
        else {
          itemPlan.convert = { from, to };
          changes.push({
            kind: 'itemTypeChanged',
            form: toForm,
            item: toItem,
            from,
            to,
            conversion: kind === 'widening' ? 'widening' : 'declared',
          });
        }
      }
      // Code list: the codes stored come from the live list; the item may now read another one.
      if (CHOICE_TYPES.has(from) && item.codeList) {
        const users = listUsers.get(item.codeList) ?? [];
        users.push({ form: toForm, item: toItem });
        listUsers.set(item.codeList, users);
        const map = mappings.get(item.codeList);
        if (map && Object.keys(map).length > 0) itemPlan.codes = map;
        if (now.item.codeList && now.item.codeList !== item.codeList) {
          const reads = new Set((nextLists.get(now.item.codeList)?.codes ?? []).map((code) => code.code));
          const lost = (liveLists.get(item.codeList)?.codes ?? [])
            .map((code) => map?.[code.code] ?? code.code)
            .filter((code) => !reads.has(code));
          if (lost.length > 0)
            refusals.push({
              code: 'codeListSwitched',
              form: form.key,
              item: itemKey,
              from: item.codeList,
              to: now.item.codeList,
              codes: lost,
            });
        }
      }
    }
    // Items added (after renames), and undeclared remove + add pairs that look like a rename.
    if (!target || toForm === null) continue;
    const kept = new Set(Object.values(formPlan.items).map((entry) => entry.to));
    const added = [...target.items].filter(([key]) => !kept.has(key));
    for (const [key] of added) changes.push({ kind: 'itemAdded', form: toForm, item: key });
    for (const [removedKey, removed] of index.items) {
      if (formPlan.items[removedKey]?.to !== null) continue;
      for (const [addedKey, entry] of added) {
        if (entry.item.type === removed.item.type && (entry.group ?? null) === (removed.group ?? null))
          questions.push({
            code: 'itemRenameOrReplace',
            form: form.key,
            removed: removedKey,
            added: addedKey,
          });
      }
    }
  }
  for (const [key, conversion] of conversions) {
    if (usedConversions.has(key)) continue;
    if (!liveForms.has(conversion.form)) refusals.push({ code: 'unknownForm', form: conversion.form });
    else if (liveIndex.get(conversion.form)?.items.has(conversion.item))
      refusals.push({ code: 'conversionOfRetiredItem', form: conversion.form, item: conversion.item });
    else refusals.push({ code: 'unknownItem', form: conversion.form, item: conversion.item });
  }

  // Field changes of kept items (every layout), and checks, from the diff of the renamed live version.
  for (const formChange of diff.forms.changed) {
    const fields = new Map<string, Set<string>>();
    const collect = (changed: ElementChange<PlacedItem>[]) => {
      for (const change of changed) {
        const set = fields.get(change.key) ?? new Set<string>();
        for (const field of change.fields) set.add(field.field.split('.')[0] as string);
        fields.set(change.key, set);
      }
    };
    collect(formChange.layout.items.changed);
    for (const variant of formChange.variants.changed) collect(variant.layout.items.changed);
    for (const [item, names] of fields) {
      if (names.has('derive')) changes.push({ kind: 'derivationChanged', form: formChange.key, item });
      const reevaluated = [...names].filter((name) => REEVALUATED_FIELDS.has(name)).sort();
      if (reevaluated.length > 0)
        changes.push({ kind: 'itemReevaluated', form: formChange.key, item, fields: reevaluated });
    }
    const checks = formChange.checks;
    for (const check of checks.added)
      changes.push({ kind: 'checkChanged', form: formChange.key, check: check.id, change: 'added' });
    for (const check of checks.removed)
      changes.push({ kind: 'checkChanged', form: formChange.key, check: check.id, change: 'removed' });
    for (const check of checks.changed)
      changes.push({ kind: 'checkChanged', form: formChange.key, check: check.key, change: 'changed' });
  }

  // Code lists in use: codes re-coded by a mapping, and codes removed without one (asked).
  for (const [listKey, items] of listUsers) {
    const before = liveLists.get(listKey)?.codes ?? [];
    const after = new Set((nextLists.get(listKey)?.codes ?? []).map((code) => code.code));
    const map = mappings.get(listKey) ?? {};
    const sortedItems = sortEntries(items, () => '');
    if (Object.keys(map).length > 0)
      changes.push({ kind: 'codesRecoded', codeList: listKey, map, items: sortedItems });
    const unmapped = before
      .map((code) => code.code)
      .filter((code) => !after.has(code) && !Object.hasOwn(map, code));
    if (unmapped.length > 0) {
      changes.push({ kind: 'codesRemoved', codeList: listKey, codes: unmapped, items: sortedItems });
      questions.push({ code: 'codesNeedMapping', codeList: listKey, codes: unmapped, items: sortedItems });
    }
  }

  const sortedQuestions = sortEntries(
    answerReplacements(questions, declarations, refusals),
    (entry) => entry.code,
  );
  const sortedRefusals = sortEntries(refusals, (entry) => entry.code);
  return {
    changes: sortEntries(changes, (entry) => entry.kind),
    questions: sortedQuestions,
    refusals: sortedRefusals,
    ready: sortedQuestions.length === 0 && sortedRefusals.length === 0,
    plan,
  };
}

/**
 * The questions without those a declared replacement answers ("not a rename"); a replacement that
 * answers no question (its pair was not removed and added) goes to `refusals`.
 */
function answerReplacements(
  questions: AmendmentQuestion[],
  declarations: AmendmentDeclarations,
  refusals: AmendmentRefusal[],
): AmendmentQuestion[] {
  const pairKey = (form: string | undefined, removed: string, added: string) =>
    JSON.stringify([form ?? null, removed, added]);
  const declared = new Set<string>();
  for (const replacement of declarations.replacements ?? []) {
    const key = pairKey(replacement.form, replacement.removed, replacement.added);
    const asked = questions.some((question) => questionPairKey(question) === key);
    if (asked) declared.add(key);
    else refusals.push({ code: 'unknownReplacement', ...replacement });
  }
  function questionPairKey(question: AmendmentQuestion): string | null {
    if (question.code === 'formRenameOrReplace') return pairKey(undefined, question.removed, question.added);
    if (question.code === 'itemRenameOrReplace')
      return pairKey(question.form, question.removed, question.added);
    return null;
  }
  return questions.filter((question) => {
    const key = questionPairKey(question);
    return key === null || !declared.has(key);
  });
}

/**
 * The renames that pass `check` and name each source and each target once, as a map from → to; the
 * others go to `refusals`.
 */
function acceptRenames<R extends FormRename>(
  renames: readonly R[],
  check: (rename: R) => AmendmentRefusal | null,
  refusals: AmendmentRefusal[],
  form?: string,
): Map<string, string> {
  const count = (keys: string[]) => (key: string) => keys.filter((entry) => entry === key).length;
  const fromCount = count(renames.map((rename) => rename.from));
  const toCount = count(renames.map((rename) => rename.to));
  const accepted = new Map<string, string>();
  const reported = new Set<string>();
  for (const rename of renames) {
    const repeated = [rename.from, rename.to].filter(
      (key, index) => (index === 0 ? fromCount(key) : toCount(key)) > 1,
    );
    if (repeated.length > 0) {
      for (const key of repeated) {
        if (reported.has(key)) continue;
        reported.add(key);
        refusals.push(
          form === undefined ? { code: 'duplicateRename', key } : { code: 'duplicateRename', form, key },
        );
      }
      continue;
    }
    const refusal = check(rename);
    if (refusal) refusals.push(refusal);
    else accepted.set(rename.from, rename.to);
  }
  return accepted;
}
