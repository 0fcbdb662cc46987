import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { adminQueryKeys } from './admin-query-keys.ts';

export async function resetPassword(userId: number): Promise<string> {
  const { temporaryPassword } = await apiRequest<{ temporaryPassword: string }>(
    `/api/admin/users/${userId}/reset-password`,
    { method: 'POST' },
  );
  return temporaryPassword;
}

export function useResetPassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resetPassword,
    // A reset lifts a lockout: the "locked until" column changes.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminQueryKeys.users }),
  });
}
