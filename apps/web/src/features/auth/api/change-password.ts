import type { ChangePasswordRequest } from '@cdms/contract';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/**
 * PUT /api/auth/password. 422 with code current_password_incorrect, password_policy (details.issues),
 * password_too_common (a common-password list the server alone holds: too big for the browser)
 * or password_unchanged. The server ends the user's other sessions; this one stays.
 */
export function useChangePassword() {
  return useMutation({
    mutationFn: (request: ChangePasswordRequest) =>
      apiRequest<void>('/api/auth/password', { method: 'PUT', body: request }),
  });
}
