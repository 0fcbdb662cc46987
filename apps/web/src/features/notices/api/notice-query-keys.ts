import type { NoticeFilters } from '../lib/notice-filters.ts';

/**
 * Query keys of the notices, in one place. The list page, the header strip and the dashboard panel
 * ask with the same key for the same filters, so one request serves all three.
 */
export const noticeQueryKeys = {
  study: (studyId: number) => ['notices', studyId] as const,
  list: (studyId: number, filters: NoticeFilters) => ['notices', studyId, 'list', { ...filters }] as const,
  detail: (studyId: number, noticeId: number) => ['notices', studyId, 'detail', noticeId] as const,
};
