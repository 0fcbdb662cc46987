import {
  type AmendmentChangeSet,
  type FormPlan,
  type FormValues,
  type ItemPlan,
  type JsonValue,
  type MigratedForm,
  migrateFormValues,
  type SubjectData,
} from '@cdms/study';
import type { StoredSubjectData } from '../after-change/form-change.ts';
import { formValues } from '../data-entry/form-values.ts';
import { formKeyOf } from '../data-entry/load-subject-for-save.ts';
import type { FormInstanceRow } from '../db/schema.ts';
import type { PlacedImpact } from './impact-rows.ts';

// One subject's stored data moved to the next version by the study package's `migrateFormValues`,
// form by form, as the migration job will move it, and what the move does to each stored value
// (renamed, converted, re-coded, retired). The analysis then evaluates the moved data with the next
// version's rules, as a save would.

export interface MigratedSubject {
  /** The subject's data under the next version's keys: entered and derived values, form rows. */
  stored: StoredSubjectData;
  /** What moving the values does to them. */
  valueImpacts: PlacedImpact[];
  /** Per moved form ("visit.form", live keys): the live top-level keys whose value changes or is retired. */
  changedItems: Map<string, Set<string>>;
  /** The forms retired with their data ("visit.form", live keys). */
  retiredForms: Set<string>;
  /** Per kept form, its key in the next version ("visit.form") → its live form key. */
  liveFormKeys: Map<string, string>;
}

const isRow = (value: JsonValue): value is { [key: string]: JsonValue } =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Moves every stored form of the subject and describes what moving does to its values. */
export function migrateStoredSubject(
  changeSet: Pick<AmendmentChangeSet, 'plan'>,
  live: StoredSubjectData,
): MigratedSubject {
  const stored: StoredSubjectData = { entered: {}, derived: {}, instances: new Map() };
  const valueImpacts: PlacedImpact[] = [];
  const changedItems = new Map<string, Set<string>>();
  const retiredForms = new Set<string>();
  const liveFormKeys = new Map<string, string>();
  for (const [key, instance] of live.instances) {
    const { visit_key: visitKey, form_key: formKey } = instance;
    const entered = formValues(live.entered, visitKey, formKey);
    const derived = formValues(live.derived, visitKey, formKey);
    const movedEntered = migrateFormValues(changeSet, visitKey, formKey, entered);
    const movedDerived = migrateFormValues(changeSet, visitKey, formKey, derived);
    const formPlan = Object.hasOwn(changeSet.plan.forms, formKey) ? changeSet.plan.forms[formKey] : undefined;
    const changed = new Set<string>();
    if (formPlan) {
      const impacts = [
        ...formImpacts(formPlan, visitKey, formKey, entered, movedEntered, changed),
        ...formImpacts(formPlan, visitKey, formKey, derived, movedDerived, changed).filter(
          (impact) => impact.itemKey !== null,
        ),
      ];
      valueImpacts.push(...impacts);
    }
    changedItems.set(key, changed);
    if (movedEntered.formKey === null) {
      retiredForms.add(key);
      continue;
    }
    const next: FormInstanceRow = {
      ...instance,
      form_key: movedEntered.formKey,
      // A form whose every value is retired holds no data any more, as a save of no values would leave it.
      has_data: instance.has_data && Object.keys(movedEntered.values).length > 0,
    };
    stored.instances.set(formKeyOf(visitKey, next.form_key), next);
    liveFormKeys.set(formKeyOf(visitKey, next.form_key), formKey);
    putValues(stored.entered, visitKey, next.form_key, movedEntered.values);
    putValues(stored.derived, visitKey, next.form_key, movedDerived.values);
  }
  return { stored, valueImpacts, changedItems, retiredForms, liveFormKeys };
}

function putValues(data: SubjectData, visitKey: string, formKey: string, values: FormValues): void {
  if (Object.keys(values).length === 0) return;
  data[visitKey] ??= {};
  (data[visitKey] as Record<string, FormValues>)[formKey] = values;
}

/**
 * What moving one form's values did, value by value (a repeating group's rows item by item), read
 * from the plan and the moved values. `changed` collects the live top-level keys whose value is
 * converted, re-coded or retired (a group's key for any of its rows): the SDV marks those lose.
 */
