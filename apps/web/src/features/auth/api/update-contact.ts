import type { MeResponse, UpdateContactRequest } from '@cdms/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { meQueryKey } from '../../../lib/me.ts';

/** PUT /api/auth/contact; on success the cached user shows the new number at once. */
export function useUpdateContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: UpdateContactRequest) =>
      apiRequest<void>('/api/auth/contact', { method: 'PUT', body: request }),
    onSuccess: (_result, request) => {
      queryClient.setQueryData<MeResponse | null>(meQueryKey, (me) =>
        me ? { ...me, user: { ...me.user, contact: request.contact } } : me,
      );
    },
  });
}
