import { todayInKorea } from '@cdms/contract';
import {
  changedItemKeys,
  createFormSet,
  enteredFormValues,
  evaluateSubject,
  type FormSet,
  type FormValues,
  formsReachedByChange,
  getFormLayout,
  isEmptyEntry,
  itemsNeedingReason,
  type JsonValue,
  type StudyDefinition,
  type SubjectData,
  type SubjectEvaluation,
} from '@cdms/study';
import type { Transaction } from 'kysely';
import type { StoredSubjectData } from '../after-change/form-change.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { addLabRangeChecks } from '../lab-range-rules/lab-range-checks.ts';
import type { FoundForSave } from './check-version-and-holds.ts';
import type { WriteFormInput } from './form-data.ts';
import { formValues } from './form-values.ts';

/** The change a save makes, evaluated by the study's rules. */
export interface EvaluatedChange {
  /** The form's entered values before and after (what is stored: no derived items, no empty values). */
  before: FormValues;
  after: FormValues;
  /** The subject's entered values with the form's new ones. */
  data: SubjectData;
  walked: FormSet;
  evaluation: SubjectEvaluation;
  changedKeys: string[];
}

/**
 * The save's second step: the new values evaluated with the engine over the subject (derivations
 * over every form, the forms the change can reach walked again), the lab ranges' checks added;
 * hard check failures (422) and changes without a reason (422) refused.
 */
export async function evaluateChange(
  trx: Transaction<Database>,
  input: WriteFormInput,
  found: FoundForSave,
): Promise<EvaluatedChange> {
  const { subject, definition, visitKey, formKey } = input;
  const { stored } = found;
  const layout = getFormLayout(definition, visitKey, formKey);
  const before = formValues(stored.entered, visitKey, formKey);
  // What is stored: the entered values without derived items and empty values (the study package's
  // rule, which the browser also uses to ask for reasons before it sends).
  const after = enteredFormValues(layout, input.values);
  if (!input.systemWrite) keepReadOnlyValues(definition, visitKey, formKey, before, after);
  // The subject's values with the form's new ones: a new top level and visit, the other visits'
  // forms shared with `stored` (nothing changes them; the engine evaluates on a copy of its own).
  const data: SubjectData = {
    ...stored.entered,
    [visitKey]: { ...(stored.entered[visitKey] ?? {}), [formKey]: after },
  };
  const walked = formsToWalk(definition, data, stored, {
    visitKey,
    formKey,
    definitionVersion: input.definitionVersion,
  });
  const evaluation = evaluateSubject(definition, data, {
    today: todayInKorea(),
    forms: walked.has,
    itemStates: false,
  });
  await addLabRangeChecks(trx, definition, { siteId: subject.site_id }, evaluation, {
    siteRanges: found.siteLabRanges,
  });
  const formEvaluation = evaluation.forms.find(
    (form) => form.visitKey === visitKey && form.formKey === formKey,
  );
  if (!formEvaluation) throw new AppError(404, 'not_found');

  const hard = formEvaluation.checks.filter((check) => check.severity === 'hard');
  if (hard.length > 0) {
    throw new AppError(
      422,
      'hard_check_failed',
      {},
      { items: hard.map((check) => ({ path: check.path, checkId: check.checkId, message: check.message })) },
    );
  }

  const changedKeys = changedItemKeys(layout, before, after);
  if (!input.systemWrite && !input.reasonForAll) {
    const unexplained = itemsNeedingReason(layout, before, after).filter(
      (itemKey) => !input.reasons[itemKey]?.trim(),
    );
    if (unexplained.length > 0)
      throw new AppError(
        422,
        'reason_required',
        {},
        { items: unexplained.map((itemKey) => `${formKey}.${itemKey}`) },
      );
  }
  return { before, after, data, walked, evaluation, changedKeys };
}

/** Read-only items (screening number, initials…) are filled by the system: a client cannot change them. */
function keepReadOnlyValues(
  definition: StudyDefinition,
  visitKey: string,
  formKey: string,
  before: FormValues,
  after: FormValues,
): void {
  const layout = getFormLayout(definition, visitKey, formKey);
  for (const section of layout?.sections ?? []) {
    if (section.repeating) continue;
    for (const item of section.items) {
      if (!item.readOnly || item.derive !== undefined) continue;
      if (isEmptyEntry(before[item.key])) delete after[item.key];
      else after[item.key] = before[item.key] as JsonValue;
    }
  }
}

/**
 * The forms a save evaluates: the saved form, and those of the subject's other saved forms (a form
 * never saved has no status or system queries to keep) that must be evaluated again —
 * - those whose evaluation the change can alter (`formsReachedByChange`: the forms whose rules read
 *   the saved form or a form deriving from it, and those whose rules read today's date);
 * - lab forms (the `labPanel` role), whose range checks (`addLabRangeChecks`) follow the site's lab ranges, which change
 *   outside saves, and the subject's sex and age, read outside the rules;
 * - forms last saved under another version of the definition, whose rules may have changed since.
 * Every other saved form evaluates exactly as when a save last evaluated it, so it keeps its stored
 * status and system queries, and is not walked: a save walked all ~40 saved forms of a subject, the
 * engine's largest share of a save's server time (issue 12).
 */
function formsToWalk(
  definition: StudyDefinition,
  data: SubjectData,
  stored: StoredSubjectData,
  saved: { visitKey: string; formKey: string; definitionVersion: string },
): FormSet {
  const reached = formsReachedByChange(definition, data, saved.visitKey, saved.formKey);
  const walked = createFormSet();
  walked.add(saved.visitKey, saved.formKey);
  for (const instance of stored.instances.values()) {
    const { visit_key: visitKey, form_key: formKey } = instance;
    if (
      reached.has(visitKey, formKey) ||
      formKey === definition.roles?.labPanel?.form ||
      instance.definition_version !== saved.definitionVersion
    )
      walked.add(visitKey, formKey);
  }
  return walked;
}
