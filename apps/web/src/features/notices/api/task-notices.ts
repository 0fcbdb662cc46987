import type { TaskNotice, TaskNoticeListResponse, TaskNoticeWrite } from '@cdms/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

export const taskNoticeQueryKeys = {
  study: (studyId: number) => ['task-notices', studyId] as const,
  list: (studyId: number, page: number, size: number) =>
    ['task-notices', studyId, 'list', page, size] as const,
};

/** A page of the study's task notices with their sending state. */
export function useTaskNotices(studyId: number, page: number, size: number) {
  return useQuery({
    queryKey: taskNoticeQueryKeys.list(studyId, page, size),
    queryFn: () =>
      apiRequest<TaskNoticeListResponse>(`/api/studies/${studyId}/task-notices?page=${page}&size=${size}`),
    placeholderData: keepPreviousData,
  });
}

export function useCreateTaskNotice(studyId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: TaskNoticeWrite) =>
      apiRequest<TaskNotice>(`/api/studies/${studyId}/task-notices`, { method: 'POST', body: input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: taskNoticeQueryKeys.study(studyId) }),
  });
}
