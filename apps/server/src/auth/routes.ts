import {
  changePasswordRequestSchema,
  loginRequestSchema,
  type MeResponse,
  meResponseSchema,
  renewResponseSchema,
  updateContactRequestSchema,
} from '@cdms/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../app-context.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { SessionRow } from '../db/schema.ts';
import type { App } from '../http/types.ts';
import { changeOwnPassword, updateOwnContact } from './account.ts';
import { actorOf, authenticate, principalOf, SESSION_EXPIRY_HEADER } from './authenticate.ts';
import { login } from './login.ts';
import { loadPrincipal, type Principal, presentMemberships } from './principal.ts';
import { deleteSession, extendSession, SESSION_COOKIE } from './sessions.ts';

const errorResponses = { tags: ['auth'] };

export function presentSession(session: SessionRow, idleSeconds: number) {
  return {
    idleExpiresAt: session.idle_expires_at.toISOString(),
    absoluteExpiresAt: session.absolute_expires_at.toISOString(),
    serverTime: new Date().toISOString(),
    idleTimeoutSeconds: idleSeconds,
  };
}

export function presentMe(principal: Principal, idleSeconds: number): MeResponse {
  const user = principal.user;
  return {
    user: {
      id: user.id,
      name: user.name,
      email: user.email,
      contact: user.contact,
      locale: user.locale,
      isAdmin: user.is_admin,
      previousLoginAt: user.previous_login_at?.toISOString() ?? null,
    },
    memberships: presentMemberships(principal),
    csrfToken: principal.session.csrf_token,
    session: presentSession(principal.session, idleSeconds),
  };
}

function setSessionCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  token: string,
  maxAgeSeconds: number,
): void {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    maxAge: maxAgeSeconds,
  });
}

function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
  });
}

export function registerAuthRoutes(app: App, context: AppContext): void {
  const { db } = context.database;
  const idleSeconds = context.config.session.idleSeconds;
  const requireUser = authenticate(context);

  app.post(
    '/api/auth/login',
    {
      schema: {
        ...errorResponses,
        summary: 'Sign in with email and password',
        body: loginRequestSchema,
        response: { 200: meResponseSchema },
      },
    },
    async (request, reply) => {
      const { token, session, user } = await login(db, context.config, {
        email: request.body.email,
        password: request.body.password,
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? '',
        requestId: String(request.id),
        previousToken: request.cookies[SESSION_COOKIE],
      });
      setSessionCookie(request, reply, token, context.config.session.maxSeconds);
      reply.header(SESSION_EXPIRY_HEADER, session.idle_expires_at.toISOString());
      return presentMe(await loadPrincipal(db, user, session), idleSeconds);
    },
  );

  app.post(
    '/api/auth/logout',
    {
      preHandler: requireUser,
      schema: { ...errorResponses, summary: 'Sign out (ends this session)', response: { 204: z.null() } },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      await db.transaction().execute(async (trx) => {
        await deleteSession(trx, principal.session.id_hash);
        await recordAudit(trx, actorOf(request), {
          type: 'auth.logout',
          entityType: 'session',
          entityId: principal.user.id,
        });
      });
      clearSessionCookie(request, reply);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/api/auth/me',
    {
      preHandler: requireUser,
      schema: {
        ...errorResponses,
        summary: 'The signed-in user, memberships and abilities',
        response: { 200: meResponseSchema },
      },
    },
    async (request) => presentMe(principalOf(request), idleSeconds),
  );

  app.post(
    '/api/auth/renew',
    {
      preHandler: requireUser,
      schema: {
        ...errorResponses,
        summary: 'Extend the idle session',
        response: { 200: renewResponseSchema },
      },
    },
    async (request, reply) => {
      // authenticate() has already extended the session (a write is activity); renew says so.
      const session = await extendSession(db, principalOf(request).session, context.config.session);
      reply.header(SESSION_EXPIRY_HEADER, session.idle_expires_at.toISOString());
      return { session: presentSession(session, idleSeconds) };
    },
  );

  app.put(
    '/api/auth/password',
    {
      preHandler: requireUser,
      schema: {
        ...errorResponses,
        summary: 'Change own password; other sessions end',
        body: changePasswordRequestSchema,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await changeOwnPassword(db, principalOf(request), actorOf(request), request.body);
      return reply.status(204).send(null);
    },
  );

  app.put(
    '/api/auth/contact',
    {
      preHandler: requireUser,
      schema: {
        ...errorResponses,
        summary: 'Change own contact number',
        body: updateContactRequestSchema,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await updateOwnContact(db, principalOf(request), actorOf(request), request.body.contact);
      return reply.status(204).send(null);
    },
  );
}
