import type { z } from 'zod';
import type { LocalizedText } from '../model/localized-text.ts';
import {
  type CheckDefinition,
  type Code,
  type CodeList,
  checkSchema,
  codeListSchema,
  codeSchema,
  type FormDefinition,
  type FormVariant,
  formSchema,
  formVariantSchema,
  type ItemDefinition,
  itemSchema,
  type OutcomeDefinition,
  outcomeSchema,
  type SectionDefinition,
  type StudyDefinition,
  sectionSchema,
  studyDefinitionSchema,
  unscheduledVisitSchema,
  type VisitDefinition,
  visitSchema,
} from '../model/study-definition.ts';
import { type FieldChange, fieldChanges, movedKeys } from './compare-values.ts';
import { type DiffSummary, summarizeDiff } from './summarize-diff.ts';

// The difference between two versions of a study definition, as a tree a reader follows: the study's own
// fields, then visits, the unscheduled visit, code lists and forms, each form down to its sections, items,
// checks, outcomes and variants. Elements are matched by their key (a check or an outcome by its id, a code
// by its code, a variant by the visits it serves): a renamed key reads as one element removed and another
// added, until amendments declare renames. Fields are compared generically, so a field the model gains
// later shows up without a change here; only the nested collections are named below.

/** Where a kept element stands, when it changed place: positions count from 1 among its siblings. */
export interface Move {
  from: number;
  to: number;
  /** Items only: the section before and after (the same when the item was reordered within its section). */
  fromSection?: string;
  toSection?: string;
}

/** An element both versions have (same key): its own fields that differ, and its move if it moved. */
export interface ElementChange<T> {
  key: string;
  before: T;
  after: T;
  /** The element's own fields, leaving out its nested collections (which have their own diff). */
  fields: FieldChange[];
  moved?: Move;
}

/** One collection of keyed elements: each list in document order (added and changed in the new one). */
export interface CollectionDiff<T, C extends ElementChange<T> = ElementChange<T>> {
  added: T[];
  removed: T[];
  /** Kept elements that differ in a field, moved, or hold a nested difference. */
  changed: C[];
}

export interface VisitChange extends ElementChange<VisitDefinition> {
  /** The forms the visit offers: keys added, removed, and kept ones that changed place. */
  forms: { added: string[]; removed: string[]; moved: string[] };
}

export interface CodeListChange extends ElementChange<CodeList> {
  /** Codes added, removed, relabelled (a `label` field change) and reordered. */
  codes: CollectionDiff<Code>;
}

/** An item with the section it stands in. */
export interface PlacedItem {
  section: string;
  sectionLabel: LocalizedText;
  item: ItemDefinition;
}

/** One layout of a form (its default sections, or a variant's): sections, and items across sections. */
export interface LayoutDiff {
  sections: CollectionDiff<SectionDefinition>;
  /** Items matched by key across the layout's sections: an item in another section is moved, not re-added. */
  items: CollectionDiff<PlacedItem>;
}

export interface VariantChange extends ElementChange<FormVariant> {
  layout: LayoutDiff;
}

export interface FormChange extends ElementChange<FormDefinition> {
  /** The default sections (used in every visit no variant lists). */
  layout: LayoutDiff;
  /** Variants keyed by the visits they serve (`v2+v3`): a variant whose visits change reads removed + added. */
  variants: CollectionDiff<FormVariant, VariantChange>;
  checks: CollectionDiff<CheckDefinition>;
  outcomes: CollectionDiff<OutcomeDefinition>;
}

export interface DefinitionDiff {
  /** The study's own fields: key, version, label, visit date, parameters, status rules, roles… */
  study: FieldChange[];
  visits: CollectionDiff<VisitDefinition, VisitChange>;
  /** The unscheduled visit's fields (label, forms); one absent in a version reads as fields from or to "—". */
  unscheduledVisit: FieldChange[];
  codeLists: CollectionDiff<CodeList, CodeListChange>;
  forms: CollectionDiff<FormDefinition, FormChange>;
  /** Every form's label (the new version's, else the old one's), for naming the forms a visit offers. */
  formLabels: Record<string, LocalizedText>;
  summary: DiffSummary;
}

/** The collections this file matches by key; every other field is compared by `fieldChanges`. */
const STUDY_COLLECTIONS = ['visits', 'unscheduledVisit', 'codeLists', 'forms'] as const;

