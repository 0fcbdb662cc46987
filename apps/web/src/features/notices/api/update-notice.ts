import type { NoticeDetail, NoticeUpdate } from '@cdms/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { noticeQueryKeys } from './notice-query-keys.ts';

/** Edits a notice; also how it is pinned/unpinned and hidden/shown (a partial update). */
export function updateNotice({
  studyId,
  noticeId,
  ...input
}: NoticeUpdate & { studyId: number; noticeId: number }): Promise<NoticeDetail> {
  return apiRequest<NoticeDetail>(`/api/studies/${studyId}/notices/${noticeId}`, {
    method: 'PUT',
    body: input,
  });
}

export function useUpdateNotice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateNotice,
    onSuccess: (notice, { studyId }) => {
      queryClient.setQueryData(noticeQueryKeys.detail(studyId, notice.id), notice);
      return queryClient.invalidateQueries({ queryKey: ['notices'] });
    },
  });
}
