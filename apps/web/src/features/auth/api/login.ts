import { type LoginRequest, type MeResponse, meResponseSchema } from '@cdms/contract';
import { apiRequest, setCsrfToken } from '../../../lib/api-client.ts';

/**
 * POST /api/auth/login. `noRenew`: a 401 here means wrong credentials, not an expired session.
 * Throws ApiError: invalid_credentials (401), account_locked (423), too_many_requests (429), or a
 * local network/timeout error.
 */
export async function login(request: LoginRequest): Promise<MeResponse> {
  const me = meResponseSchema.parse(
    await apiRequest<unknown>('/api/auth/login', { method: 'POST', body: request, noRenew: true }),
  );
  setCsrfToken(me.csrfToken);
  return me;
}
