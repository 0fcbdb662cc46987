import type { MeOrSignedOutResponse, SessionInfo } from '@cdms/contract';
import { apiRequest } from '../../../lib/api-client.ts';

/**
 * Asks the server how long the session really has left, without extending it (a GET is not
 * activity) and without the API client's expiry handling (`noRenew`): the timer decides what to do.
 * Another tab's activity may have pushed the expiry out since this tab last heard. Null when the
 * session is over. Like `fetchMe`, trusts the answer the server checked against the contract.
 */
export async function checkSession(): Promise<SessionInfo | null> {
  const answer = await apiRequest<MeOrSignedOutResponse>('/api/auth/me', { noRenew: true });
  return 'session' in answer ? answer.session : null;
}
