import { type MeResponse, meResponseSchema } from '@cdms/contract';
import { useQuery } from '@tanstack/react-query';
import { ApiError, apiRequest, setCsrfToken } from '../../../lib/api-client.ts';

export const meQueryKey = ['auth', 'me'] as const;

/**
 * The signed-in user, or null when there is no session. The session cookie is HttpOnly, so asking
 * the server is the only way to know. Every write needs the session's CSRF token: it is handed to
 * the API client as soon as it arrives, before any component can send a write.
 */
export async function fetchMe(): Promise<MeResponse | null> {
  try {
    const me = meResponseSchema.parse(await apiRequest<unknown>('/api/auth/me'));
    setCsrfToken(me.csrfToken);
    return me;
  } catch (error) {
    if (error instanceof ApiError && error.kind === 'unauthenticated') {
      setCsrfToken(null);
      return null;
    }
    throw error;
  }
}

export function useMe() {
  return useQuery({ queryKey: meQueryKey, queryFn: fetchMe });
}
