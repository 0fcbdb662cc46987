import type { StudyDefinition } from '../model/study-definition.ts';
import type { SubjectEvaluation } from './evaluate-subject.ts';
import { getFormLayout } from './study-index.ts';

// The overview icons (product.md "Form status"). Whether a form was saved and how many queries are open
// live in the database, so the caller passes them in; missing items come from the engine.

export const FORM_STATUSES = ['empty', 'none', 'dash', 'alert', 'check'] as const;
export type FormStatus = (typeof FORM_STATUSES)[number];

export interface FormStatusInput {
  /** Whether the visit has this form at all. */
  inVisit: boolean;
  /** Whether anything has been saved for the form. */
  saved: boolean;
  /** Open queries (system and manual) on the form's items. */
  openQueryCount: number;
  /** Required items missing, from the engine. */
  missingCount: number;
}

/**
 * empty: not in this visit; none: nothing saved; alert: an open query (it wins over missing items because
 * someone is waiting for an answer); dash: saved but required items missing; check: complete.
 */
export function computeFormStatus(input: FormStatusInput): FormStatus {
  if (!input.inVisit) return 'empty';
  if (!input.saved) return 'none';
  if (input.openQueryCount > 0) return 'alert';
  if (input.missingCount > 0) return 'dash';
  return 'check';
}

export interface StoredFormState {
  saved: boolean;
  openQueryCount: number;
}

/** What the database knows about each saved form: visit key → form key → state. Absent means not saved. */
export type StoredFormStates = Record<string, Record<string, StoredFormState>>;

/**
 * The overview matrix: for every visit of the definition — and every unscheduled visit the subject has
 * (`unscheduledVisitKeys`) —, every form of the definition (rows come from the definition, not from a
 * fixed list), its status.
 */
export function computeStatusMatrix(
  definition: StudyDefinition,
  evaluation: SubjectEvaluation,
  stored: StoredFormStates,
  unscheduledVisitKeys: readonly string[] = [],
): Record<string, Record<string, FormStatus>> {
  const missing = new Map<string, number>();
  for (const form of evaluation.forms) missing.set(`${form.visitKey}.${form.formKey}`, form.missing.length);
  const matrix: Record<string, Record<string, FormStatus>> = {};
  for (const visitKey of [...definition.visits.map((visit) => visit.key), ...unscheduledVisitKeys]) {
    const visit = { key: visitKey };
    const row: Record<string, FormStatus> = {};
    for (const form of definition.forms) {
      const state = Object.hasOwn(stored, visit.key) ? stored[visit.key]?.[form.key] : undefined;
      row[form.key] = computeFormStatus({
        inVisit: getFormLayout(definition, visit.key, form.key) !== undefined,
        saved: state?.saved === true,
        openQueryCount: state?.openQueryCount ?? 0,
        missingCount: missing.get(`${visit.key}.${form.key}`) ?? 0,
      });
    }
    matrix[visit.key] = row;
  }
  return matrix;
}
