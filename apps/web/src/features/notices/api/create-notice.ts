import type { NoticeDetail, NoticeWrite } from '@cdms/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { noticeQueryKeys } from './notice-query-keys.ts';

export function createNotice({
  studyId,
  ...input
}: NoticeWrite & { studyId: number }): Promise<NoticeDetail> {
  return apiRequest<NoticeDetail>(`/api/studies/${studyId}/notices`, { method: 'POST', body: input });
}

export function useCreateNotice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createNotice,
    onSuccess: (notice, { studyId }) => {
      queryClient.setQueryData(noticeQueryKeys.detail(studyId, notice.id), notice);
      // A global notice shows in every study's list, so every list is out of date.
      return queryClient.invalidateQueries({ queryKey: ['notices'] });
    },
  });
}