/** What differs from `before` to `after`, both valid definitions (not necessarily of the same study). */
export function diffDefinitions(before: StudyDefinition, after: StudyDefinition): DefinitionDiff {
  const withoutSummary = {
    study: fieldChanges(before, after, studyDefinitionSchema, STUDY_COLLECTIONS),
    visits: diffCollection(before.visits, after.visits, (visit) => visit.key, diffVisit, visitChanged),
    unscheduledVisit: fieldChanges(
      before.unscheduledVisit ?? {},
      after.unscheduledVisit ?? {},
      unscheduledVisitSchema,
    ),
    codeLists: diffCollection(
      before.codeLists,
      after.codeLists,
      (list) => list.key,
      diffCodeList,
      (change) => change.fields.length > 0 || collectionChanged(change.codes),
    ),
    forms: diffCollection(before.forms, after.forms, (form) => form.key, diffForm, formChanged),
  };
  const formLabels: Record<string, LocalizedText> = {};
  for (const form of [...before.forms, ...after.forms]) formLabels[form.key] = form.label;
  return { ...withoutSummary, formLabels, summary: summarizeDiff(withoutSummary) };
}

/**
 * Matches two lists by key: added, removed, and kept elements that differ (per `compareKept` and
 * `differs`) or changed place among the kept ones. The first of a repeated key wins (a valid
 * definition repeats none).
 */
function diffCollection<T, C extends ElementChange<T>>(
  before: readonly T[],
  after: readonly T[],
  keyOf: (element: T) => string,
  compareKept: (key: string, before: T, after: T) => C,
  differs: (change: C) => boolean,
): CollectionDiff<T, C> {
  const old = firstByKey(before, keyOf);
  const now = firstByKey(after, keyOf);
  const moved = movedKeys([...old.keys()], [...now.keys()]);
  const oldPositions = positionsOf([...old.keys()].filter((key) => now.has(key)));
  const newPositions = positionsOf([...now.keys()].filter((key) => old.has(key)));
  const changed: C[] = [];
  for (const [key, element] of now) {
    const previous = old.get(key);
    if (previous === undefined) continue;
    const change = compareKept(key, previous, element);
    if (moved.has(key))
      change.moved = { from: oldPositions.get(key) as number, to: newPositions.get(key) as number };
    if (change.moved || differs(change)) changed.push(change);
  }
  return {
    added: [...now].filter(([key]) => !old.has(key)).map(([, element]) => element),
    removed: [...old].filter(([key]) => !now.has(key)).map(([, element]) => element),
    changed,
  };
}

function firstByKey<T>(elements: readonly T[], keyOf: (element: T) => string): Map<string, T> {
  const byKey = new Map<string, T>();
  for (const element of elements) if (!byKey.has(keyOf(element))) byKey.set(keyOf(element), element);
  return byKey;
}

/** 1-based positions of keys in a list. */
function positionsOf(keys: readonly string[]): Map<string, number> {
  return new Map(keys.map((key, index) => [key, index + 1]));
}

export function collectionChanged<T>(diff: CollectionDiff<T>): boolean {
  return diff.added.length > 0 || diff.removed.length > 0 || diff.changed.length > 0;
}

/** An element's own fields, leaving out the collections matched by key. */
function plainChange<T extends object>(
  key: string,
  before: T,
  after: T,
  schema: z.ZodType,
  nested: readonly string[] = [],
): ElementChange<T> {
  return { key, before, after, fields: fieldChanges(before, after, schema, [...nested]) };
}

const plainChanged = <T>(change: ElementChange<T>) => change.fields.length > 0;

function diffVisit(key: string, before: VisitDefinition, after: VisitDefinition): VisitChange {
  const offeredBefore = new Set(before.forms);
  const offeredAfter = new Set(after.forms);
  return {
    ...plainChange(key, before, after, visitSchema, ['key', 'forms']),
    forms: {
      added: after.forms.filter((form) => !offeredBefore.has(form)),
      removed: before.forms.filter((form) => !offeredAfter.has(form)),
      moved: [...movedKeys(before.forms, after.forms)],
    },
  };
}

function visitChanged(change: VisitChange): boolean {
  const { added, removed, moved } = change.forms;
  return change.fields.length > 0 || added.length + removed.length + moved.length > 0;
}

