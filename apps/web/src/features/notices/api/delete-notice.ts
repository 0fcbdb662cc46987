import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { noticeQueryKeys } from './notice-query-keys.ts';

export function deleteNotice({ studyId, noticeId }: { studyId: number; noticeId: number }): Promise<void> {
  return apiRequest<void>(`/api/studies/${studyId}/notices/${noticeId}`, { method: 'DELETE' });
}

export function useDeleteNotice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteNotice,
    onSuccess: (_result, { studyId, noticeId }) => {
      queryClient.removeQueries({ queryKey: noticeQueryKeys.detail(studyId, noticeId) });
      return queryClient.invalidateQueries({ queryKey: ['notices'] });
    },
  });
}
