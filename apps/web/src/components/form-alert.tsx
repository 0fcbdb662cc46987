import { ApiError } from '../lib/api-client.ts';

/**
 * What went wrong, under a form or a panel: a paragraph read out at once (`role="alert"`); nothing
 * while there is no message.
 */
export function FormAlert({
  message,
  className,
}: {
  message: string | null | undefined;
  className?: string;
}) {
  return message ? (
    <p className={className} role="alert">
      {message}
    </p>
  ) : null;
}

/**
 * What a failed call tells the user: the server's message (in the user's language, or the API client's
 * own for a network failure or timeout), or any other error as text.
 */
export function errorText(error: unknown): string {
  return error instanceof ApiError ? error.message : String(error);
}
