import { z } from 'zod';

// The generic half of a definition diff: whether two values say the same, which fields of an element
// differ, and which kept elements changed place. The definition-specific half (which collections are
// matched by key) is in diff-definitions.ts.

/** One field of an element that differs between two versions, with the values as they were. */
export interface FieldChange {
  /** The field's name; a field inside an object field (a visit window, a role) reads `window.plusDays`. */
  field: string;
  /** `undefined` when the field was absent before. */
  before: unknown;
  /** `undefined` when the field is absent now. */
  after: unknown;
}

/**
 * Whether two parts of a definition say the same, whatever the order of their keys: a definition
 * stored in PostgreSQL (jsonb orders keys its own way) equals the same definition as a file wrote it.
 * A field set to `undefined` counts as absent. The import preview (convert/compare-definitions.ts)
 * compares with it too.
 */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((value, index) => sameValue(value, b[index]));
  const aEntries = Object.entries(a).filter(([, value]) => value !== undefined);
  const bObject = b as Record<string, unknown>;
  const bCount = Object.values(bObject).filter((value) => value !== undefined).length;
  return aEntries.length === bCount && aEntries.every(([key, value]) => sameValue(value, bObject[key]));
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A `{ ko, en }` label: read whole ("ko / en"), never opened into two fields. */
export function isLocalizedText(value: unknown): value is { ko: string; en: string } {
  if (!isPlainObject(value)) return false;
  const keys = Object.keys(value).filter((key) => value[key] !== undefined);
  return keys.length === 2 && typeof value.ko === 'string' && typeof value.en === 'string';
}

/** An expression node (`{ op, args }`, `{ ref }`, `{ param }`): read whole, as one value. */
export function isExpressionObject(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  const keys = Object.keys(value).filter((key) => value[key] !== undefined);
  if (keys.length === 1 && (keys[0] === 'ref' || keys[0] === 'param')) return true;
  return keys.includes('op') && keys.every((key) => key === 'op' || key === 'args' || key === 'bands');
}

/** An object field a reader wants opened: a change in it names the field within (`window.plusDays`). */
function opensUp(value: unknown): value is Record<string, unknown> {
  return isPlainObject(value) && !isLocalizedText(value) && !isExpressionObject(value);
}

/** The schema of a field of an object schema, with `.optional()` taken off; undefined when unknown. */
function fieldSchema(schema: z.ZodType | undefined, field: string): z.ZodType | undefined {
  let inner: z.ZodType | undefined = schema;
  while (inner instanceof z.ZodOptional) inner = inner.unwrap() as z.ZodType;
  if (inner instanceof z.ZodObject) return (inner.shape as Record<string, z.ZodType>)[field];
  if (inner instanceof z.ZodRecord) return inner.valueType as z.ZodType;
  return undefined;
}

/** The fields in the order the schema declares them (the order a reader knows), then any others by name. */
function fieldOrder(schema: z.ZodType | undefined, keys: Set<string>): string[] {
  let inner: z.ZodType | undefined = schema;
  while (inner instanceof z.ZodOptional) inner = inner.unwrap() as z.ZodType;
  const declared = inner instanceof z.ZodObject ? Object.keys(inner.shape) : [];
  const known = declared.filter((key) => keys.has(key));
  const others = [...keys].filter((key) => !declared.includes(key)).sort();
  return [...known, ...others];
}

/**
 * The fields of an element that differ between two versions, leaving out `nested` (its collections,
 * which are matched by key on their own). Every field either version has is compared — a field the model
 * gains later shows up here without a change to this code. Object fields are opened (`window.plusDays`,
 * `roles.demographics.sex`, `parameters.windowDays.value`); labels and expressions are compared whole.
 */
export function fieldChanges(
  before: object,
  after: object,
  schema: z.ZodType | undefined,
  nested: readonly string[] = [],
  prefix = '',
): FieldChange[] {
  const old = before as Record<string, unknown>;
  const now = after as Record<string, unknown>;
  const keys = new Set([...Object.keys(old), ...Object.keys(now)].filter((key) => !nested.includes(key)));
  const changes: FieldChange[] = [];
  for (const key of fieldOrder(schema, keys)) {
    const a = old[key];
    const b = now[key];
    if (sameValue(a, b)) continue;
    if (opensUp(a) && opensUp(b)) {
      changes.push(...fieldChanges(a, b, fieldSchema(schema, key), [], `${prefix}${key}.`));
    } else {
      changes.push({ field: `${prefix}${key}`, before: a, after: b });
    }
  }
  return changes;
}

/**
 * Which of the keys both orders keep changed place: all but the longest run that keeps its relative
 * order (a longest increasing subsequence, O(n log n)). Inserting or removing an element therefore moves
 * nothing, and swapping two neighbours moves one of them.
 */
export function movedKeys(before: readonly string[], after: readonly string[]): Set<string> {
  const afterIndex = new Map(after.map((key, index) => [key, index]));
  const kept = before.filter((key) => afterIndex.has(key));
  const beforeSet = new Set(before);
  const positions = kept.map((key) => afterIndex.get(key) as number);
  // Patience sorting: tails[k] is the index (into positions) of the smallest tail of a run of length k+1.
  const tails: number[] = [];
  const previous: number[] = new Array(positions.length).fill(-1);
  positions.forEach((position, index) => {
    let low = 0;
    let high = tails.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((positions[tails[middle] as number] as number) < position) low = middle + 1;
      else high = middle;
    }
    if (low > 0) previous[index] = tails[low - 1] as number;
    tails[low] = index;
  });
  const inOrder = new Set<string>();
  for (let index = tails[tails.length - 1] ?? -1; index >= 0; index = previous[index] as number)
    inOrder.add(kept[index] as string);
  return new Set(after.filter((key) => beforeSet.has(key) && !inOrder.has(key)));
}
