import type { NoticeDetail } from '@cdms/contract';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { noticeQueryKeys } from './notice-query-keys.ts';

export function getNotice(studyId: number, noticeId: number): Promise<NoticeDetail> {
  return apiRequest<NoticeDetail>(`/api/studies/${studyId}/notices/${noticeId}`);
}

export function useNotice(studyId: number, noticeId: number | null) {
  return useQuery({
    queryKey: noticeQueryKeys.detail(studyId, noticeId ?? 0),
    queryFn: () => getNotice(studyId, noticeId ?? 0),
    enabled: noticeId !== null,
  });
}
