import {
  type CheckDefinition,
  type FormDefinition,
  formKeys,
  type ItemDefinition,
  type ItemType,
  type LocalizedText,
  type OutcomeDefinition,
  type SectionDefinition,
} from '@cdms/study';
import { move, replaceAt } from './list-edits.ts';

/**
 * The form editor's edits, as pure functions from a form to the next form: sections and items added,
 * changed, moved and removed. Each gives the same form back when nothing changes (a move past the
 * end), so the designer's history records no empty step. The page applies the result with the
 * reducer's `replaceForm` edit (designer-state.ts).
 */

/** Where an item sits in its form. */
export interface ItemPlace {
  sectionIndex: number;
  itemIndex: number;
}

/** Choice items need a code list: the types that take one. */
export function takesCodeList(type: ItemType): boolean {
  return type === 'singleChoice' || type === 'multipleChoice';
}

/** Number items have a unit, a range and hard limits. */
export function isNumberType(type: ItemType): boolean {
  return type === 'integer' || type === 'decimal';
}

/**
 * A new item of a type: its key and label, and what the type needs to be valid — a code list for a
 * choice (the study's first, to be changed in its properties), one decimal for a decimal number.
 */
export function newItem(
  type: ItemType,
  key: string,
  label: LocalizedText,
  codeListKeys: readonly string[],
): ItemDefinition {
  const item: ItemDefinition = { key, type, label };
  if (takesCodeList(type) && codeListKeys[0] !== undefined) item.codeList = codeListKeys[0];
  if (type === 'decimal') item.decimals = 1;
  return item;
}

/**
 * Every key a new item of this form may not take: its items' and its repeating groups' keys in any of
 * its layouts (the package's `formKeys`, the keys an expression may name in the form).
 */
export function keysOfForm(form: FormDefinition): string[] {
  return formKeys(form).map((entry) => entry.key);
}

export function addSection(form: FormDefinition, section: SectionDefinition): FormDefinition {
  return { ...form, sections: [...form.sections, section] };
}

export function updateSection(
  form: FormDefinition,
  sectionIndex: number,
  change: (section: SectionDefinition) => SectionDefinition,
): FormDefinition {
  if (!form.sections[sectionIndex]) return form;
  return { ...form, sections: replaceAt(form.sections, sectionIndex, change) };
}

/** A section moved to the place `to` (one place by its buttons, anywhere by a drag). */
export function moveSection(form: FormDefinition, sectionIndex: number, to: number): FormDefinition {
  const sections = move(form.sections, sectionIndex, to);
  return sections === form.sections ? form : { ...form, sections };
}

/** A form keeps at least one section (the model wants one). */
export function removeSection(form: FormDefinition, sectionIndex: number): FormDefinition {
  if (form.sections.length <= 1 || !form.sections[sectionIndex]) return form;
  return { ...form, sections: form.sections.filter((_, index) => index !== sectionIndex) };
}

export function addItem(form: FormDefinition, sectionIndex: number, item: ItemDefinition): FormDefinition {
  return updateSection(form, sectionIndex, (section) => ({ ...section, items: [...section.items, item] }));
}

export function updateItem(form: FormDefinition, place: ItemPlace, item: ItemDefinition): FormDefinition {
  if (!form.sections[place.sectionIndex]?.items[place.itemIndex]) return form;
  return updateSection(form, place.sectionIndex, (section) => ({
    ...section,
    items: replaceAt(section.items, place.itemIndex, () => item),
  }));
}

/**
 * An item moved one place up or down: within its section, or across into the next section (its first
 * place) or the previous one (its last place) when it is already at the edge.
 */
export function moveItem(form: FormDefinition, place: ItemPlace, by: -1 | 1): FormDefinition {
  const section = form.sections[place.sectionIndex];
  if (!section) return form;
  const target = place.itemIndex + by;
  if (target >= 0 && target < section.items.length)
    return moveItemTo(form, place, { sectionIndex: place.sectionIndex, itemIndex: target });
  const nextSectionIndex = place.sectionIndex + by;
  const nextSection = form.sections[nextSectionIndex];
  if (!nextSection) return form;
  return moveItemTo(form, place, {
    sectionIndex: nextSectionIndex,
    itemIndex: by === 1 ? 0 : nextSection.items.length,
  });
}

/**
 * An item moved to a place: in its own section the place it ends up at, in another section the place
 * it is inserted before (its length, or more in its own: at the end). Where a drag drops it, and what the buttons use.
 */
export function moveItemTo(form: FormDefinition, from: ItemPlace, to: ItemPlace): FormDefinition {
  const item = form.sections[from.sectionIndex]?.items[from.itemIndex];
  const targetSection = form.sections[to.sectionIndex];
  if (!item || !targetSection) return form;
  if (from.sectionIndex === to.sectionIndex) {
    // Dropped on its own section: it goes last.
    const last = targetSection.items.length - 1;
    const items = move(targetSection.items, from.itemIndex, Math.min(to.itemIndex, last));
    return items === targetSection.items
      ? form
      : updateSection(form, to.sectionIndex, (current) => ({ ...current, items }));
  }
  if (to.itemIndex < 0 || to.itemIndex > targetSection.items.length) return form;
  const removed = updateSection(form, from.sectionIndex, (current) => ({
    ...current,
    items: current.items.filter((_, index) => index !== from.itemIndex),
  }));
  return updateSection(removed, to.sectionIndex, (current) => ({
    ...current,
    items: [...current.items.slice(0, to.itemIndex), item, ...current.items.slice(to.itemIndex)],
  }));
}

