/** H: above the high limit, L: below the low limit, N: within (a limit itself is within). */
export const labFlags = ['H', 'L', 'N'] as const;
export type LabFlag = (typeof labFlags)[number];

/**
 * The flag of a lab result against the site's normal range — one decision for the server (flags,
 * queries, the lab page's stored flags) and the browser (the flag as the user types). A value equal
 * to a limit is normal; no range flags nothing (null), and a limit left open flags nothing on its side.
 */
export function flagLabResult(
  value: number,
  range: { low: number | null; high: number | null } | undefined,
): LabFlag | null {
  if (!range) return null;
  if (range.high !== null && value > range.high) return 'H';
  if (range.low !== null && value < range.low) return 'L';
  return 'N';
}

/**
 * A range's limits as one text — "4.5–9.5", "≤ 40", "≥ 0" — with its unit when given: the lab page,
 * the flag beside a result and the server's out-of-range query message write a range alike.
 */
export function labRangeLimitsText(range: {
  low: number | null;
  high: number | null;
  unit?: string | null;
}): string {
  const limits =
    range.low !== null && range.high !== null
      ? `${range.low}–${range.high}`
      : range.high !== null
        ? `≤ ${range.high}`
        : `≥ ${range.low ?? ''}`;
  return range.unit ? `${limits} ${range.unit}` : limits;
}

/** One of a site's ranges for a test that fits the subject (sex, age), with the day it took effect. */
export interface DatedLabRange {
  id: number;
  testKey: string;
  unit: string;
  low: number | null;
  high: number | null;
  /** YYYY-MM-DD: in force from this day on, until a newer one of the same test. */
  effectiveFrom: string;
  /** Limited to the subject's sex: chosen before a general range of the same day. */
  sexLimited: boolean;
}

/**
 * The range per test in force on `onDate` among ranges that fit the subject: the newest effective on
 * or before the date, of equal dates the one for the subject's sex, then the later entered. The server
 * (flags, queries) and the browser (the flag as the specimen date and the result are typed) choose
 * alike; the server stores the listing's flags by it.
 */
export function rangesInForceOn(
  ranges: readonly DatedLabRange[],
  onDate: string,
): Map<string, { testKey: string; unit: string; low: number | null; high: number | null }> {
  const inForce = ranges
    .filter((range) => range.effectiveFrom <= onDate)
    .sort(
      (a, b) =>
        b.effectiveFrom.localeCompare(a.effectiveFrom) ||
        Number(b.sexLimited) - Number(a.sexLimited) ||
        b.id - a.id,
    );
  const chosen = new Map<
    string,
    { testKey: string; unit: string; low: number | null; high: number | null }
  >();
  for (const range of inForce) {
    if (chosen.has(range.testKey)) continue;
    chosen.set(range.testKey, { testKey: range.testKey, unit: range.unit, low: range.low, high: range.high });
  }
  return chosen;
}
