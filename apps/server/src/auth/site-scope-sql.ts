import { type RawBuilder, sql } from 'kysely';
import type { SiteScope } from './permissions.ts';

/**
 * A reader's sites as an SQL condition on `column` (a site id column): every row for `all`, none for
 * no site, else the rows of those sites. Every read-out that limits totals or rows to the reader's
 * sites writes its scope with this one condition.
 */
export function inSiteScope(column: string, sites: SiteScope): RawBuilder<boolean> {
  if (sites === 'all') return sql<boolean>`true`;
  if (sites.size === 0) return sql<boolean>`false`;
  return sql<boolean>`${sql.ref(column)} in (${sql.join([...sites])})`;
}
