import { renewResponseSchema, type SessionInfo } from '@cdms/contract';
import { apiRequest } from '../../../lib/api-client.ts';

/**
 * POST /api/auth/renew: the user chose to stay signed in. A 401 goes through the API client's
 * renew-and-retry and then its "session expired" listener, like any other call.
 */
export async function renewSession(): Promise<SessionInfo> {
  const response = renewResponseSchema.parse(
    await apiRequest<unknown>('/api/auth/renew', { method: 'POST' }),
  );
  return response.session;
}
