/** Small edits of a list that the designer's models share: each gives a new list, never changing the old one. */

/** The list with the element at `index` changed. */
export function replaceAt<T>(list: T[], index: number, change: (value: T) => T): T[] {
  return list.map((value, at) => (at === index ? change(value) : value));
}

/** The list with the element at `index` moved one place; the same list when it cannot move. */
export function move<T>(list: T[], index: number, by: -1 | 1): T[] {
  const target = index + by;
  if (index < 0 || index >= list.length || target < 0 || target >= list.length) return list;
  const next = [...list];
  [next[index], next[target]] = [next[target] as T, next[index] as T];
  return next;
}
