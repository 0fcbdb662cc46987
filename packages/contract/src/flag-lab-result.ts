/** H: above the high limit, L: below the low limit, N: within (a limit itself is within). */
export const labFlags = ['H', 'L', 'N'] as const;
export type LabFlag = (typeof labFlags)[number];

/**
 * The flag of a lab result against the site's normal range — one decision for the server (flags,
 * queries, the listing's SQL mirrors it) and the browser (the flag as the user types). A value equal
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
