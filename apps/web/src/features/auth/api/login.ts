import {
  type LoginRequest,
  type MeResponse,
  meResponseSchema,
  type SecondFactorLoginRequest,
  type SecondFactorRequiredResponse,
  secondFactorRequiredResponseSchema,
} from '@cdms/contract';
import { apiRequest, setCsrfToken } from '../../../lib/api-client.ts';

/**
 * POST /api/auth/login. `noRenew`: a 401 here means wrong credentials, not an expired session.
 * Answers the signed-in user, or, for a user with two-factor sign-in, a pending token for the code
 * step (no session yet). Throws ApiError: invalid_credentials (401), account_locked (423),
 * too_many_requests (429), or a local network/timeout error.
 */
export async function login(request: LoginRequest): Promise<MeResponse | SecondFactorRequiredResponse> {
  const body = await apiRequest<unknown>('/api/auth/login', { method: 'POST', body: request, noRenew: true });
  const pending = secondFactorRequiredResponseSchema.safeParse(body);
  if (pending.success) return pending.data;
  const me = meResponseSchema.parse(body);
  setCsrfToken(me.csrfToken);
  return me;
}

/** POST /api/auth/login/second-factor: the code step; throws wrong_second_factor_code (401) etc. */
export async function loginSecondFactor(request: SecondFactorLoginRequest): Promise<MeResponse> {
  const me = meResponseSchema.parse(
    await apiRequest<unknown>('/api/auth/login/second-factor', {
      method: 'POST',
      body: request,
      noRenew: true,
    }),
  );
  setCsrfToken(me.csrfToken);
  return me;
}
