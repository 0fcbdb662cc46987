import { IMPACT_PAGE_SIZES, type ImpactKind, impactKinds } from '@cdms/contract';
import { defineListParams, param } from '../../../lib/list-state.ts';

/**
 * The impact drill-down's state in the amendment page's URL (`?kind=&siteId=&subject=&page=&size=`,
 * named as the API names them), so a reload or a shared link opens the same rows. No kind: no rows
 * shown (the counts are the way in).
 */

export type ImpactPageSize = (typeof IMPACT_PAGE_SIZES)[number];

export interface ImpactFilters {
  kind: ImpactKind | '';
  siteId: number | null;
  subject: string;
  page: number;
  size: ImpactPageSize;
}

export const impactListParams = defineListParams<ImpactFilters>({
  kind: param.oneOf<ImpactKind | ''>(['', ...impactKinds], ''),
  siteId: param.id(),
  // A screening number or part of it, up to the contract's 100 characters.
  subject: param.text(),
  size: param.oneOf(IMPACT_PAGE_SIZES, 50),
  page: param.page(),
});

/** The site and subject fields of the filter panel (the kind is picked from the counts). */
export const EMPTY_IMPACT_PANEL: Pick<ImpactFilters, 'siteId' | 'subject'> = { siteId: null, subject: '' };

/** `GET …/impact/rows`'s query string: the filters given, then the page. */
export function impactRowsQueryString(filters: ImpactFilters): string {
  const params = new URLSearchParams();
  if (filters.kind) params.set('kind', filters.kind);
  if (filters.siteId !== null) params.set('siteId', String(filters.siteId));
  if (filters.subject) params.set('subject', filters.subject);
  params.set('page', String(filters.page));
  params.set('size', String(filters.size));
  return params.toString();
}

/**
 * A row's `before` or `after` (any JSON the server stored) as a reader sees it: a string as it is,
 * nothing as "—", a number or yes/no as text, an object or list as compact JSON — never
 * "[object Object]".
 */
export function impactValueText(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}
