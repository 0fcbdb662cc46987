import type { AppInfo } from '@cdms/contract';
import { useQuery } from '@tanstack/react-query';
import { checkedWhenIdle } from '../../../lib/api-answer.ts';
import { apiRequest } from '../../../lib/api-client.ts';

export const appInfoQueryKey = ['app-info'] as const;

/** Version, release date and the installation's support contact (GET /api/app-info). */
export function useAppInfo() {
  return useQuery({
    queryKey: appInfoQueryKey,
    // Checked once the page is there: the contract's schemas load apart (lib/api-answer.ts).
    queryFn: async (): Promise<AppInfo> =>
      checkedWhenIdle(
        '/api/app-info',
        await apiRequest<unknown>('/api/app-info'),
        async () => (await import('../../../lib/answer-schemas.ts')).appInfoSchema,
      ),
    staleTime: 60 * 60 * 1000,
  });
}