export function removeItem(form: FormDefinition, place: ItemPlace): FormDefinition {
  if (!form.sections[place.sectionIndex]?.items[place.itemIndex]) return form;
  return updateSection(form, place.sectionIndex, (section) => ({
    ...section,
    items: section.items.filter((_, index) => index !== place.itemIndex),
  }));
}

/** `<prefix><n>` with the first n from 1 that none of `taken` has as its id. */
function numberedId(prefix: string, taken: readonly { id: string }[]): string {
  const ids = new Set(taken.map((element) => element.id));
  let number = 1;
  while (ids.has(`${prefix}${number}`)) number += 1;
  return `${prefix}${number}`;
}

/**
 * A new edit check on an item: an id no other check of the form has (`<item>Check<n>`), severity query,
 * a condition that never fails (`false`, to be written) and an empty message in both languages.
 */
export function newCheck(form: FormDefinition, itemKey: string): CheckDefinition {
  return {
    id: numberedId(`${itemKey}Check`, form.checks ?? []),
    item: itemKey,
    when: false,
    severity: 'query',
    message: { ko: '', en: '' },
  };
}

export function addCheck(form: FormDefinition, check: CheckDefinition): FormDefinition {
  return { ...form, checks: [...(form.checks ?? []), check] };
}

/** The check at `index` of the form's checks changed. */
export function updateCheck(form: FormDefinition, index: number, check: CheckDefinition): FormDefinition {
  if (!form.checks?.[index]) return form;
  return { ...form, checks: replaceAt(form.checks, index, () => check) };
}

/** The check at `index` removed; a form left without checks has none (no empty list). */
export function removeCheck(form: FormDefinition, index: number): FormDefinition {
  if (!form.checks?.[index]) return form;
  const checks = form.checks.filter((_, at) => at !== index);
  const { checks: _removed, ...rest } = form;
  return checks.length > 0 ? { ...rest, checks } : rest;
}

/**
 * A new routing outcome of the form: an id no other outcome of the form has (`<form>Outcome<n>`), a
 * condition that never holds (`false`, to be written) and an empty message in both languages.
 */
export function newOutcome(form: FormDefinition): OutcomeDefinition {
  return {
    id: numberedId(`${form.key}Outcome`, form.outcomes ?? []),
    kind: 'goToEndOfStudy',
    when: false,
    message: { ko: '', en: '' },
  };
}

export function addOutcome(form: FormDefinition, outcome: OutcomeDefinition): FormDefinition {
  return { ...form, outcomes: [...(form.outcomes ?? []), outcome] };
}

export function updateOutcome(
  form: FormDefinition,
  index: number,
  outcome: OutcomeDefinition,
): FormDefinition {
  if (!form.outcomes?.[index]) return form;
  return { ...form, outcomes: replaceAt(form.outcomes, index, () => outcome) };
}

/** The outcome at `index` removed; a form left without outcomes has none (no empty list). */
export function removeOutcome(form: FormDefinition, index: number): FormDefinition {
  if (!form.outcomes?.[index]) return form;
  const outcomes = form.outcomes.filter((_, at) => at !== index);
  const { outcomes: _removed, ...rest } = form;
  return outcomes.length > 0 ? { ...rest, outcomes } : rest;
}

/** The place an item was moved to by `moveItem` (for keeping it selected); the same place when it did not move. */
export function placeAfterMove(form: FormDefinition, place: ItemPlace, by: -1 | 1): ItemPlace {
  const section = form.sections[place.sectionIndex];
  if (!section) return place;
  const target = place.itemIndex + by;
  if (target >= 0 && target < section.items.length) return { ...place, itemIndex: target };
  const nextSection = form.sections[place.sectionIndex + by];
  if (!nextSection) return place;
  return { sectionIndex: place.sectionIndex + by, itemIndex: by === 1 ? 0 : nextSection.items.length };
}

/**
 * A form's layouts (issue 48 item 3): the default sections, or a variant's for the visits it lists. The
 * editor edits one layout as if it were the form (`formInLayout`), and puts the edited sections back
 * where they came from (`formFromLayout`); the checks and outcomes stay the form's own.
 */
export function formInLayout(form: FormDefinition, layout: number | null): FormDefinition {
  const variant = layout === null ? undefined : form.variants?.[layout];
  return variant ? { ...form, sections: variant.sections } : form;
}

export function formFromLayout(
  form: FormDefinition,
  layout: number | null,
  edited: FormDefinition,
): FormDefinition {
  const variants = form.variants;
  if (layout === null || !variants?.[layout]) return edited;
  const { sections, ...rest } = edited;
  return {
    ...rest,
    sections: form.sections,
    variants: replaceAt(variants, layout, (variant) => ({ ...variant, sections })),
  };
}

/** A new layout for `visits`, starting as a copy of the default sections. */
export function addVariant(form: FormDefinition, visits: string[]): FormDefinition {
  return { ...form, variants: [...(form.variants ?? []), { visits, sections: form.sections }] };
}

/** A layout's visits changed; a layout keeps at least one visit (the model wants one). */
export function setVariantVisits(form: FormDefinition, layout: number, visits: string[]): FormDefinition {
  if (visits.length === 0 || !form.variants?.[layout]) return form;
  return { ...form, variants: replaceAt(form.variants, layout, (variant) => ({ ...variant, visits })) };
}

export function removeVariant(form: FormDefinition, layout: number): FormDefinition {
  if (!form.variants?.[layout]) return form;
  const variants = form.variants.filter((_, index) => index !== layout);
  const { variants: _previous, ...rest } = form;
  return variants.length === 0 ? rest : { ...rest, variants };
}
