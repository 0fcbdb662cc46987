import { isUnscheduledVisitKey } from '../engine/visit-keys.ts';
import type { FormValues, JsonValue } from '../model/json-value.ts';
import type { AmendmentChangeSet, ItemPlan } from './change-set.ts';
import { convertValue } from './conversions.ts';

// Moving one subject's stored values of one form at one visit per an amendment's change set: renames
// applied, codes mapped (in repeating-group rows and multiple-choice lists too), types converted, and
// retired values moved out into `retired`, never dropped. Pure: the server's migration job runs it per
// stored form and keeps `retired` in the database, exports and history.

export interface MigratedForm {
  /** The form's key in the next version; null when nothing of it stays enterable (form or visit retired). */
  formKey: string | null;
  /** The values under the next version's keys. */
  values: FormValues;
  /**
   * Retired values under their live keys: a retired item's value, or per repeating group the rows' retired
   * parts (row for row, `{}` where a row retired nothing). Empty when nothing was retired.
   */
  retired: FormValues;
}

const isRow = (value: JsonValue): value is { [key: string]: JsonValue } =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** One value as the next version stores it: codes mapped first (they are live codes), then converted. */
function migrateValue(plan: ItemPlan, value: JsonValue): JsonValue {
  let result = value;
  const codes = plan.codes;
  if (codes) {
    const map = (code: JsonValue) =>
      typeof code === 'string' && Object.hasOwn(codes, code) ? (codes[code] as string) : code;
    result = Array.isArray(result) ? result.map(map) : map(result);
  }
  if (plan.convert) result = convertValue(plan.convert.from, plan.convert.to, result);
  return result;
}

/** Splits values (a form's top or one row) into kept (next keys) and retired (live keys). */
function splitValues(
  items: Record<string, ItemPlan>,
  values: Record<string, JsonValue>,
  group: string | undefined,
  groups: Record<string, boolean>,
): { kept: FormValues; retired: FormValues } {
  const kept: FormValues = {};
  const retired: FormValues = {};
  for (const [key, value] of Object.entries(values)) {
    if (group === undefined && Object.hasOwn(groups, key)) {
      if (!groups[key] || !Array.isArray(value)) {
        retired[key] = value;
        continue;
      }
      const rows = value.map((row) =>
        isRow(row) ? splitValues(items, row, key, groups) : { kept: row, retired: {} },
      );
      kept[key] = rows.map((row) => row.kept as JsonValue);
      if (rows.some((row) => Object.keys(row.retired).length > 0))
        retired[key] = rows.map((row) => row.retired);
      continue;
    }
    const plan = Object.hasOwn(items, key) ? items[key] : undefined;
    // A key the live version does not know stays as it is: the migration moves, it never judges.
    if (!plan || plan.group !== group) {
      kept[key] = value;
      continue;
    }
    if (plan.to === null) retired[key] = value;
    else kept[plan.to] = migrateValue(plan, value);
  }
  return { kept, retired };
}

/**
 * One stored form's values (live keys) at a visit, moved per the change set. A form the change set
 * does not know (not in the live version) comes back unchanged.
 */
export function migrateFormValues(
  changeSet: Pick<AmendmentChangeSet, 'plan'>,
  visitKey: string,
  formKey: string,
  values: FormValues,
): MigratedForm {
  const { plan } = changeSet;
  const form = Object.hasOwn(plan.forms, formKey) ? plan.forms[formKey] : undefined;
  if (!form) return { formKey, values: structuredClone(values), retired: {} };
  const removedHere = isUnscheduledVisitKey(visitKey)
    ? plan.formsRemovedFromUnscheduled.includes(formKey)
    : plan.visitsRemoved.includes(visitKey) ||
      (plan.formsRemovedFromVisits[visitKey] ?? []).includes(formKey);
  if (form.to === null || removedHere) return { formKey: null, values: {}, retired: structuredClone(values) };
  const { kept, retired } = splitValues(form.items, structuredClone(values), undefined, form.groups);
  return { formKey: form.to, values: kept, retired };
}
