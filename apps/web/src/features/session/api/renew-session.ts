import type { RenewResponse, SessionInfo } from '@cdms/contract';
import { apiRequest } from '../../../lib/api-client.ts';

/**
 * POST /api/auth/renew: the user chose to stay signed in. A 401 goes through the API client's
 * renew-and-retry and then its "session expired" listener, like any other call. Like `fetchMe`, trusts
 * the answer the server checked against the contract (this module is part of every page).
 */
export async function renewSession(): Promise<SessionInfo> {
  const response = await apiRequest<RenewResponse>('/api/auth/renew', { method: 'POST' });
  return response.session;
}
