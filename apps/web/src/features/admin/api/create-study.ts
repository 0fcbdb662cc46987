import type { AdminStudy, CreateStudyRequest } from '@cdms/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

export function createStudy(study: CreateStudyRequest): Promise<AdminStudy> {
  return apiRequest<AdminStudy>('/api/admin/studies', { method: 'POST', body: study });
}

export function useCreateStudy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createStudy,
    // The creator is the new study's first ADMIN: their own study list changes too.
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
