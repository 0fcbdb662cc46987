/**
 * REDCap names (variables, instruments, events) are lowercase words joined by underscores; CDMS keys
 * are letters and digits in camel case, without underscores (they become parts of `visit.form.item`
 * references). The two spellings map onto each other: `adverse_events` ↔ `adverseEvents`.
 */

/** `adverse_events` → `adverseEvents`; anything that is not a letter or digit separates words. */
export function keyFromRedcapName(name: string): string {
  const words = name
    .trim()
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word !== '');
  const key = words
    .map((word, index) =>
      index === 0 ? word.toLowerCase() : word.charAt(0).toUpperCase() + word.slice(1).toLowerCase(),
    )
    .join('');
  // A key starts with a letter: REDCap names always do, other sources may not.
  return /^[A-Za-z]/.test(key) ? key : `f${key}`;
}

/** `adverseEvents` → `adverse_events`: a capital letter starts a new word. */
export function redcapNameFromKey(key: string): string {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();
}

/** Whether a key survives the trip to a REDCap name and back unchanged. */
export function keyRoundTrips(key: string): boolean {
  return keyFromRedcapName(redcapNameFromKey(key)) === key;
}

/** `baseline_arm_1` → `baseline`: the visit of a REDCap event, without its arm. */
export function visitKeyFromEventName(eventName: string): string {
  return keyFromRedcapName(eventName.replace(/_arm_\d+[a-z]?$/, ''));
}

/** The unique event name REDCap gives a visit in its first arm. */
export function eventNameFromVisitKey(visitKey: string): string {
  return `${redcapNameFromKey(visitKey)}_arm_1`;
}

/** `adverse_events` → `Adverse events`: a readable label for a name that comes without one. */
export function labelFromRedcapName(name: string): string {
  const text = name.replace(/_/g, ' ').trim();
  return text.charAt(0).toUpperCase() + text.slice(1);
}
