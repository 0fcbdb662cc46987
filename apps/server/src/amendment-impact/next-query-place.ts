import { type AmendmentChangeSet, migrateFormValues } from '@cdms/study';
import type { ActiveQuery } from '../after-change/form-change.ts';

// Where a stored query stands in the next version: its form and item renamed as the values are, and
// the check id of a built-in check (`form.item.range`, `.limit`, `.future`: the engine names them by
// form and item) with them, so it can be compared with the checks the next version's rules fail.

export interface QueryPlace {
  visitKey: string;
  formKey: string;
  /** The item path after "visit.form.": `item` or `group[row].item`. */
  itemPath: string;
  checkId: string | null;
}

const ITEM_PATH = /^([^.[\]]+)(\[\d+\])?(?:\.([^.[\]]+))?$/;

/** A query's place in the next version; null when its form, group or item is retired there. */
export function nextQueryPlace(
  changeSet: Pick<AmendmentChangeSet, 'plan'>,
  query: Pick<ActiveQuery, 'visit_key' | 'form_key' | 'item_path' | 'check_id'>,
): QueryPlace | null {
  const { visit_key: visitKey, form_key: formKey, check_id: checkId } = query;
  const prefix = `${visitKey}.${formKey}.`;
  const itemPath = query.item_path.startsWith(prefix)
    ? query.item_path.slice(prefix.length)
    : query.item_path;
  const plan = Object.hasOwn(changeSet.plan.forms, formKey) ? changeSet.plan.forms[formKey] : undefined;
  if (!plan) return { visitKey, formKey, itemPath, checkId };
  // The migration's own judgement of whether the form stays at this visit, and under which key.
  const nextForm = migrateFormValues(changeSet, visitKey, formKey, {}).formKey;
  if (nextForm === null) return null;
  const parts = ITEM_PATH.exec(itemPath);
  if (!parts) return { visitKey, formKey: nextForm, itemPath, checkId };
  const [, first, row, second] = parts as unknown as [string, string, string | undefined, string | undefined];
  const group = row !== undefined || second !== undefined ? first : undefined;
  const item = group === undefined ? first : second;
  if (group !== undefined && plan.groups[group] === false) return null;
  const itemPlan = item !== undefined && Object.hasOwn(plan.items, item) ? plan.items[item] : undefined;
  if (item === undefined || !itemPlan || itemPlan.group !== group)
    return { visitKey, formKey: nextForm, itemPath, checkId };
  if (itemPlan.to === null) return null;
  const nextPath = group === undefined ? itemPlan.to : `${group}${row ?? ''}.${itemPlan.to}`;
  const builtIn = `${formKey}.${item}.`;
  const nextCheckId =
    checkId?.startsWith(builtIn) === true
      ? `${nextForm}.${itemPlan.to}.${checkId.slice(builtIn.length)}`
      : checkId;
  return { visitKey, formKey: nextForm, itemPath: nextPath, checkId: nextCheckId };
}
