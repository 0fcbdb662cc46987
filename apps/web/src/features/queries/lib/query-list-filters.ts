import {
  QUERY_LIST_PAGE_SIZES,
  QUERY_SEARCH_MAX,
  type QueryListSortKey,
  queryAgeFilters,
  queryAssigneeFilters,
  queryKindFilters,
  queryListSortKeys,
  queryStateFilters,
  type SortOrder,
} from '@cdms/contract';
import { defineListParams, param, setPageParams } from '../../../lib/list-state.ts';

/**
 * The query list's filters, sort and page size as they live in the URL (issue 14): the URL is the
 * state, so a link from the subject-info popup (`?state=open`) or the dashboard opens the list filtered,
 * and reloading or sharing shows the same list. Parameter names are the API's (queryListQuerySchema);
 * defaults are left out of the URL; values the server would refuse are dropped when read, never sent.
 */

export type StateChoice = (typeof queryStateFilters)[number];
export type KindChoice = (typeof queryKindFilters)[number];
export type AssigneeChoice = (typeof queryAssigneeFilters)[number];
export type AgeChoice = (typeof queryAgeFilters)[number];
export type QueryListPageSize = (typeof QUERY_LIST_PAGE_SIZES)[number];

// The choices are the API's own (packages/contract queries.ts), so the panel offers what the server reads.
export const STATE_CHOICES: readonly StateChoice[] = queryStateFilters;
export const KIND_CHOICES: readonly KindChoice[] = queryKindFilters;
export const ASSIGNEE_CHOICES: readonly AssigneeChoice[] = queryAssigneeFilters;
export const AGE_CHOICES: readonly AgeChoice[] = queryAgeFilters;

export interface QueryListFilters {
  state: StateChoice;
  kind: KindChoice;
  /** Null: every site of the reader. */
  siteId: number | null;
  subject: string;
  visitKey: string;
  formKey: string;
  /** The item's server path (`visit.form.item`), '' for any. */
  itemPath: string;
  assignee: AssigneeChoice;
  age: AgeChoice;
  text: string;
  sort: QueryListSortKey;
  order: SortOrder;
  page: number;
  size: QueryListPageSize;
}

/** What the filter panel edits (applied together with its apply button). */
export type QueryFilterFields = Omit<QueryListFilters, 'sort' | 'order' | 'page' | 'size'>;

// Definition keys, and the unscheduled visits' `unscheduled-<n>` (issue 19).
const KEY_PATTERN = /^[A-Za-z][A-Za-z0-9_-]{0,99}$/;

/** The server's defaults left out of the URL. A form without its visit, or an item without its form, is dropped. */
export const queryListParams = defineListParams<QueryListFilters>(
  {
    state: param.oneOf(STATE_CHOICES, 'unresolved'),
    kind: param.oneOf(KIND_CHOICES, 'all'),
    siteId: param.id(),
    subject: param.text(QUERY_SEARCH_MAX),
    visitKey: param.matching(KEY_PATTERN),
    formKey: param.matching(KEY_PATTERN),
    itemPath: param.matching(/^.{1,200}$/),
    assignee: param.oneOf(ASSIGNEE_CHOICES, 'all'),
    age: param.oneOf(AGE_CHOICES, 'all'),
    text: param.text(QUERY_SEARCH_MAX),
    sort: param.oneOf(queryListSortKeys, 'age'),
    order: param.order('desc'),
    size: param.oneOf(QUERY_LIST_PAGE_SIZES, 10),
    page: param.page(),
  },
  (values) => {
    const formKey = values.visitKey ? values.formKey : '';
    const itemPath =
      formKey && values.itemPath.startsWith(`${values.visitKey}.${formKey}.`) ? values.itemPath : '';
    return { ...values, formKey, itemPath };
  },
);

export const DEFAULT_QUERY_FILTERS: QueryListFilters = queryListParams.read(new URLSearchParams());

export const EMPTY_QUERY_FILTER_FIELDS: QueryFilterFields = {
  state: DEFAULT_QUERY_FILTERS.state,
  kind: 'all',
  siteId: null,
  subject: '',
  visitKey: '',
  formKey: '',
  itemPath: '',
  assignee: 'all',
  age: 'all',
  text: '',
};

/** The filters that differ from the defaults, as parameters (page and size left to the caller). */
function filterParams(filters: Omit<QueryListFilters, 'page' | 'size'>, into: URLSearchParams): void {
  const defaults = DEFAULT_QUERY_FILTERS;
  if (filters.state !== defaults.state) into.set('state', filters.state);
  if (filters.kind !== defaults.kind) into.set('kind', filters.kind);
  if (filters.siteId !== null) into.set('siteId', String(filters.siteId));
  const subject = filters.subject.trim();
  if (subject) into.set('subject', subject);
  if (filters.visitKey) into.set('visitKey', filters.visitKey);
  if (filters.visitKey && filters.formKey) into.set('formKey', filters.formKey);
  if (filters.visitKey && filters.formKey && filters.itemPath) into.set('itemPath', filters.itemPath);
  if (filters.assignee !== defaults.assignee) into.set('assignee', filters.assignee);
  if (filters.age !== defaults.age) into.set('age', filters.age);
  const text = filters.text.trim();
  if (text) into.set('text', text);
}

/**
 * The server's query string: the filters (the server's defaults left out) and the sort; the page and
 * size only for the list, not the download.
 */
export function queryListQueryString(filters: QueryListFilters, paged = true): string {
  const params = new URLSearchParams();
  filterParams(filters, params);
  params.set('sort', filters.sort);
  params.set('order', filters.order);
  setPageParams(params, filters, paged);
  return params.toString();
}
