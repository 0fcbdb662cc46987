import { type ItemDefinition, type StudyDefinition, sectionsForVisit } from '@cdms/study';

// Where a definition's items stand: the summary labels its figures with them, the read model's
// summary rows find the visits that collect a measure.

/** The item `itemKey` of `formKey` as the form is laid out at `visitKey`, if it is there. */
export function itemAt(
  definition: StudyDefinition,
  formKey: string,
  visitKey: string,
  itemKey: string,
): ItemDefinition | undefined {
  const form = definition.forms.find((entry) => entry.key === formKey);
  if (!form) return undefined;
  return sectionsForVisit(form, visitKey)
    .flatMap((section) => section.items)
    .find((item) => item.key === itemKey);
}

/** The visits, in definition order, whose layout of `formKey` holds `itemKey`. */
export function visitsCollecting(definition: StudyDefinition, formKey: string, itemKey: string): string[] {
  return definition.visits
    .filter((visit) => visit.forms.includes(formKey) && itemAt(definition, formKey, visit.key, itemKey))
    .map((visit) => visit.key);
}
