/**
 * The version a new amendment's draft is given: the live version with its last number one higher
 * ("1.0.0" → "1.0.1", "v3" → "v4"; a version without a number gets ".1"), higher again while the study
 * has it already. The designer may write another in the study settings.
 */
export function nextVersionName(live: string, taken: ReadonlySet<string>): string {
  let candidate = live;
  do {
    const match = /^(.*?)(\d+)$/.exec(candidate);
    candidate = match ? `${match[1]}${Number(match[2]) + 1}` : `${candidate}.1`;
  } while (taken.has(candidate));
  return candidate;
}