function diffCodeList(key: string, before: CodeList, after: CodeList): CodeListChange {
  return {
    ...plainChange(key, before, after, codeListSchema, ['key', 'codes']),
    codes: diffCollection(
      before.codes,
      after.codes,
      (code) => code.code,
      (code, old, now) => plainChange(code, old, now, codeSchema, ['code']),
      plainChanged,
    ),
  };
}

function diffForm(key: string, before: FormDefinition, after: FormDefinition): FormChange {
  return {
    ...plainChange(key, before, after, formSchema, ['key', 'sections', 'variants', 'checks', 'outcomes']),
    layout: diffLayout(before.sections, after.sections),
    variants: diffCollection(
      before.variants ?? [],
      after.variants ?? [],
      (variant) => variant.visits.join('+'),
      (variantKey, old, now): VariantChange => ({
        ...plainChange(variantKey, old, now, formVariantSchema, ['visits', 'sections']),
        layout: diffLayout(old.sections, now.sections),
      }),
      (change) => change.fields.length > 0 || layoutChanged(change.layout),
    ),
    checks: diffCollection(
      before.checks ?? [],
      after.checks ?? [],
      (check) => check.id,
      (id, old, now) => plainChange(id, old, now, checkSchema, ['id']),
      plainChanged,
    ),
    outcomes: diffCollection(
      before.outcomes ?? [],
      after.outcomes ?? [],
      (outcome) => outcome.id,
      (id, old, now) => plainChange(id, old, now, outcomeSchema, ['id']),
      plainChanged,
    ),
  };
}

function formChanged(change: FormChange): boolean {
  return (
    change.fields.length > 0 ||
    layoutChanged(change.layout) ||
    collectionChanged(change.variants) ||
    collectionChanged(change.checks) ||
    collectionChanged(change.outcomes)
  );
}

export function layoutChanged(layout: LayoutDiff): boolean {
  return collectionChanged(layout.sections) || collectionChanged(layout.items);
}

/**
 * Sections by key, and items by key across the sections: an item that went to another section is moved
 * (from one section to the other); one that changed place within its section is moved too, found per
 * section so that reordering whole sections moves no item.
 */
function diffLayout(before: SectionDefinition[], after: SectionDefinition[]): LayoutDiff {
  const sections = diffCollection(
    before,
    after,
    (section) => section.key,
    (key, old, now) => plainChange(key, old, now, sectionSchema, ['key', 'items']),
    plainChanged,
  );
  const placed = (layout: SectionDefinition[]) =>
    firstByKey(
      layout.flatMap((section) =>
        section.items.map(
          (item): PlacedItem => ({ section: section.key, sectionLabel: section.label, item }),
        ),
      ),
      (entry) => entry.item.key,
    );
  const old = placed(before);
  const now = placed(after);
  const reordered = new Set<string>();
  for (const section of after) {
    const stayed = (items: ItemDefinition[]) =>
      items
        .map((item) => item.key)
        .filter((key) => old.get(key)?.section === section.key && now.get(key)?.section === section.key);
    const previous = before.find((entry) => entry.key === section.key);
    if (!previous) continue;
    for (const key of movedKeys(stayed(previous.items), stayed(section.items))) reordered.add(key);
  }
  const positionIn = (layout: SectionDefinition[], entry: PlacedItem) =>
    (layout.find((section) => section.key === entry.section)?.items.indexOf(entry.item) ?? 0) + 1;
  const changed: ElementChange<PlacedItem>[] = [];
  for (const [key, entry] of now) {
    const previous = old.get(key);
    if (!previous) continue;
    const change: ElementChange<PlacedItem> = {
      key,
      before: previous,
      after: entry,
      fields: fieldChanges(previous.item, entry.item, itemSchema, ['key']),
    };
    if (previous.section !== entry.section || reordered.has(key)) {
      change.moved = {
        from: positionIn(before, previous),
        to: positionIn(after, entry),
        fromSection: previous.section,
        toSection: entry.section,
      };
    }
    if (change.moved || change.fields.length > 0) changed.push(change);
  }
  return {
    sections,
    items: {
      added: [...now].filter(([key]) => !old.has(key)).map(([, entry]) => entry),
      removed: [...old].filter(([key]) => !now.has(key)).map(([, entry]) => entry),
      changed,
    },
  };
}
