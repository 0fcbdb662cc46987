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
  return {
    visitKey,
    form,
    sections,
    items,
    groups,
    checks: (form.checks ?? []).filter((c) => appliesToVisit(c.visits, visitKey) && items.has(c.item)),
    outcomes: (form.outcomes ?? []).filter((o) => appliesToVisit(o.visits, visitKey)),
    derivedItems,
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
