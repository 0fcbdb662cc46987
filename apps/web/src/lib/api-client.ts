import { i18n } from '../i18n/i18n.ts';

/**
 * The one way the web app talks to the server (prototype-spec §8 error catalogue):
 * - JSON in and out, cookies sent, the user's language in Accept-Language (server messages follow it);
 * - the session's CSRF token on every write;
 * - on 401: renew the session once and repeat the request; if renewal fails too, the session is over
 *   (`onSessionExpired` tells the user and goes to the start page);
 * - every failure becomes an `ApiError` with a kind (network, timeout, bad request, server, …) and the
 *   server's message in the user's language.
 */

export type ApiErrorKind =
  | 'network'
  | 'timeout'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'bad_request'
  | 'invalid'
  | 'locked'
  | 'rate_limited'
  | 'server';

export class ApiError extends Error {
  constructor(
    readonly kind: ApiErrorKind,
    readonly status: number,
    /** The server's stable error code (e.g. `invalid_credentials`), or the kind for local failures. */
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

const REQUEST_TIMEOUT_MS = 30_000;

interface ClientState {
  csrfToken: string | null;
  /** Called with the new idle expiry whenever the server reports one (session timer). */
  onSessionExpiry: ((idleExpiresAt: Date) => void) | null;
  /** Called once when the session cannot be renewed any more. */
  onSessionExpired: (() => void) | null;
  /**
   * Called when the server holds the session to two-factor enrolment (a setting turned on while the
   * user was signed in): `me` is read again, and the enrolment page takes over.
   */
  onSecondFactorEnrolmentRequired: (() => void) | null;
  /** Called when a write waits for the study's required training (403 training_required): the refusal and its page. */
  onTrainingRequired: ((error: ApiError, trainingPath: string) => void) | null;
}

const state: ClientState = {
  csrfToken: null,
  onSessionExpiry: null,
  onSessionExpired: null,
  onSecondFactorEnrolmentRequired: null,
  onTrainingRequired: null,
};

export function setCsrfToken(token: string | null): void {
  state.csrfToken = token;
}

export function setSessionListeners(listeners: {
  onSessionExpiry?: (idleExpiresAt: Date) => void;
  onSessionExpired?: () => void;
  onSecondFactorEnrolmentRequired?: () => void;
  onTrainingRequired?: (error: ApiError, trainingPath: string) => void;
}): void {
  state.onSessionExpiry = listeners.onSessionExpiry ?? null;
  state.onSessionExpired = listeners.onSessionExpired ?? null;
  state.onSecondFactorEnrolmentRequired = listeners.onSecondFactorEnrolmentRequired ?? null;
  state.onTrainingRequired = listeners.onTrainingRequired ?? null;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  /** Multipart uploads: sent as is, without a JSON content type. */
  formData?: FormData;
  /** Do not renew-and-retry on 401 (the login and renew calls themselves). */
  noRenew?: boolean;
  signal?: AbortSignal;
}

function kindOfStatus(status: number): ApiErrorKind {
  if (status === 401) return 'unauthenticated';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 409) return 'conflict';
  if (status === 422) return 'invalid';
  if (status === 423) return 'locked';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'server';
  return 'bad_request';
}

function localMessage(kind: 'network' | 'timeout' | 'server' | 'bad_request' | 'unknown'): string {
  return i18n.t(`apiErrors.${kind}`, { ns: 'common' });
}

async function send(path: string, options: RequestOptions): Promise<Response> {
  const method = options.method ?? 'GET';
  const headers: Record<string, string> = { Accept: 'application/json', 'Accept-Language': i18n.language };
  let body: BodyInit | undefined;
  if (options.formData) {
    body = options.formData;
  } else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  if (method !== 'GET' && state.csrfToken) headers['X-CSRF-Token'] = state.csrfToken;

  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), REQUEST_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout.signal]) : timeout.signal;
  try {
    const response = await fetch(path, { method, headers, body, credentials: 'same-origin', signal });
    const expiry = response.headers.get('x-session-idle-expires-at');
    if (expiry && state.onSessionExpiry) state.onSessionExpiry(new Date(expiry));
    return response;
  } catch (error) {
    if (options.signal?.aborted) throw error; // the caller cancelled: not an error to show
    if (timeout.signal.aborted) throw new ApiError('timeout', 0, 'timeout', localMessage('timeout'));
    throw new ApiError('network', 0, 'network', localMessage('network'));
  } finally {
    clearTimeout(timer);
  }
}

