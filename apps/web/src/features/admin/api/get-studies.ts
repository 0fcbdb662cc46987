import type { AdminStudy } from '@cdms/contract';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { adminQueryKeys } from './admin-query-keys.ts';

export async function getStudies(): Promise<AdminStudy[]> {
  const { studies } = await apiRequest<{ studies: AdminStudy[] }>('/api/admin/studies');
  return studies;
}

export function useStudies() {
  return useQuery({ queryKey: adminQueryKeys.studies, queryFn: getStudies });
}
