import type { LocalizedText } from '../model/localized-text.ts';
import {
  type FormDefinition,
  type ReferenceScope,
  referenceResolves,
  referenceScope,
  type SectionDefinition,
  type StudyDefinition,
  sectionsForVisit,
} from '../model/study-definition.ts';

// What a reference in an expression can name: the definition's own rule (`referenceScope` and
// `referenceResolves` in model/study-definition.ts, which findDefinitionProblemTexts checks with), and
// the keys with their labels that completions offer.

/** Where an expression is written; without a form, every reference must name visit, form and item (status rules). */
export interface ExpressionTextContext {
  definition: StudyDefinition;
  formKey?: string;
  visitKey?: string;
}

export interface ScopeKey {
  key: string;
  label: LocalizedText;
}

function sectionKeys(sections: SectionDefinition[], into: Map<string, LocalizedText>): void {
  for (const section of sections) {
    if (section.repeating && !into.has(section.repeating.key)) into.set(section.repeating.key, section.label);
    for (const item of section.items) if (!into.has(item.key)) into.set(item.key, item.label);
  }
}

function asList(keys: Map<string, LocalizedText>): ScopeKey[] {
  return [...keys].map(([key, label]) => ({ key, label }));
}

export function findForm(definition: StudyDefinition, formKey: string): FormDefinition | undefined {
  return definition.forms.find((form) => form.key === formKey);
}

/** The keys of a form in any of its layouts, in order of appearance. */
export function formKeys(form: FormDefinition): ScopeKey[] {
  const keys = new Map<string, LocalizedText>();
  sectionKeys(form.sections, keys);
  for (const variant of form.variants ?? []) sectionKeys(variant.sections, keys);
  return asList(keys);
}

/** The keys of a form as laid out at a visit, or none when the visit does not have the form. */
export function formKeysAtVisit(definition: StudyDefinition, visitKey: string, formKey: string): ScopeKey[] {
  const visit = definition.visits.find((v) => v.key === visitKey);
  const form = findForm(definition, formKey);
  if (!visit?.forms.includes(formKey) || !form) return [];
  const keys = new Map<string, LocalizedText>();
  sectionKeys(sectionsForVisit(form, visitKey), keys);
  return asList(keys);
}

// One scope per definition: a designer checks many references of the same one as it types.
const scopes = new WeakMap<StudyDefinition, ReferenceScope>();
function scopeOf(definition: StudyDefinition): ReferenceScope {
  let scope = scopes.get(definition);
  if (!scope) {
    scope = referenceScope(definition);
    scopes.set(definition, scope);
  }
  return scope;
}

/**
 * What is wrong with a reference written in this context, or null when it names something that
 * exists. Whether it resolves is the definition's own rule (`referenceResolves`); this only says
 * which part of it is missing.
 */
export function referenceProblem(ref: string, context: ExpressionTextContext): LocalizedText | null {
  const { definition, formKey } = context;
  const scope = scopeOf(definition);
  if (referenceResolves(scope, ref, formKey)) return null;
  const parts = ref.split('.');
  if (parts.length < 3 && formKey === undefined)
    return {
      en: `${ref}: a reference here names visit, form and item (visit.form.item)`,
      ko: `${ref}: 여기서는 참조에 방문, 양식, 항목을 모두 씁니다 (visit.form.item)`,
    };
  if (parts.length === 1)
    return { en: `unknown item ${ref} in form ${formKey}`, ko: `양식 ${formKey}에 없는 항목 ${ref}` };
  if (parts.length === 2) {
    const [formPart = '', itemPart = ''] = parts;
    if (!scope.ofForm.has(formPart))
      return { en: `unknown form ${formPart}`, ko: `알 수 없는 양식 ${formPart}` };
    return {
      en: `unknown item ${itemPart} in form ${formPart}`,
      ko: `양식 ${formPart}에 없는 항목 ${itemPart}`,
    };
  }
  const [visitPart = '', formPart = '', itemPart = ''] = parts;
  if (!definition.visits.some((v) => v.key === visitPart))
    return { en: `unknown visit ${visitPart}`, ko: `알 수 없는 방문 ${visitPart}` };
  if (!scope.atVisit.has(`${visitPart}.${formPart}`))
    return {
      en: `visit ${visitPart} has no form ${formPart}`,
      ko: `방문 ${visitPart}에 없는 양식 ${formPart}`,
    };
  return {
    en: `form ${formPart} at visit ${visitPart} has no item ${itemPart}`,
    ko: `방문 ${visitPart}의 양식 ${formPart}에 없는 항목 ${itemPart}`,
  };
}

/** What is wrong with a parameter name, or null when the definition declares it. */
export function parameterProblem(name: string, context: ExpressionTextContext): LocalizedText | null {
  if (context.definition.parameters?.[name] !== undefined) return null;
  return { en: `unknown parameter $${name}`, ko: `알 수 없는 매개변수 $${name}` };
}
