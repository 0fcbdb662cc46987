import type { ReviewTable } from '@cdms/contract';
import type { LocalizedText, StudyDefinition } from '@cdms/study';
import { type FormTable, formTablesOf } from '../form-tables/table-layout.ts';
import { AppError } from '../http/errors.ts';

/**
 * The listings of a study are the per-form export's tables (form-tables/table-layout.ts): one per
 * form's plain items (`form`, a row per subject-visit form instance) and one per repeating group
 * (`form__group`, a row per row of the group). Reusing them keeps one flattening of the study model.
 */

/** The label of a repeating group: its section's, in the first layout that has it. */
function groupLabelOf(definition: StudyDefinition, table: FormTable): LocalizedText | null {
  if (table.groupKey === null) return null;
  const form = definition.forms.find((candidate) => candidate.key === table.formKey);
  const layouts = [form?.sections ?? [], ...(form?.variants ?? []).map((variant) => variant.sections)];
  for (const sections of layouts)
    for (const section of sections) if (section.repeating?.key === table.groupKey) return section.label;
  return null;
}

export function reviewTableOf(definition: StudyDefinition, table: FormTable): ReviewTable {
  return {
    name: table.name,
    formKey: table.formKey,
    formLabel: table.formLabel,
    groupKey: table.groupKey,
    groupLabel: groupLabelOf(definition, table),
  };
}

/** Every listing of the definition, in its forms' order. */
export function reviewTablesOf(definition: StudyDefinition): ReviewTable[] {
  return formTablesOf(definition).map((table) => reviewTableOf(definition, table));
}

/** The listing named `name`; 404 when the definition has none by that name. */
export function findReviewTable(definition: StudyDefinition, name: string): FormTable {
  const table = formTablesOf(definition).find((candidate) => candidate.name === name);
  if (!table) throw new AppError(404, 'not_found');
  return table;
}