function formImpacts(
  plan: FormPlan,
  visitKey: string,
  formKey: string,
  values: FormValues,
  moved: MigratedForm,
  changed: Set<string>,
): PlacedImpact[] {
  const impacts: PlacedImpact[] = [];
  const place = (kind: PlacedImpact['kind'], form: string, itemKey: string | null) => ({
    visitKey,
    formKey: form,
    itemKey,
    kind,
  });
  if (moved.formKey === null) {
    for (const [path, value] of valuePaths(values, plan.groups))
      impacts.push({ ...place('valueRetired', formKey, path), before: value, after: null });
    for (const key of Object.keys(values)) changed.add(key);
    return impacts;
  }
  const nextForm = moved.formKey;
  if (nextForm !== formKey)
    impacts.push({ ...place('valueRenamed', nextForm, null), before: formKey, after: nextForm });
  for (const [key, value] of Object.entries(values)) {
    if (Object.hasOwn(plan.groups, key)) {
      const rows = value;
      if (!plan.groups[key] || !Array.isArray(rows)) {
        for (const [path, retired] of valuePaths({ [key]: value }, plan.groups))
          impacts.push({ ...place('valueRetired', formKey, path), before: retired, after: null });
        changed.add(key);
        continue;
      }
      const movedRows = moved.values[key];
      rows.forEach((row, index) => {
        if (!isRow(row)) return;
        const movedRow = Array.isArray(movedRows) ? movedRows[index] : undefined;
        for (const [item, itemValue] of Object.entries(row)) {
          const itemPlan = planOf(plan, item, key);
          if (!itemPlan) continue;
          const after =
            itemPlan.to !== null && movedRow && isRow(movedRow) ? movedRow[itemPlan.to] : undefined;
          const itemImpacts = itemValueImpacts(itemPlan, `${key}[${index}].`, item, itemValue, after ?? null);
          impacts.push(
            ...itemImpacts.map((impact) => ({
              ...place(impact.kind, nextForm, impact.path),
              ...impact.values,
            })),
          );
          if (itemImpacts.some((impact) => impact.kind !== 'valueRenamed')) changed.add(key);
        }
      });
      continue;
    }
    const itemPlan = planOf(plan, key, undefined);
    if (!itemPlan) continue;
    const after = itemPlan.to === null ? null : (moved.values[itemPlan.to] ?? null);
    const itemImpacts = itemValueImpacts(itemPlan, '', key, value, after);
    impacts.push(
      ...itemImpacts.map((impact) => ({ ...place(impact.kind, nextForm, impact.path), ...impact.values })),
    );
    if (itemImpacts.some((impact) => impact.kind !== 'valueRenamed')) changed.add(key);
  }
  return impacts;
}

/** The plan of a live item stored at the form's top (`group` undefined) or in a group's rows. */
function planOf(plan: FormPlan, item: string, group: string | undefined): ItemPlan | undefined {
  const itemPlan = Object.hasOwn(plan.items, item) ? plan.items[item] : undefined;
  // A key the live version does not know, or knows elsewhere, is kept as it is by the migration.
  return itemPlan && itemPlan.group === group ? itemPlan : undefined;
}

interface ItemValueImpact {
  kind: PlacedImpact['kind'];
  path: string;
  values: { before: JsonValue | null; after: JsonValue | null };
}

/**
 * One stored value's move: retired, or renamed and then converted (which also shows a re-coding of
 * the same value: one row) or re-coded. `after` is the value as `migrateFormValues` moved it.
 */
function itemValueImpacts(
  plan: ItemPlan,
  rowPrefix: string,
  item: string,
  before: JsonValue,
  after: JsonValue,
): ItemValueImpact[] {
  const livePath = `${rowPrefix}${item}`;
  if (plan.to === null) return [{ kind: 'valueRetired', path: livePath, values: { before, after: null } }];
  const nextPath = `${rowPrefix}${plan.to}`;
  const impacts: ItemValueImpact[] = [];
  if (plan.to !== item)
    impacts.push({ kind: 'valueRenamed', path: nextPath, values: { before: livePath, after: nextPath } });
  if (plan.convert) impacts.push({ kind: 'valueConverted', path: nextPath, values: { before, after } });
  else if (plan.codes && JSON.stringify(before) !== JSON.stringify(after))
    impacts.push({ kind: 'valueRecoded', path: nextPath, values: { before, after } });
  return impacts;
}

/** A form's values as [path, value]: a repeating group's rows item by item (`group[row].item`). */
function valuePaths(values: FormValues, groups: Record<string, boolean>): Array<[string, JsonValue]> {
  const paths: Array<[string, JsonValue]> = [];
  for (const [key, value] of Object.entries(values)) {
    if (!Object.hasOwn(groups, key) || !Array.isArray(value)) {
      paths.push([key, value]);
      continue;
    }
    value.forEach((row, index) => {
      if (!isRow(row)) paths.push([`${key}[${index}]`, row]);
      else
        for (const [item, itemValue] of Object.entries(row))
          paths.push([`${key}[${index}].${item}`, itemValue]);
    });
  }
  return paths;
}
