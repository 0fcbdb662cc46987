import type { SdvPlanMode } from '@cdms/contract';
import { getFormLayout, isSigningForm, type LocalizedText, type StudyDefinition } from '@cdms/study';

/**
 * What SDV verifies, from the study definition, pure. The unit is a stored key of a form (the keys of
 * `item_values`): a plain item, or a repeating group as a whole. Derived values are computed and
 * read-only items are filled by the system, so neither is verified; the signing form records the
 * signature itself and is never verified either.
 */

export interface VerifiableItem {
  /** The stored key. */
  key: string;
  label: LocalizedText;
  /** Flagged `critical` in the definition (for a group: any of its items). */
  critical: boolean;
}

/** The verifiable stored keys of one form as shown in one visit, in the form's order. */
export function verifiableItems(
  definition: StudyDefinition,
  visitKey: string,
  formKey: string,
): VerifiableItem[] {
  if (isSigningForm(definition, visitKey, formKey)) return [];
  const layout = getFormLayout(definition, visitKey, formKey);
  if (!layout) return [];
  const result: VerifiableItem[] = [];
  for (const section of layout.sections) {
    if (section.repeating) {
      const critical = section.items.some((item) => item.critical === true);
      result.push({ key: section.repeating.key, label: section.label, critical });
      continue;
    }
    for (const item of section.items) {
      if (item.derive !== undefined || item.readOnly) continue;
      result.push({ key: item.key, label: item.label, critical: item.critical === true });
    }
  }
  return result;
}

/** `formKey.itemKey` of every verifiable item and of every critical one, over every visit. */
export interface SdvKeySets {
  verifiable: string[];
  critical: string[];
}

const cache = new WeakMap<StudyDefinition, SdvKeySets>();

export function sdvKeySets(definition: StudyDefinition): SdvKeySets {
  const cached = cache.get(definition);
  if (cached) return cached;
  const verifiable = new Set<string>();
  const critical = new Set<string>();
  for (const visit of definition.visits) {
    for (const formKey of visit.forms) {
      for (const item of verifiableItems(definition, visit.key, formKey)) {
        verifiable.add(`${formKey}.${item.key}`);
        if (item.critical) critical.add(`${formKey}.${item.key}`);
      }
    }
  }
  const sets = { verifiable: [...verifiable].sort(), critical: [...critical].sort() };
  cache.set(definition, sets);
  return sets;
}

export interface SdvPlanRule {
  mode: SdvPlanMode;
  firstSubjectsPerSite: number;
}

/** The plan a study without a stored one follows: every item. */
export const DEFAULT_SDV_PLAN: SdvPlanRule = { mode: 'all', firstSubjectsPerSite: 0 };

/**
 * Whether the plan counts every item of a subject: the plan is `all`, or the subject is among the
 * first N of its site by registration order (`siteRank` starts at 1).
 */
export function subjectFullyPlanned(plan: SdvPlanRule, siteRank: number): boolean {
  return plan.mode === 'all' || siteRank <= plan.firstSubjectsPerSite;
}

/** Whether the plan counts this item of a subject (the SQL read-outs say the same in sdv-sql.ts). */
export function itemInPlan(plan: SdvPlanRule, siteRank: number, critical: boolean): boolean {
  return subjectFullyPlanned(plan, siteRank) || critical;
}
