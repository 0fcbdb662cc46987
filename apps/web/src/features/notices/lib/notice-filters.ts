import { type DateRangePreset, deriveRange, presetDates, todayInKorea } from '@cdms/contract';
import { PAGE_PARAM, parsePageParam } from '../../../components/pagination.tsx';
import type { ListParams } from '../../../lib/list-state.ts';

/**
 * The notice list's filters as they live in the URL (prototype-spec §2 "Notice list"): start and
 * end (YYYY-MM-DD, UTC+9 days), range (all, 3 or 6 months), search, page and page size.
 */
export const NOTICE_PAGE_SIZES = [10, 20, 50] as const;
export type NoticePageSize = (typeof NOTICE_PAGE_SIZES)[number];
export const DEFAULT_NOTICE_PAGE_SIZE: NoticePageSize = 10;

export type NoticeRange = DateRangePreset;

export interface NoticeFilters {
  start: string;
  end: string;
  search: string;
  page: number;
  size: NoticePageSize;
}

/** The list as the dashboard and the header ask for it: no filter, first page, default size. */
export const DEFAULT_NOTICE_FILTERS: NoticeFilters = {
  start: '',
  end: '',
  search: '',
  page: 1,
  size: DEFAULT_NOTICE_PAGE_SIZE,
};

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

function isIsoDate(value: string): boolean {
  return ISO_DATE.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`));
}

// Korean days and the period presets are shared with the server, which derives the same presets.
export { deriveRange, monthsBefore, presetDates, todayInKorea as todayKst } from '@cdms/contract';

function readSize(raw: string | null): NoticePageSize {
  const size = Number(raw);
  return NOTICE_PAGE_SIZES.find((allowed) => allowed === size) ?? DEFAULT_NOTICE_PAGE_SIZE;
}

/**
 * The filters a URL asks for. Unreadable values are dropped rather than sent to the server. A
 * `range=3|6` without dates (a hand-written link) means the last 3 or 6 months from today.
 */
export function readNoticeFilters(params: URLSearchParams, today: string = todayInKorea()): NoticeFilters {
  let start = params.get('start') ?? '';
  let end = params.get('end') ?? '';
  if (!isIsoDate(start)) start = '';
  if (!isIsoDate(end)) end = '';
  const range = params.get('range');
  if (!start && !end && (range === '3' || range === '6')) ({ start, end } = presetDates(range, today));
  return {
    start,
    end,
    search: (params.get('search') ?? '').trim(),
    page: parsePageParam(params.get(PAGE_PARAM)),
    size: readSize(params.get('size')),
  };
}

/**
 * The URL parameters for applied filters, keeping the ones that are not ours (menu-type). A new
 * filter starts on page 1; `range` is written as derived from the dates, so the URL reads as the
 * screen does.
 */
export function writeNoticeFilters(
  current: URLSearchParams,
  filters: Pick<NoticeFilters, 'start' | 'end' | 'search' | 'size'>,
): URLSearchParams {
  const params = new URLSearchParams(current);
  for (const key of ['start', 'end', 'range', 'search', 'size', PAGE_PARAM]) params.delete(key);
  if (filters.start) params.set('start', filters.start);
  if (filters.end) params.set('end', filters.end);
  const range = deriveRange(filters.start, filters.end);
  if (range && range !== 'all') params.set('range', range);
  const search = filters.search.trim();
  if (search) params.set('search', search);
  if (filters.size !== DEFAULT_NOTICE_PAGE_SIZE) params.set('size', String(filters.size));
  return params;
}

/**
 * The list's parameters for `useListState`: read and written here rather than declared with
 * `defineListParams`, because `range` is derived from the dates and a hand-written `range` is read.
 */
export const noticeListParams: ListParams<NoticeFilters> = {
  read: (params) => readNoticeFilters(params),
  write: writeNoticeFilters,
};

/** The server's query string for the filters (empty values left out). */
export function noticeListQueryString(filters: NoticeFilters): string {
  const params = new URLSearchParams();
  if (filters.start) params.set('start', filters.start);
  if (filters.end) params.set('end', filters.end);
  if (filters.search) params.set('search', filters.search);
  params.set('page', String(filters.page));
  params.set('size', String(filters.size));
  return params.toString();
}
