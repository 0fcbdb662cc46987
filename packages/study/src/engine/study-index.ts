import type { JsonValue } from '../model/json-value.ts';
import {
  appliesToVisit,
  type CheckDefinition,
  type Code,
  type FormDefinition,
  type ItemDefinition,
  type OutcomeDefinition,
  type SectionDefinition,
  type StudyDefinition,
  sectionsForVisit,
  type VisitDefinition,
} from '../model/study-definition.ts';
import { type CompiledExpression, compileExpression } from './evaluate-expression.ts';
import { resolveVisit, unscheduledRepeatKey } from './visit-keys.ts';

// Lookups built once per definition object (cached by identity), so evaluating a subject does no searching.

export interface ItemLocation {
  item: ItemDefinition;
  section: SectionDefinition;
  /** Set when the item is a column of a repeating group. */
  groupKey?: string | undefined;
}

/** A form as it appears in one visit: the visit's variant of sections, and the checks that apply there. */
export interface FormLayout {
  visitKey: string;
  form: FormDefinition;
  sections: SectionDefinition[];
  items: Map<string, ItemLocation>;
  groups: Map<string, SectionDefinition>;
  checks: CheckDefinition[];
  outcomes: OutcomeDefinition[];
  derivedItems: ItemDefinition[];
  /** What `evaluateSubject` needs for this layout, prepared once with it (see LayoutRules). */
  rules: LayoutRules;
}

/**
 * The layout's rules made ready for evaluation: expressions compiled, and the per-item facts the engine
 * would otherwise work out again on every save. Built with the layout, so once per definition (the index
 * is cached by definition, and definitions are never changed once built).
 */
export interface LayoutRules {
  sections: SectionRules[];
  /** The layout's checks (as `FormLayout.checks`) with their conditions compiled. */
  checks: { check: CheckDefinition; when: CompiledExpression }[];
  /** The layout's outcomes (as `FormLayout.outcomes`) with their conditions compiled. */
  outcomes: { outcome: OutcomeDefinition; when: CompiledExpression }[];
  /** The derived items (as `FormLayout.derivedItems`), their expressions compiled. */
  derivations: Derivation[];
}

export interface SectionRules {
  section: SectionDefinition;
  showWhen: CompiledExpression | undefined;
  items: ItemRules[];
}

export interface ItemRules {
  item: ItemDefinition;
  showWhen: CompiledExpression | undefined;
  requiredWhen: CompiledExpression | undefined;
  /** Derived or system-filled: shown, never typed. */
  readOnly: boolean;
  /** The item has a built-in range (min/max) or not-future check. */
  hasBuiltInChecks: boolean;
  /**
   * Some check of the layout looks at this item key (a built-in one of any item with the key, or a
   * defined one): the engine keeps each instance of such an item to run the checks on it afterwards.
   */
  checked: boolean;
}

export interface Derivation {
  item: ItemDefinition;
  derive: CompiledExpression;
  /** The "not done" checkbox of the item's section: while it is checked nothing is derived. */
  notDoneItem: string | undefined;
}

export interface StudyIndex {
  definition: StudyDefinition;
  visits: Map<string, VisitDefinition>;
  /** Every (visit, form) pair of the schedule in definition order. */
  schedule: FormLayout[];
  layouts: Map<string, FormLayout>;
  codeLists: Map<string, Code[]>;
  params: Record<string, JsonValue>;
  /** Layouts of unscheduled visits (`unscheduled-<n>`), built on first use. */
  unscheduledLayouts: Map<string, FormLayout>;
}

/** Built-in codes of a yesNo item. */
export const YES_NO_CODES: Code[] = [
  { code: 'Y', label: { ko: '예', en: 'Yes' } },
  { code: 'N', label: { ko: '아니오', en: 'No' } },
];

const cache = new WeakMap<StudyDefinition, StudyIndex>();

function layoutKey(visitKey: string, formKey: string): string {
  return `${visitKey}\u0000${formKey}`;
}

function buildLayout(form: FormDefinition, visitKey: string): FormLayout {
  const sections = sectionsForVisit(form, visitKey);
  const items = new Map<string, ItemLocation>();
  const groups = new Map<string, SectionDefinition>();
  const derivedItems: ItemDefinition[] = [];
  for (const section of sections) {
    const groupKey = section.repeating?.key;
    if (groupKey !== undefined) groups.set(groupKey, section);
    for (const item of section.items) {
      items.set(item.key, { item, section, groupKey });
      if (item.derive !== undefined && groupKey === undefined) derivedItems.push(item);
    }
  }
  const checks = (form.checks ?? []).filter((c) => appliesToVisit(c.visits, visitKey) && items.has(c.item));
  const outcomes = (form.outcomes ?? []).filter((o) => appliesToVisit(o.visits, visitKey));
  return {
    visitKey,
    form,
    sections,
    items,
    groups,
    checks,
    outcomes,
    derivedItems,
    rules: buildRules(sections, items, checks, outcomes, derivedItems),
  };
}

