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

/** The visits, in definition order, collecting any of the `keyMeasures` role's items. */
export function measureVisitsOf(
  definition: StudyDefinition,
  role: { form: string; items: string[] },
): string[] {
  return definition.visits
    .map((visit) => visit.key)
    .filter((visitKey) =>
      role.items.some((itemKey) => visitsCollecting(definition, role.form, itemKey).includes(visitKey)),
    );
}

/**
 * The summary's change of the key measures: from the first visit collecting them to the last, when
 * they differ (the read model stores each subject's pair; the summary labels it).
 */
export function measureChangeOf(
  definition: StudyDefinition,
  role: { form: string; items: string[] },
): { fromVisit: string; toVisit: string } | null {
  const visits = measureVisitsOf(definition, role);
  const [fromVisit, toVisit] = [visits[0], visits.at(-1)];
  return fromVisit && toVisit && fromVisit !== toVisit ? { fromVisit, toVisit } : null;
}
