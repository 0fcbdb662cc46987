import {
  enteredFormValues,
  type FormLayout,
  type FormValues,
  isEmptyEntry,
  type JsonValue,
  type Language,
  type StudyDefinition,
  sameEntry,
} from '@cdms/study';
import { formatValue } from '../../../components/crf-form/crf-item.tsx';

// Form values for the detail page's dialogs (reasons, 409 merge, history). What counts as a change is
// the study package's rule (`@cdms/study` form-changes), the one the server applies to a save.

export interface ConflictRow {
  itemKey: string;
  /** The value the user started from (the version they loaded). */
  base: JsonValue;
  /** The user's value. */
  mine: JsonValue;
  /** The value now on the server. */
  theirs: JsonValue;
  mineChanged: boolean;
  theirsChanged: boolean;
}

export interface ConflictMerge {
  /** The items where the user's value and the server's differ and someone changed it. */
  rows: ConflictRow[];
  /** The server's current values with the user's own changes put back on top. */
  merged: FormValues;
}

/**
 * A 409 on save: someone saved the form since the user loaded it. The user sees, per item, their value
 * and the server's; "re-apply mine" starts from the server's version and puts back only what the user
 * changed (their untouched items take the other person's values, so nothing of theirs is overwritten by
 * a stale copy).
 */
export function mergeOnConflict(
  layout: FormLayout | undefined,
  base: FormValues | undefined,
  mine: FormValues | undefined,
  theirs: FormValues | undefined,
): ConflictMerge {
  const b = enteredFormValues(layout, base);
  const m = enteredFormValues(layout, mine);
  const s = enteredFormValues(layout, theirs);
  const merged: FormValues = { ...s };
  const rows: ConflictRow[] = [];
  for (const key of new Set([...Object.keys(b), ...Object.keys(m), ...Object.keys(s)])) {
    const mineChanged = !sameEntry(b[key], m[key]);
    const theirsChanged = !sameEntry(b[key], s[key]);
    if (mineChanged) {
      if (m[key] === undefined) delete merged[key];
      else merged[key] = m[key];
    }
    if ((mineChanged || theirsChanged) && !sameEntry(m[key], s[key])) {
      rows.push({
        itemKey: key,
        base: b[key] ?? null,
        mine: m[key] ?? null,
        theirs: s[key] ?? null,
        mineChanged,
        theirsChanged,
      });
    }
  }
  return { rows, merged };
}

/**
 * A server item path as the renderer writes it. The server names items `v1.vitalSigns.pulse` (queries,
 * checks, audit) or `vitalSigns.pulse` (value errors, reasons); the renderer `pulse` or `rows[0].pulse`.
 */
export function toFormItemPath(serverPath: string, visitKey: string, formKey: string): string {
  for (const prefix of [`${visitKey}.${formKey}.`, `${formKey}.`]) {
    if (serverPath.startsWith(prefix)) return serverPath.slice(prefix.length);
  }
  return serverPath;
}

/** The top-level item (or repeating group) key of an item path: `rows[0].pulse` → `rows`. */
export function topLevelKey(itemPath: string): string {
  return itemPath.split(/[.[]/)[0] ?? itemPath;
}

/** The label of an item or repeating group of the form, in the language; the key when it is unknown. */
export function itemLabel(layout: FormLayout | undefined, itemPath: string, language: Language): string {
  const key = topLevelKey(itemPath);
  const group = layout?.groups.get(key);
  if (group) {
    const match = /^[^[]+\[(\d+)\]\.(.+)$/.exec(itemPath);
    const column = match?.[2] ? group.items.find((item) => item.key === match[2]) : undefined;
    const row = match?.[1] !== undefined ? ` #${Number(match[1]) + 1}` : '';
    return column ? `${group.label[language]}${row} · ${column.label[language]}` : group.label[language];
  }
  return layout?.items.get(key)?.item.label[language] ?? itemPath;
}

/** A value as text for tables (history, reasons, conflicts): codes by label, rows counted. */
export function describeValue(
  definition: StudyDefinition,
  layout: FormLayout | undefined,
  itemPath: string,
  value: unknown,
  language: Language,
  rowsLabel: (count: number) => string,
): string {
  if (isEmptyEntry(value)) return '';
  const key = topLevelKey(itemPath);
  if (layout?.groups.has(key) && itemPath === key) {
    return Array.isArray(value) ? rowsLabel(value.length) : JSON.stringify(value);
  }
  const location = layout?.items.get(key);
  const column =
    location && itemPath !== key
      ? layout?.groups.get(key)?.items.find((item) => itemPath.endsWith(`.${item.key}`))
      : undefined;
  const item = column ?? location?.item;
  if (!item) return typeof value === 'string' ? value : JSON.stringify(value);
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return JSON.stringify(value);
  return formatValue(definition, item, value as JsonValue, language);
}
