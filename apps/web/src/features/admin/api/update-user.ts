import type { AdminUser, UpdateUserRequest } from '@cdms/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { adminQueryKeys } from './admin-query-keys.ts';

export function updateUser({ userId, ...input }: UpdateUserRequest & { userId: number }): Promise<AdminUser> {
  return apiRequest<AdminUser>(`/api/admin/users/${userId}`, { method: 'PUT', body: input });
}

export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateUser,
    // Names and emails also show in the membership tables.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminQueryKeys.all }),
  });
}
