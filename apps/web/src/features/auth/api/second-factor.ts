import { type SecondFactorEnrolmentResponse, secondFactorEnrolmentResponseSchema } from '@cdms/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { meQueryKey } from './me.ts';

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

/** POST /api/auth/second-factor/enrolment/confirm: 422 wrong_second_factor_code. */
export function useConfirmSecondFactorEnrolment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) =>
      apiRequest<void>('/api/auth/second-factor/enrolment/confirm', { method: 'POST', body: { code } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: meQueryKey }),
  });
}
