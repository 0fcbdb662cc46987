import { apiRequest, setCsrfToken } from '../../../lib/api-client.ts';

/** POST /api/auth/logout. `noRenew`: logging out of a session that already ended is not an error. */
export async function logout(): Promise<void> {
  try {
    await apiRequest<void>('/api/auth/logout', { method: 'POST', noRenew: true });
  } finally {
    setCsrfToken(null);
  }
}
