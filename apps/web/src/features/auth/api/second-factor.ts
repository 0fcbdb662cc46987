import {
  type RecoveryCodesResponse,
  recoveryCodesResponseSchema,
  type SecondFactorChangeRequest,
  type SecondFactorEnrolmentResponse,
  secondFactorEnrolmentResponseSchema,
} from '@cdms/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { meQueryKey } from '../../../lib/me.ts';

/** POST /api/auth/second-factor/enrolment: 422 current_password_incorrect, 409 already enrolled. */
export function useStartSecondFactorEnrolment() {
  return useMutation({
    mutationFn: async (password: string): Promise<SecondFactorEnrolmentResponse> =>
      secondFactorEnrolmentResponseSchema.parse(
        await apiRequest<unknown>('/api/auth/second-factor/enrolment', {
          method: 'POST',
          body: { password },
        }),
      ),
  });
}

/**
 * POST /api/auth/second-factor/enrolment/confirm: the recovery codes, once; 422 wrong_second_factor_code.
 * It does not refresh `me` by itself: the caller does once the codes have been shown (a user held to
 * enrolment would otherwise leave the enrolment page before seeing them).
 */
export function useConfirmSecondFactorEnrolment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (code: string): Promise<RecoveryCodesResponse> =>
      recoveryCodesResponseSchema.parse(
        await apiRequest<unknown>('/api/auth/second-factor/enrolment/confirm', {
          method: 'POST',
          body: { code },
        }),
      ),
    // Everything read before may be out of date (refused while held to enrolment, or a list that
    // shows this user's two-factor state): read again when next shown. `me` waits for the caller.
    onSuccess: () =>
      queryClient.invalidateQueries({
        predicate: (query) => query.queryKey[0] !== meQueryKey[0] || query.queryKey[1] !== meQueryKey[1],
      }),
  });
}

/** POST /api/auth/second-factor/recovery-codes: a new set (the old ones stop working); 422 wrong password or code. */
export function useRegenerateRecoveryCodes() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (request: SecondFactorChangeRequest): Promise<RecoveryCodesResponse> =>
      recoveryCodesResponseSchema.parse(
        await apiRequest<unknown>('/api/auth/second-factor/recovery-codes', {
          method: 'POST',
          body: request,
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: meQueryKey }),
  });
}

/** POST /api/auth/second-factor/turn-off: 422 wrong password or code, 409 required for the user's role. */
export function useTurnOffSecondFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: SecondFactorChangeRequest) =>
      apiRequest<void>('/api/auth/second-factor/turn-off', { method: 'POST', body: request }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: meQueryKey }),
  });
}

/** Reads `me` again (after the recovery codes of a new enrolment have been shown). */
export function useRefreshMe() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: meQueryKey });
}
