import { type MeResponse, meOrSignedOutResponseSchema } from '@cdms/contract';
import { useQuery } from '@tanstack/react-query';
import { apiRequest, setCsrfToken } from '../../../lib/api-client.ts';

export const meQueryKey = ['auth', 'me'] as const;

/**
 * The signed-in user, or null when there is no session (the server answers `{ user: null }`, not
 * an error). The session cookie is HttpOnly, so asking the server is the only way to know. Every
 * write needs the session's CSRF token: it is handed to the API client as soon as it arrives,
 * before any component can send a write.
 */
export async function fetchMe(): Promise<MeResponse | null> {
  const answer = meOrSignedOutResponseSchema.parse(await apiRequest<unknown>('/api/auth/me'));
  if (answer.user === null) {
    setCsrfToken(null);
    return null;
  }
  setCsrfToken(answer.csrfToken);
  return answer;
}

export function useMe() {
  return useQuery({ queryKey: meQueryKey, queryFn: fetchMe });
}
