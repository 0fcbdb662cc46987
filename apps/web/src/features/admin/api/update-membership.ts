import type { Membership } from '@cdms/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { adminQueryKeys } from './admin-query-keys.ts';

export function updateMembershipSites(input: {
  studyId: number;
  membershipId: number;
  siteIds: number[];
}): Promise<Membership> {
  return apiRequest<Membership>(`/api/admin/studies/${input.studyId}/memberships/${input.membershipId}`, {
    method: 'PUT',
    body: { siteIds: input.siteIds },
  });
}

export function useUpdateMembershipSites(studyId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { membershipId: number; siteIds: number[] }) =>
      updateMembershipSites({ ...input, studyId }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminQueryKeys.memberships(studyId) }),
  });
}
