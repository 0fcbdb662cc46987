/**
 * Reading a list's filters from the URL (the SDV page and the readiness board, issue 15): a value the
 * server would refuse is dropped when read, never sent, so a hand-edited URL shows the default list.
 */

/** The value among `allowed` the parameter names, or the fallback. */
export function oneOf<T extends string | number>(allowed: readonly T[], raw: string | null, fallback: T): T {
  return allowed.find((value) => String(value) === raw) ?? fallback;
}

/** A site id as the API reads it (canonical decimal, int4), or null for every site. */
export function siteIdOf(raw: string | null): number | null {
  if (!raw || !/^[1-9][0-9]{0,9}$/.test(raw)) return null;
  const id = Number(raw);
  return id <= 2_147_483_647 ? id : null;
}

/** A search text: trimmed and cut to what the API accepts. */
export function searchText(raw: string | null, max = 100): string {
  return (raw ?? '').trim().slice(0, max);
}
