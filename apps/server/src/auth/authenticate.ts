import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../app-context.ts';
import type { AuditActor } from '../audit/audit-events.ts';
import { AppError } from '../http/errors.ts';
import { withRefusals } from '../http/refusals.ts';
import { loadSessionPrincipal, type Principal, type SessionPrincipal } from './principal.ts';
import { allowedBeforeEnrolment, secondFactorEnrolmentRequired } from './second-factor-enrolment-gate.ts';
import {
  deleteSession,
  hashSessionToken,
  isLive,
  SESSION_COOKIE,
  SESSION_EXTENSION_STEP_SECONDS,
} from './sessions.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route renews the session: its idle expiry moves out in full, however recently it moved. */
    renewsSession?: boolean;
  }
  interface FastifyRequest {
    /** The signed-in user, set by `authenticate` on routes that require one. */
    principal: Principal | null;
    /** The principal with the second-factor facts its session's statement read (`authenticate`, `identify`). */
    signedIn: SessionPrincipal | null;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The header that tells the browser when its session will end if it stays idle. */
export const SESSION_EXPIRY_HEADER = 'x-session-idle-expires-at';

function sameToken(expected: string, given: string | undefined): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The principal of the request's session cookie, or null without a live session of an active
 * account. On writes the session's CSRF token must be in X-CSRF-Token, and a write counts as
 * activity: it pushes the idle expiry out (by at least a minute, `SESSION_EXTENSION_STEP_SECONDS`,
 * or nothing is written). Either costs one statement (session, user, memberships
 * and the second-factor facts together; on a write the extension rides along, `loadSessionPrincipal`).
 */
async function sessionPrincipal(
  context: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<SessionPrincipal | null> {
  const { db } = context.database;
  const token = request.cookies[SESSION_COOKIE];
  const now = new Date();
  const write = !SAFE_METHODS.has(request.method);
  const csrfToken = request.headers['x-csrf-token'];
  const extension =
    write && typeof csrfToken === 'string'
      ? {
          csrfToken,
          now,
          idleSeconds: context.config.session.idleSeconds,
          minimumGainSeconds: request.routeOptions.config.renewsSession ? 0 : SESSION_EXTENSION_STEP_SECONDS,
        }
      : undefined;
  const loaded = token ? await loadSessionPrincipal(db, hashSessionToken(token), extension) : undefined;
  if (!loaded) return null;
  const { extendedUntil, ...found } = loaded;
  let { session, user } = found.principal;
  if (!isLive(session, now)) {
    await deleteSession(db, session.id_hash);
    return null;
  }
  if (!user.active) return null;

  if (write) {
    if (!sameToken(session.csrf_token, csrfToken as string | undefined)) {
      throw new AppError(403, 'csrf_failed');
    }
    // Extended by the same statement under these very conditions (live, active, the token's match).
    if (extendedUntil) session = { ...session, idle_expires_at: extendedUntil, last_seen_at: now };
  }
  reply.header(SESSION_EXPIRY_HEADER, session.idle_expires_at.toISOString());
  return { ...found, principal: { ...found.principal, session } };
}

/** A user the system setting requires to have a second factor, without one, may only enrol. */
function holdToEnrolment(request: FastifyRequest, found: SessionPrincipal) {
  if (
    !allowedBeforeEnrolment(request.method, request.routeOptions.url) &&
    secondFactorEnrolmentRequired(found.principal, found)
  ) {
    throw new AppError(403, 'second_factor_enrolment_required');
  }
}

/**
 * preHandler for every route that needs a signed-in user: a live session from the cookie (401
 * without), an active account, and on writes the session's CSRF token. A user who must enrol a
 * second factor first (system setting) reaches only the enrolment routes.
 */
export function authenticate(context: AppContext) {
  return withRefusals(
    async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
      const found = await sessionPrincipal(context, request, reply);
      if (!found) throw new AppError(401, 'unauthenticated');
      request.principal = found.principal;
      request.signedIn = found;
      holdToEnrolment(request, found);
    },
    {
      401: 'No live session: not signed in, or the session expired or was ended (`unauthenticated`).',
      403:
        "A write without the session's CSRF token in X-CSRF-Token (`csrf_failed`), or a user who must enrol a " +
        'second factor first (`second_factor_enrolment_required`).',
    },
  );
}

/**
 * preHandler for the one route that asks who is signed in (GET /api/auth/me): like `authenticate`,
 * but without a session the request goes on with `request.principal` null instead of a 401.
 */
export function identify(context: AppContext) {
  return withRefusals(
    async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
      const found = await sessionPrincipal(context, request, reply);
      request.principal = found?.principal ?? null;
      request.signedIn = found;
      if (found) holdToEnrolment(request, found);
    },
    { 403: 'A user who must enrol a second factor first (`second_factor_enrolment_required`).' },
  );
}

/** preHandler after `authenticate`: system administrators only. */
export const requireSystemAdmin = withRefusals(
  async (request: FastifyRequest): Promise<void> => {
    if (!request.principal?.user.is_admin) throw new AppError(403, 'forbidden');
  },
  { 403: 'The caller is not a system administrator (`forbidden`).' },
);

/** The principal of a route that ran `authenticate` (a programming error otherwise). */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new Error('principalOf() on a route without authenticate');
  return request.principal;
}

/** The actor of the audit records a request writes. */
export function actorOf(request: FastifyRequest): AuditActor {
  const principal = request.principal;
  return {
    userId: principal?.user.id ?? null,
    label: principal?.user.email ?? 'anonymous',
    ip: request.ip,
    requestId: String(request.id),
    ...(principal ? { studyRoles: principal.studies } : {}),
  };
}