async function toApiError(response: Response): Promise<ApiError> {
  const kind = kindOfStatus(response.status);
  try {
    const payload = (await response.json()) as {
      error?: { code?: string; message?: string; details?: unknown };
    };
    if (payload.error?.code && payload.error.message) {
      return new ApiError(
        kind,
        response.status,
        payload.error.code,
        payload.error.message,
        payload.error.details,
      );
    }
  } catch {
    // Not our JSON error shape (a proxy's page, say): fall through to a local message.
  }
  const fallback = kind === 'server' ? 'server' : kind === 'bad_request' ? 'bad_request' : 'unknown';
  return new ApiError(kind, response.status, kind, localMessage(fallback));
}

let renewal: Promise<boolean> | null = null;

/** Renews the session once for any number of requests that failed with 401 at the same time. */
function renewSession(): Promise<boolean> {
  renewal ??= send('/api/auth/renew', { method: 'POST', noRenew: true })
    .then((response) => response.ok)
    .catch(() => false)
    .finally(() => {
      setTimeout(() => {
        renewal = null;
      }, 1000); // prototype-spec §9: the renewal result is cached for 1 second
    });
  return renewal;
}

/** Sends a request, renewing the session once on 401 (spec §8); a failure becomes `ApiError`. */
async function sendWithRenewal(path: string, options: RequestOptions): Promise<Response> {
  let response = await send(path, options);
  if (response.status === 401 && !options.noRenew) {
    if (await renewSession()) {
      response = await send(path, options);
    }
    if (response.status === 401) {
      state.csrfToken = null;
      state.onSessionExpired?.();
    }
  }
  if (!response.ok) {
    const error = await toApiError(response);
    if (error.code === 'second_factor_enrolment_required') state.onSecondFactorEnrolmentRequired?.();
    const trainingPath = (error.details as { trainingPath?: unknown } | undefined)?.trainingPath;
    if (error.code === 'training_required' && typeof trainingPath === 'string')
      state.onTrainingRequired?.(error, trainingPath);
    throw error;
  }
  return response;
}

/** Sends a request and returns the parsed JSON body (undefined for 204). Throws `ApiError`. */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const response = await sendWithRenewal(path, options);
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}

/** The file name of a Content-Disposition header (RFC 6266: `filename*` first, then `filename`). */
function fileNameOf(disposition: string | null): string | null {
  if (!disposition) return null;
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1];
  if (encoded) {
    try {
      return decodeURIComponent(encoded);
    } catch {
      // Not valid percent-encoding: use the plain name.
    }
  }
  return /filename="([^"]+)"/i.exec(disposition)?.[1] ?? null;
}

/** Downloads a file (exports): its bytes and the name the server gave it. Throws `ApiError`. */
export async function apiDownload(path: string): Promise<{ blob: Blob; fileName: string | null }> {
  const response = await sendWithRenewal(path, {});
  return { blob: await response.blob(), fileName: fileNameOf(response.headers.get('content-disposition')) };
}

/**
 * Downloads a file and hands it to the browser to save, under the name the server gave it or
 * `fallbackName`. Throws `ApiError`.
 */
export async function saveDownload(path: string, fallbackName: string): Promise<void> {
  const { blob, fileName } = await apiDownload(path);
  saveBlob(blob, fileName ?? fallbackName);
}

/** Hands a file made in the browser (or downloaded) to the browser to save under `name`. */
export function saveBlob(blob: Blob, name: string): void {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // Let the browser start the download before the address is released.
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}
