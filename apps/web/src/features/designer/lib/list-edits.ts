/** Small edits of a list that the designer's models share: each gives a new list, never changing the old one. */

/** The list with the element at `index` changed. */
export function replaceAt<T>(list: T[], index: number, change: (value: T) => T): T[] {
  return list.map((value, at) => (at === index ? change(value) : value));
}

/**
 * The list with the element at `from` moved to the place `to` (counted in the list it ends up in):
 * a button's one place, or where a drag dropped it. The same list when it cannot move.
 */
export function move<T>(list: T[], from: number, to: number): T[] {
  if (from === to || from < 0 || from >= list.length || to < 0 || to >= list.length) return list;
  const next = [...list];
  const [moved] = next.splice(from, 1);
  next.splice(to, 0, moved as T);
  return next;
}

/**
 * A key ticked or unticked among the chosen ones, kept in the order of `order` (the schedule's visits,
 * the forms' rows, a form's items): so a list of keys reads as the screen shows them.
 */
export function toggleInOrder(chosen: readonly string[], key: string, order: readonly string[]): string[] {
  return chosen.includes(key)
    ? chosen.filter((other) => other !== key)
    : order.filter((other) => other === key || chosen.includes(other));
}
