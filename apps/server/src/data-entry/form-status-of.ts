import {
  computeFormStatus,
  type FormEvaluation,
  type FormStatus,
  getFormLayout,
  type StudyDefinition,
} from '@cdms/study';
import type { OpenQuery } from '../after-change/form-change.ts';
import type { FormInstanceRow } from '../db/schema.ts';
import { formKeyOf } from './load-subject-for-save.ts';

// A saved form's overview status, pure: what a save writes (`refreshFormStatuses`) and what an
// amendment's impact analysis compares with the stored one, so the two can never judge a form apart.

/** The open and answered queries per form ("visit.form"), as a form's status counts them. */
export function openQueryCountsByForm(openQueries: readonly OpenQuery[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const query of openQueries) {
    const key = formKeyOf(query.visit_key, query.form_key);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** One saved form's status from its place in the definition, its data, its open queries and missing items. */
export function formStatusOf(
  definition: StudyDefinition,
  instance: Pick<FormInstanceRow, 'visit_key' | 'form_key' | 'has_data'>,
  /** The form's evaluation; none when the engine did not walk it (nothing missing is known). */
  evaluated: Pick<FormEvaluation, 'missing'> | undefined,
  openQueryCount: number,
): FormStatus {
  return computeFormStatus({
    inVisit: getFormLayout(definition, instance.visit_key, instance.form_key) !== undefined,
    saved: instance.has_data,
    openQueryCount,
    missingCount: evaluated?.missing.length ?? 0,
  });
}
