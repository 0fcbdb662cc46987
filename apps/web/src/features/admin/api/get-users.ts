import type { AdminUser } from '@cdms/contract';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { adminQueryKeys } from './admin-query-keys.ts';

export async function getUsers(): Promise<AdminUser[]> {
  const { users } = await apiRequest<{ users: AdminUser[] }>('/api/admin/users');
  return users;
}

export function useUsers() {
  return useQuery({ queryKey: adminQueryKeys.users, queryFn: getUsers });
}
