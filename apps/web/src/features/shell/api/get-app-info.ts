import { type AppInfo, appInfoSchema } from '@cdms/contract';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

export const appInfoQueryKey = ['app-info'] as const;

/** Version, release date and the installation's support contact (GET /api/app-info). */
export function useAppInfo() {
  return useQuery({
    queryKey: appInfoQueryKey,
    queryFn: async (): Promise<AppInfo> => appInfoSchema.parse(await apiRequest<unknown>('/api/app-info')),
    staleTime: 60 * 60 * 1000,
  });
}
