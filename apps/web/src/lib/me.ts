import type { MeOrSignedOutResponse, MeResponse } from '@cdms/contract';
import { useQuery } from '@tanstack/react-query';
import { apiRequest, setCsrfToken } from './api-client.ts';

export const meQueryKey = ['auth', 'me'] as const;

/**
 * The signed-in user, or null when there is no session (the server answers `{ user: null }`, not
 * an error). The session cookie is HttpOnly, so asking the server is the only way to know. Every
 * write needs the session's CSRF token: it is handed to the API client as soon as it arrives,
 * before any component can send a write.
 *
 * Not parsed again here: the server checks this answer against the contract's schema before it
 * sends it (the route's response schema), and every page loads this module first, so it keeps zod
 * (about 30 KB compressed) out of the code of the first paint.
 */
export async function fetchMe(): Promise<MeResponse | null> {
  const answer = await apiRequest<MeOrSignedOutResponse>('/api/auth/me');
  if (answer.user === null) {
    setCsrfToken(null);
    return null;
  }
  setCsrfToken(answer.csrfToken);
  return answer;
}

export const meQueryOptions = { queryKey: meQueryKey, queryFn: fetchMe };

export function useMe() {
  return useQuery(meQueryOptions);
}

/**
 * Whether the study randomizes: its design declares randomization and it was not created with
 * randomization off — the server folds both into the membership's `designRoles` (`studyRandomizes`).
 */
export function studyRandomizes(membership: { designRoles: readonly string[] }): boolean {
  return membership.designRoles.includes('randomization');
}

/** A study's title in the reader's language: the English one in English when the study has one. */
export function studyTitleIn(
  membership: { studyTitle: string; studyTitleEn: string },
  language: string,
): string {
  return language === 'en' && membership.studyTitleEn !== ''
    ? membership.studyTitleEn
    : membership.studyTitle;
}
