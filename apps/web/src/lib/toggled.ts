/**
 * A copy of `set` with `key` switched — put in when `on`, taken out when not; by default `on` is
 * "it was not in" (a group folded or unfolded, a row picked or dropped).
 */
export function toggled<T>(set: ReadonlySet<T>, key: T, on = !set.has(key)): Set<T> {
  const next = new Set(set);
  if (on) next.add(key);
  else next.delete(key);
  return next;
}
