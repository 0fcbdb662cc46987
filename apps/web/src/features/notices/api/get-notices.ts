import type { NoticeListResponse } from '@cdms/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { DEFAULT_NOTICE_FILTERS, type NoticeFilters, noticeListQueryString } from '../lib/notice-filters.ts';
import { noticeQueryKeys } from './notice-query-keys.ts';

export function getNotices(studyId: number, filters: NoticeFilters): Promise<NoticeListResponse> {
  return apiRequest<NoticeListResponse>(`/api/studies/${studyId}/notices?${noticeListQueryString(filters)}`);
}

/** A page of notices; the previous page stays on screen while the next one loads. */
export function useNotices(studyId: number, filters: NoticeFilters = DEFAULT_NOTICE_FILTERS) {
  return useQuery({
    queryKey: noticeQueryKeys.list(studyId, filters),
    queryFn: () => getNotices(studyId, filters),
    placeholderData: keepPreviousData,
  });
}
