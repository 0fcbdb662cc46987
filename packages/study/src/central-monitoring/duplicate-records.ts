// Duplicated records across subjects: two different subjects whose record of one form carries exactly the
// same filled values (an identical vital-signs row) — a copy-paste, a record entered in the wrong subject,
// or invented data. Same-subject repeats are left alone (a repeated visit may truly measure the same).
// See README.md.

export interface DuplicateRecordGroup<Id> {
  /** A short stable hash of the shared values (keys sorted), to name the group across runs. */
  fingerprint: string;
  recordIds: Id[];
  /** The distinct subjects, ascending. */
  subjectIds: number[];
  /** How many filled values the records share. */
  filledValues: number;
}

export interface DuplicateRecordInput<Id> {
  id: Id;
  subjectId: number;
  values: Readonly<Record<string, unknown>>;
}

export interface DuplicateRecordOptions {
  /** Records with fewer filled values are not compared (a few yes/no answers coincide by nature). Default 4. */
  minimumFilledValues?: number;
}

/**
 * Groups of records whose filled values are identical across at least two different subjects, the most
 * filled first. Key order does not matter; null, undefined, blank text and empty lists are ignored.
 */
export function findDuplicateRecords<Id>(
  records: readonly DuplicateRecordInput<Id>[],
  options: DuplicateRecordOptions = {},
): DuplicateRecordGroup<Id>[] {
  const minimumFilledValues = Math.max(1, options.minimumFilledValues ?? 4);
  const byCanonical = new Map<string, { records: DuplicateRecordInput<Id>[]; filledValues: number }>();
  for (const record of records) {
    const filled = Object.entries(record.values)
      .filter(([, value]) => !isEmpty(value))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    if (filled.length < minimumFilledValues) continue;
    const canonical = JSON.stringify(filled.map(([key, value]) => [key, canonicalValue(value)]));
    const group = byCanonical.get(canonical);
    if (group) group.records.push(record);
    else byCanonical.set(canonical, { records: [record], filledValues: filled.length });
  }

  const groups: DuplicateRecordGroup<Id>[] = [];
  for (const [canonical, group] of byCanonical) {
    const subjectIds = [...new Set(group.records.map((record) => record.subjectId))].sort((a, b) => a - b);
    if (subjectIds.length < 2) continue;
    groups.push({
      fingerprint: fingerprintOf(canonical),
      recordIds: group.records.map((record) => record.id),
      subjectIds,
      filledValues: group.filledValues,
    });
  }
  return groups.sort(
    (a, b) =>
      b.filledValues - a.filledValues ||
      b.subjectIds.length - a.subjectIds.length ||
      compareText(a.fingerprint, b.fingerprint),
  );
}

function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (typeof value === 'number') return Number.isNaN(value);
  if (Array.isArray(value)) return value.length === 0;
  return false;
}

/** Text is trimmed; objects get their keys sorted, so the same value always writes the same way. */
function canonicalValue(value: unknown): unknown {
  if (typeof value === 'string') return value.trim();
  if (Array.isArray(value)) return value.map(canonicalValue);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .sort(([a], [b]) => compareText(a, b))
        .map(([key, inner]) => [key, canonicalValue(inner)]),
    );
  }
  return value;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Two 32-bit FNV-1a hashes with different offsets, 16 hex digits: short, stable, no crypto needed. */
function fingerprintOf(text: string): string {
  return fnv1a(text, 0x811c9dc5) + fnv1a(text, 0x01000193 ^ 0x5bd1e995);
}

function fnv1a(text: string, offset: number): string {
  let hash = offset >>> 0;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}
