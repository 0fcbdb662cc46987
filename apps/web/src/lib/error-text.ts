import { ApiError } from './api-client.ts';

/**
 * What a failed call tells the user: the server's message (in the user's language, or the API client's
 * own for a network failure or timeout), or any other error as text.
 */
export function errorText(error: unknown): string {
  return error instanceof ApiError ? error.message : String(error);
}
