import { paramIdSchema } from '@cdms/contract';

/**
 * Reading a list's filters from the URL (the subject and query lists, the SDV page, the readiness
 * board): a value the server would refuse is dropped when read, never sent, so a hand-edited URL
 * shows the default list.
 */

/** The value among `allowed` the parameter names, or the fallback. */
export function oneOf<T extends string | number>(allowed: readonly T[], raw: string | null, fallback: T): T {
  return allowed.find((value) => String(value) === raw) ?? fallback;
}

/** A site id as the API reads it (the contract's id schema: canonical decimal, int4), or null for every site. */
export function siteIdOf(raw: string | null): number | null {
  const parsed = paramIdSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

/** A search text: trimmed and cut to what the API accepts. */
export function searchText(raw: string | null, max = 100): string {
  return (raw ?? '').trim().slice(0, max);
}
