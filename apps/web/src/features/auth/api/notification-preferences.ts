import type { NotificationPreference, NotificationPreferencesResponse } from '@cdms/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

const path = '/api/auth/notification-preferences';
const key = ['notification-preferences'] as const;

/** The signed-in user's e-mail choices, read when the dialog opens. */
export function useNotificationPreferences(enabled: boolean) {
  return useQuery({
    queryKey: key,
    queryFn: () => apiRequest<NotificationPreferencesResponse>(path),
    enabled,
    staleTime: 0,
  });
}

export function useUpdateNotificationPreferences() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (preferences: NotificationPreference[]) =>
      apiRequest<NotificationPreferencesResponse>(path, { method: 'PUT', body: { preferences } }),
    onSuccess: (saved) => client.setQueryData(key, saved),
  });
}
