import type { Expression, ParameterDefinition, StudyDefinition, SubjectStatusRules } from '@cdms/study';
import type { StudySettings } from './designer-state.ts';
import { toggleInOrder } from './list-edits.ts';

/**
 * The study settings' edits, pure: where each visit's date is recorded, what an unscheduled visit may
 * hold, the named parameters expressions use, and the rules a subject's status follows. Each gives the
 * settings to put in the definition (`replaceSettings`); the same settings back when nothing changes.
 */

export function settingsOf(definition: StudyDefinition): StudySettings {
  return {
    visitDate: definition.visitDate,
    unscheduledVisit: definition.unscheduledVisit,
    parameters: definition.parameters,
    subjectStatus: definition.subjectStatus,
    roles: definition.roles,
  };
}

/** The date items of a form: where a visit's date may be recorded. */
export function dateItemsOf(definition: StudyDefinition, formKey: string) {
  const form = definition.forms.find((candidate) => candidate.key === formKey);
  return (form?.sections ?? [])
    .filter((section) => !section.repeating)
    .flatMap((section) => section.items.filter((item) => item.type === 'date'));
}

/** The visit date recorded in `formKey`'s first date item (none when the form has none), or nowhere. */
export function setVisitDateForm(
  settings: StudySettings,
  definition: StudyDefinition,
  formKey: string | null,
): StudySettings {
  const first = formKey === null ? undefined : dateItemsOf(definition, formKey)[0];
  return {
    ...settings,
    visitDate: formKey !== null && first ? { form: formKey, item: first.key } : undefined,
  };
}

export const NEW_UNSCHEDULED_LABEL = { ko: '비정기 방문', en: 'Unscheduled visit' };

/**
 * A form ticked or unticked for the unscheduled visit, kept in the order of the study's forms. The
 * first form ticked gives the study unscheduled visits; the last one unticked takes them away (the
 * model wants at least one form).
 */
export function toggleUnscheduledForm(
  settings: StudySettings,
  definition: StudyDefinition,
  formKey: string,
): StudySettings {
  const current = settings.unscheduledVisit;
  const chosen = current?.forms ?? [];
  const forms = toggleInOrder(
    chosen,
    formKey,
    definition.forms.map((form) => form.key),
  );
  return {
    ...settings,
    unscheduledVisit:
      forms.length === 0 ? undefined : { label: current?.label ?? NEW_UNSCHEDULED_LABEL, forms },
  };
}

/** A parameter added, changed (`value` or `label`) or removed (`null`) under its key. */
export function setParameter(
  settings: StudySettings,
  key: string,
  parameter: ParameterDefinition | null,
): StudySettings {
  const { [key]: _previous, ...others } = settings.parameters ?? {};
  const parameters = parameter === null ? others : { ...(settings.parameters ?? {}), [key]: parameter };
  return { ...settings, parameters: Object.keys(parameters).length === 0 ? undefined : parameters };
}

/** A value typed for a parameter: a number when it reads as one (a threshold), else the text (a date). */
export function parameterValue(text: string): number | string {
  const trimmed = text.trim();
  return trimmed !== '' && Number.isFinite(Number(trimmed)) ? Number(trimmed) : text;
}

export const STATUS_RULES = ['complete', 'dropout', 'screeningFailure', 'ongoing'] as const;

/** Status rules start as conditions that never hold: every subject stays in screening until they are written. */
export const NEW_STATUS_RULES: SubjectStatusRules = {
  complete: false,
  dropout: false,
  screeningFailure: false,
  ongoing: false,
};

/** The status rules on (each rule never holding yet) or off. */
export function setStatusRulesOn(settings: StudySettings, on: boolean): StudySettings {
  if (on === (settings.subjectStatus !== undefined)) return settings;
  return { ...settings, subjectStatus: on ? NEW_STATUS_RULES : undefined };
}

/** One status rule's condition changed (an empty one never holds). */
export function setStatusRule(
  settings: StudySettings,
  rule: (typeof STATUS_RULES)[number],
  expression: Expression | undefined,
): StudySettings {
  const rules = settings.subjectStatus ?? NEW_STATUS_RULES;
  return { ...settings, subjectStatus: { ...rules, [rule]: expression ?? false } };
}
