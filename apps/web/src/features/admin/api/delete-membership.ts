import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { adminQueryKeys } from './admin-query-keys.ts';

export function deleteMembership(input: { studyId: number; membershipId: number }): Promise<void> {
  return apiRequest<void>(`/api/admin/studies/${input.studyId}/memberships/${input.membershipId}`, {
    method: 'DELETE',
  });
}

export function useDeleteMembership(studyId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (membershipId: number) => deleteMembership({ studyId, membershipId }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminQueryKeys.memberships(studyId) }),
  });
}
