import {
  type DateRangePreset,
  deriveRange,
  isCalendarDate,
  presetDates,
  type SortOrder,
  SUBJECT_LIST_PAGE_SIZES,
  SUBJECT_SEARCH_MAX,
  type SubjectListDateType,
  type SubjectListPageSize,
  type SubjectListSortKey,
  type SubjectStatusValue,
  sortOrders,
  subjectListDateTypes,
  subjectListSortKeys,
  subjectStatusValues,
  todayInKorea,
} from '@cdms/contract';
import { PAGE_PARAM, parsePageParam } from '../../../components/pagination.tsx';
import { type ListParams, oneOf, setPageParams } from '../../../lib/list-state.ts';

/**
 * The subject list's filters, sort and page size as they live in the URL (prototype-spec §2
 * "Subject list"): the URL is the state, so reloading or sharing a link shows the same list. Values
 * the server would refuse are dropped when read, never sent.
 */

export type SubjectRange = DateRangePreset;

// The period presets are shared with the server (packages/contract korea-time.ts).
export { deriveRange, presetDates };
export type StatusChoice = 'all' | SubjectStatusValue;
export type SignatureChoice = 'all' | 'true' | 'false';

export interface SubjectListFilters {
  dateType: SubjectListDateType;
  start: string;
  end: string;
  status: StatusChoice;
  signature: SignatureChoice;
  search: string;
  sort: SubjectListSortKey;
  order: SortOrder;
  page: number;
  size: SubjectListPageSize;
}

/** What the filter panel edits (applied together with its apply button). */
export type SubjectFilterFields = Pick<
  SubjectListFilters,
  'dateType' | 'start' | 'end' | 'status' | 'signature' | 'search'
>;

/** The server's defaults: a URL without a parameter means this value. */
export const DEFAULT_SUBJECT_FILTERS: SubjectListFilters = {
  dateType: 'registrationDate',
  start: '',
  end: '',
  status: 'all',
  signature: 'all',
  search: '',
  sort: 'subjectId',
  order: 'asc',
  page: 1,
  size: 10,
};

export const EMPTY_FILTER_FIELDS: SubjectFilterFields = {
  dateType: DEFAULT_SUBJECT_FILTERS.dateType,
  start: '',
  end: '',
  status: 'all',
  signature: 'all',
  search: '',
};

const PARAMS = [
  'dateType',
  'start',
  'end',
  'range',
  'status',
  'signature',
  'search',
  'sort',
  'order',
  'size',
];

/** The list a URL asks for. A `range=3|6` without dates (a hand-written link) means the last months. */
export function readSubjectListFilters(
  params: URLSearchParams,
  today: string = todayInKorea(),
): SubjectListFilters {
  const date = (raw: string | null) => (raw && isCalendarDate(raw) ? raw : '');
  let start = date(params.get('start'));
  let end = date(params.get('end'));
  if (start && end && start > end) [start, end] = ['', ''];
  const range = params.get('range');
  if (!start && !end && (range === '3' || range === '6')) ({ start, end } = presetDates(range, today));
  const defaults = DEFAULT_SUBJECT_FILTERS;
  return {
    dateType: oneOf(subjectListDateTypes, params.get('dateType'), defaults.dateType),
    start,
    end,
    status: oneOf<StatusChoice>(['all', ...subjectStatusValues], params.get('status'), 'all'),
    signature: oneOf<SignatureChoice>(['all', 'true', 'false'], params.get('signature'), 'all'),
    search: (params.get('search') ?? '').trim().slice(0, SUBJECT_SEARCH_MAX),
    sort: oneOf(subjectListSortKeys, params.get('sort'), defaults.sort),
    order: oneOf<SortOrder>(sortOrders, params.get('order'), defaults.order),
    page: parsePageParam(params.get(PAGE_PARAM)),
    size: oneOf(SUBJECT_LIST_PAGE_SIZES, params.get('size'), defaults.size),
  };
}

/**
 * The URL parameters of a list, keeping parameters that are not the list's (menu-type). Defaults
 * are left out, `range` is written as derived from the dates, and any change starts on page 1.
 */
export function writeSubjectListFilters(
  current: URLSearchParams,
  filters: Omit<SubjectListFilters, 'page'>,
): URLSearchParams {
  const params = new URLSearchParams(current);
  for (const key of [...PARAMS, PAGE_PARAM]) params.delete(key);
  const defaults = DEFAULT_SUBJECT_FILTERS;
  if (filters.start) params.set('start', filters.start);
  if (filters.end) params.set('end', filters.end);
  // The date type only means something with a period.
  if ((filters.start || filters.end) && filters.dateType !== defaults.dateType)
    params.set('dateType', filters.dateType);
  const range = deriveRange(filters.start, filters.end);
  if (range && range !== 'all') params.set('range', range);
  if (filters.status !== 'all') params.set('status', filters.status);
  if (filters.signature !== 'all') params.set('signature', filters.signature);
  const search = filters.search.trim();
  if (search) params.set('search', search);
  if (filters.sort !== defaults.sort || filters.order !== defaults.order) {
    params.set('sort', filters.sort);
    params.set('order', filters.order);
  }
  if (filters.size !== defaults.size) params.set('size', String(filters.size));
  return params;
}

/**
 * The list's parameters for `useListState`: read and written here rather than declared with
 * `defineListParams`, because `range` is derived from the dates and a hand-written `range` is read.
 */
export const subjectListParams: ListParams<SubjectListFilters> = {
  read: (params) => readSubjectListFilters(params),
  write: writeSubjectListFilters,
};

/** Clicking a column header: the same column flips its order, another column starts ascending. */
export function nextSort(
  filters: Pick<SubjectListFilters, 'sort' | 'order'>,
  column: SubjectListSortKey,
): Pick<SubjectListFilters, 'sort' | 'order'> {
  if (filters.sort === column) return { sort: column, order: filters.order === 'asc' ? 'desc' : 'asc' };
  return { sort: column, order: 'asc' };
}

/** The server's query string: every filter and the sort; the page and size only for the list. */
export function subjectListQueryString(filters: SubjectListFilters, paged = true): string {
  const params = new URLSearchParams();
  if (filters.start || filters.end) params.set('dateType', filters.dateType);
  if (filters.start) params.set('start', filters.start);
  if (filters.end) params.set('end', filters.end);
  if (filters.status !== 'all') params.set('status', filters.status);
  if (filters.signature !== 'all') params.set('signature', filters.signature);
  if (filters.search) params.set('search', filters.search);
  params.set('sort', filters.sort);
  params.set('order', filters.order);
  setPageParams(params, filters, paged);
  return params.toString();
}
