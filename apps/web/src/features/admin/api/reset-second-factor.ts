import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { adminQueryKeys } from './admin-query-keys.ts';

/** POST /api/admin/users/:userId/second-factor/reset: the user signs in with the password until they enrol again. */
export function useResetSecondFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: number) =>
      apiRequest<void>(`/api/admin/users/${userId}/second-factor/reset`, { method: 'POST' }),
    // The "two-factor" column changes.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminQueryKeys.users }),
  });
}