function hasBuiltInChecks(item: ItemDefinition): boolean {
  return (
    item.min !== undefined ||
    item.max !== undefined ||
    item.hardMin !== undefined ||
    item.hardMax !== undefined ||
    item.notFuture === true
  );
}

function compileOptional(expression: unknown): CompiledExpression | undefined {
  return expression === undefined ? undefined : compileExpression(expression);
}

function buildRules(
  sections: SectionDefinition[],
  items: Map<string, ItemLocation>,
  checks: CheckDefinition[],
  outcomes: OutcomeDefinition[],
  derivedItems: ItemDefinition[],
): LayoutRules {
  const checkedKeys = new Set(checks.map((check) => check.item));
  for (const section of sections) {
    for (const item of section.items) if (hasBuiltInChecks(item)) checkedKeys.add(item.key);
  }
  return {
    sections: sections.map((section) => ({
      section,
      showWhen: compileOptional(section.showWhen),
      items: section.items.map((item) => ({
        item,
        showWhen: compileOptional(item.showWhen),
        requiredWhen: compileOptional(item.requiredWhen),
        readOnly: item.readOnly === true || item.derive !== undefined,
        hasBuiltInChecks: hasBuiltInChecks(item),
        checked: checkedKeys.has(item.key),
      })),
    })),
    checks: checks.map((check) => ({ check, when: compileExpression(check.when) })),
    outcomes: outcomes.map((outcome) => ({ outcome, when: compileExpression(outcome.when) })),
    derivations: derivedItems.map((item) => ({
      item,
      derive: compileExpression(item.derive),
      // The section the item map holds for the key (the last one, should a key repeat).
      notDoneItem: items.get(item.key)?.section.notDoneItem,
    })),
  };
}

export function getStudyIndex(definition: StudyDefinition): StudyIndex {
  const cached = cache.get(definition);
  if (cached) return cached;
  const forms = new Map(definition.forms.map((f) => [f.key, f]));
  const schedule: FormLayout[] = [];
  const layouts = new Map<string, FormLayout>();
  for (const visit of definition.visits) {
    for (const formKey of visit.forms) {
      const form = forms.get(formKey);
      if (!form) continue;
      const layout = buildLayout(form, visit.key);
      schedule.push(layout);
      layouts.set(layoutKey(visit.key, formKey), layout);
    }
  }
  const params: Record<string, JsonValue> = {};
  for (const [name, parameter] of Object.entries(definition.parameters ?? {})) params[name] = parameter.value;
  const index: StudyIndex = {
    definition,
    visits: new Map(definition.visits.map((v) => [v.key, v])),
    schedule,
    layouts,
    codeLists: new Map(definition.codeLists.map((l) => [l.key, l.codes])),
    params,
    unscheduledLayouts: new Map(),
  };
  cache.set(definition, index);
  return index;
}

/** The form as shown in a visit, or undefined when the visit does not have that form. */
export function getFormLayout(
  definition: StudyDefinition,
  visitKey: string,
  formKey: string,
): FormLayout | undefined {
  const index = getStudyIndex(definition);
  const scheduled = index.layouts.get(layoutKey(visitKey, formKey));
  if (scheduled || unscheduledRepeatKey(visitKey) === undefined) return scheduled;
  const key = layoutKey(visitKey, formKey);
  const cached = index.unscheduledLayouts.get(key);
  if (cached) return cached;
  if (!resolveVisit(definition, visitKey)?.forms.includes(formKey)) return undefined;
  const form = index.definition.forms.find((candidate) => candidate.key === formKey);
  if (!form) return undefined;
  // No variant names an unscheduled visit: the form's base sections.
  const layout = buildLayout(form, visitKey);
  index.unscheduledLayouts.set(key, layout);
  return layout;
}

/**
 * The forms to evaluate for a subject: the schedule, then the forms of every unscheduled visit the data
 * holds (in repeat-key order). An unscheduled visit without data has nothing to evaluate.
 */
export function layoutsForData(definition: StudyDefinition, data: unknown): FormLayout[] {
  const index = getStudyIndex(definition);
  if (!definition.unscheduledVisit || typeof data !== 'object' || data === null) return index.schedule;
  const visitKeys = Object.keys(data)
    .filter((key) => unscheduledRepeatKey(key) !== undefined)
    .sort((a, b) => (unscheduledRepeatKey(a) ?? 0) - (unscheduledRepeatKey(b) ?? 0));
  if (visitKeys.length === 0) return index.schedule;
  const extra: FormLayout[] = [];
  for (const visitKey of visitKeys) {
    for (const formKey of definition.unscheduledVisit.forms) {
      const layout = getFormLayout(definition, visitKey, formKey);
      if (layout) extra.push(layout);
    }
  }
  return [...index.schedule, ...extra];
}

/** The choices of an item: its code list, the built-in Y/N for yesNo, none otherwise. */
export function getItemCodes(definition: StudyDefinition, item: ItemDefinition): Code[] {
  if (item.type === 'yesNo') return YES_NO_CODES;
  if (item.codeList === undefined) return [];
  return getStudyIndex(definition).codeLists.get(item.codeList) ?? [];
}
