import type { CodingKindName } from '@cdms/contract';
import type { StudyDefinition } from '@cdms/study';

/** Where a study's verbatims to code are written: a repeating group's text item in one form. */
export interface CodingTarget {
  kind: CodingKindName;
  visitKey: string;
  formKey: string;
  groupKey: string;
  itemKey: string;
}

/**
 * What the study definition names for coding (docs/STUDY-DEFINITION.md "Roles"): the adverse events'
 * `term` (MedDRA) and the medications' `name` (WHODrug). A study without the roles codes nothing.
 */
export function codingTargets(definition: StudyDefinition): CodingTarget[] {
  const targets: CodingTarget[] = [];
  const events = definition.roles?.adverseEvents;
  if (events?.term)
    targets.push({
      kind: 'meddra',
      visitKey: events.visit,
      formKey: events.form,
      groupKey: events.rows,
      itemKey: events.term,
    });
  const medications = definition.roles?.medications;
  if (medications)
    targets.push({
      kind: 'whodrug',
      visitKey: medications.visit,
      formKey: medications.form,
      groupKey: medications.rows,
      itemKey: medications.name,
    });
  return targets;
}

/** The verbatims of a form's values under `target`, by row index (an empty or non-text cell: none). */
export function verbatimsOf(values: Record<string, unknown>, target: CodingTarget): Map<number, string> {
  const rows = values[target.groupKey];
  const verbatims = new Map<number, string>();
  if (!Array.isArray(rows)) return verbatims;
  rows.forEach((row, index) => {
    const value =
      row && typeof row === 'object' ? (row as Record<string, unknown>)[target.itemKey] : undefined;
    if (typeof value === 'string' && value.trim() !== '') verbatims.set(index, value.trim());
  });
  return verbatims;
}
