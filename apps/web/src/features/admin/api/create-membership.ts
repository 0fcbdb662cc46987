import type { CreateMembershipRequest, Membership } from '@cdms/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { adminQueryKeys } from './admin-query-keys.ts';

export function createMembership({
  studyId,
  ...input
}: CreateMembershipRequest & { studyId: number }): Promise<Membership> {
  return apiRequest<Membership>(`/api/admin/studies/${studyId}/memberships`, { method: 'POST', body: input });
}

export function useCreateMembership(studyId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateMembershipRequest) => createMembership({ ...input, studyId }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminQueryKeys.memberships(studyId) }),
  });
}
