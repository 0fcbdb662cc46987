import {
  derivedValuesOf,
  isEmptyEntry,
  type JsonValue,
  layoutsForData,
  type StudyDefinition,
  type SubjectEvaluation,
  sameEntry,
} from '@cdms/study';
import type { StoredSubjectData } from '../after-change/form-change.ts';
import { formValues } from './form-values.ts';
import { formKeyOf } from './load-subject-for-save.ts';

// Which stored derived values an evaluation changes, pure: what a save stores (`storeValuesAndAudit`)
// and what an amendment's impact analysis reports, so both follow the same rule.

/** One saved form's derived item whose stored value differs from the one the engine derived now. */
export interface DerivedValueChange {
  instanceId: number;
  visitKey: string;
  formKey: string;
  itemKey: string;
  /** The value stored; undefined when none is. */
  before: JsonValue | undefined;
  /** The value to store; undefined when the stored one is cleared (derived empty, or the form has no data). */
  after: JsonValue | undefined;
}

/**
 * The derived values of every saved form that differ from what is stored, in the order of the
 * definition's layouts. The derivations ran over the whole subject (`evaluation.data`), whichever
 * forms the caller walked.
 */
export function derivedValueChanges(
  definition: StudyDefinition,
  stored: StoredSubjectData,
  evaluation: SubjectEvaluation,
): DerivedValueChange[] {
  const changes: DerivedValueChange[] = [];
  for (const layout of layoutsForData(definition, evaluation.data)) {
    const { visitKey, form } = layout;
    const previous = formValues(stored.derived, visitKey, form.key);
    // Most forms derive nothing and have nothing derived stored.
    if (layout.derivedItems.length === 0 && Object.keys(previous).length === 0) continue;
    const instance = stored.instances.get(formKeyOf(visitKey, form.key));
    if (!instance) continue;
    const derived = derivedValuesOf(layout, formValues(evaluation.data, visitKey, form.key));
    for (const itemKey of new Set([...Object.keys(previous), ...Object.keys(derived)])) {
      const value = derived[itemKey];
      if (sameEntry(previous[itemKey], value)) continue;
      changes.push({
        instanceId: instance.id,
        visitKey,
        formKey: form.key,
        itemKey,
        before: previous[itemKey],
        after: isEmptyEntry(value) || !instance.has_data ? undefined : (value as JsonValue),
      });
    }
  }
  return changes;
}
