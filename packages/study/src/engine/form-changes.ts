import type { FormValues, JsonValue } from '../model/json-value.ts';
import { isEmptyValue } from './evaluate-expression.ts';
import type { FormLayout } from './study-index.ts';

// What changed in a form between two versions of its values, and which changes need a reason. The
// browser asks for the reasons before it sends a save; the server refuses a save without them
// (422 reason_required). Both run this one rule, so a normal change never meets the server's refusal.
//
// Values compare by content: empty values (null, '', blank text, []) are "no value", empty parts of
// rows are left out, object keys are compared in sorted order, and derived items are not the user's
// (the server computes them).

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

/** Whether a value holds nothing a person entered (empty, blank, or only empty parts). */
export function isEmptyEntry(value: unknown): boolean {
  return isEmptyValue(normalize(value));
}

/** Whether two values of an item hold the same entry. */
export function sameEntry(a: unknown, b: unknown): boolean {
  return JSON.stringify(normalize(a) ?? null) === JSON.stringify(normalize(b) ?? null);
}

/** The values a person entered: derived items and empty values left out (what a save stores). */
export function enteredFormValues(
  layout: FormLayout | undefined,
  values: FormValues | undefined,
): FormValues {
  const derived = new Set(layout?.derivedItems.map((item) => item.key) ?? []);
  const result: FormValues = {};
  for (const [key, value] of Object.entries(values ?? {})) {
    if (!derived.has(key) && !isEmptyEntry(value)) result[key] = value as JsonValue;
  }
  return result;
}

/** Keys of the items whose entered value differs between two versions of a form. */
export function changedItemKeys(
  layout: FormLayout | undefined,
  before: FormValues | undefined,
  after: FormValues | undefined,
): string[] {
  const a = enteredFormValues(layout, before);
  const b = enteredFormValues(layout, after);
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((key) => !sameEntry(a[key], b[key]));
}

/**
 * The changed items that need a reason for change (product.md "Audit trail"): a saved value that is
 * changed or cleared. A first entry needs none.
 */
export function itemsNeedingReason(
  layout: FormLayout | undefined,
  saved: FormValues | undefined,
  edited: FormValues | undefined,
): string[] {
  const a = enteredFormValues(layout, saved);
  return changedItemKeys(layout, saved, edited).filter((key) => a[key] !== undefined);
}
