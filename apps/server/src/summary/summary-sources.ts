import { getStudyIndex, type ItemDefinition, type StudyDefinition, sectionsForVisit } from '@cdms/study';
import { itemAt } from '../studies/definition-items.ts';

// What the summary reads of the study are its roles: the clinical figures' forms are `healing` and
// `keyMeasures` (whose values the read model's visit rows store: `visit-facts.ts`), the groups are the
// codes of `randomization`'s group item. Below, what the summary's queries share.

/** The randomization groups with their labels (the `randomization` role's group item), none without the role. */
export function randomizationGroupsOf(definition: StudyDefinition) {
  const role = definition.roles?.randomization;
  const group = role ? itemAt(definition, role.form, role.visit, role.group) : undefined;
  return group?.codeList ? codesOf(definition, group.codeList) : [];
}

/**
 * The key measures (item keys of `formKey`, each with the visits collecting it) named as their items at
 * the first of those visits, with their units. Two measures whose items share a label (the same
 * "Average threshold" in the air and the bone section) are told apart by their sections' labels.
 */
export function measuresOf(definition: StudyDefinition, formKey: string, collecting: Map<string, string[]>) {
  const form = definition.forms.find((entry) => entry.key === formKey);
  const found = [...collecting].map(([itemKey, visitKeys]) => {
    const firstVisit = visitKeys[0];
    const section =
      form && firstVisit
        ? sectionsForVisit(form, firstVisit).find((entry) => entry.items.some((item) => item.key === itemKey))
        : undefined;
    return { itemKey, section, item: section?.items.find((item) => item.key === itemKey) };
  });
  const sameLabel = (a: ItemDefinition | undefined, b: ItemDefinition | undefined) =>
    a !== undefined && b !== undefined && a.label.en === b.label.en && a.label.ko === b.label.ko;
  return found.map(({ itemKey, section, item }) => {
    if (!item) return { key: itemKey, label: { ko: itemKey, en: itemKey }, unit: null };
    const shared = found.filter((other) => sameLabel(other.item, item)).length > 1;
    const label =
      shared && section
        ? {
            ko: `${section.label.ko} – ${item.label.ko}`,
            en: `${section.label.en} – ${item.label.en}`,
          }
        : { ko: item.label.ko, en: item.label.en };
    return { key: itemKey, label, unit: item.unit ?? null };
  });
}

/** The codes of a code list with their labels, in the list's order. */
export function codesOf(definition: StudyDefinition, codeList: string) {
  return (getStudyIndex(definition).codeLists.get(codeList) ?? []).map((entry) => ({
    code: entry.code,
    label: { ko: entry.label.ko, en: entry.label.en },
  }));
}
