import {
  type FormLayout,
  type FormValues,
  isEmptyValue,
  type JsonValue,
  type Language,
  type StudyDefinition,
} from '@cdms/study';
import { formatValue } from '../../crf-form/crf-item.tsx';

// What changed in a form, for the reason-for-change modal, the unsaved-changes guard and the 409 merge.
// Values compare as the server compares them: empty values (null, '', [], {}) are "no value", derived
// items are not the user's (the server computes them), and rows compare by content.

/** A value with its empty parts removed and object keys sorted, so equal content serialises equally. */
function normalize(value: unknown): unknown {
  if (Array.isArray(value)) return value.length === 0 ? null : value.map(normalize);
  if (value !== null && typeof value === 'object') {
    const result: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const inner = normalize((value as Record<string, unknown>)[key]);
      if (!isEmptyValue(inner)) result[key] = inner;
    }
    return result;
  }
  return isEmptyValue(value) ? null : value;
}

export function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(normalize(a) ?? null) === JSON.stringify(normalize(b) ?? null);
}

function derivedKeys(layout: FormLayout | undefined): Set<string> {
  return new Set(layout?.derivedItems.map((item) => item.key) ?? []);
}

/** The values a person entered: derived items and empty values left out (what a save sends and compares). */
export function enteredValues(layout: FormLayout | undefined, values: FormValues | undefined): FormValues {
  const derived = derivedKeys(layout);
  const result: FormValues = {};
  for (const [key, value] of Object.entries(values ?? {})) {
    if (!derived.has(key) && !isEmptyValue(normalize(value))) result[key] = value;
  }
  return result;
}

/** Keys of the items whose entered value differs between two versions of a form. */
export function changedItemKeys(
  layout: FormLayout | undefined,
  before: FormValues | undefined,
  after: FormValues | undefined,
): string[] {
  const a = enteredValues(layout, before);
  const b = enteredValues(layout, after);
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((key) => !sameValue(a[key], b[key]));
}

/** The changed items that need a reason: a saved value that is changed or cleared (not a first entry). */
export function itemsNeedingReason(
  layout: FormLayout | undefined,
  saved: FormValues | undefined,
  edited: FormValues | undefined,
): string[] {
  const a = enteredValues(layout, saved);
  return changedItemKeys(layout, saved, edited).filter((key) => a[key] !== undefined);
}

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
  const b = enteredValues(layout, base);
  const m = enteredValues(layout, mine);
  const s = enteredValues(layout, theirs);
  const merged: FormValues = { ...s };
  const rows: ConflictRow[] = [];
  for (const key of new Set([...Object.keys(b), ...Object.keys(m), ...Object.keys(s)])) {
    const mineChanged = !sameValue(b[key], m[key]);
    const theirsChanged = !sameValue(b[key], s[key]);
    if (mineChanged) {
      if (m[key] === undefined) delete merged[key];
      else merged[key] = m[key];
    }
    if ((mineChanged || theirsChanged) && !sameValue(m[key], s[key])) {
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
  if (isEmptyValue(normalize(value))) return '';
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
