import type { Membership } from '@cdms/contract';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { adminQueryKeys } from './admin-query-keys.ts';

export async function getMemberships(studyId: number): Promise<Membership[]> {
  const { memberships } = await apiRequest<{ memberships: Membership[] }>(
    `/api/admin/studies/${studyId}/memberships`,
  );
  return memberships;
}

export function useMemberships(studyId: number | undefined) {
  return useQuery({
    queryKey: adminQueryKeys.memberships(studyId ?? 0),
    queryFn: () => getMemberships(studyId ?? 0),
    enabled: studyId !== undefined,
  });
}
