import {
  changePasswordRequestSchema,
  confirmSecondFactorRequestSchema,
  loginRequestSchema,
  type MeResponse,
  meOrSignedOutResponseSchema,
  meResponseSchema,
  notificationPreferencesResponseSchema,
  recoveryCodesResponseSchema,
  renewResponseSchema,
  type StudyMembership,
  secondFactorChangeRequestSchema,
  secondFactorEnrolmentResponseSchema,
  secondFactorLoginRequestSchema,
  secondFactorRequiredResponseSchema,
  startSecondFactorEnrolmentRequestSchema,
  updateContactRequestSchema,
  updateNotificationPreferencesRequestSchema,
} from '@cdms/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { AppContext } from '../app-context.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database, SessionRow } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { refusals } from '../http/refusals.ts';
import type { App } from '../http/types.ts';
import { changeOwnPassword, updateOwnContact } from './account.ts';
import { actorOf, principalOf, SESSION_EXPIRY_HEADER } from './authenticate.ts';
import { type LoginResult, login } from './login.ts';
import { readNotificationPreferences, updateNotificationPreferences } from './notification-preferences.ts';
import {
  loadSessionPrincipal,
  type Principal,
  presentMemberships,
  type SessionPrincipal,
  type StudyOrSiteHold,
  studySitesOf,
} from './principal.ts';
import { countUnusedRecoveryCodes } from './recovery-codes.ts';
import { regenerateRecoveryCodes } from './regenerate-recovery-codes.ts';
import { confirmEnrolment, startEnrolment } from './second-factor.ts';
import { holdsRoleThatMayRequireSecondFactor } from './second-factor-enrolment-gate.ts';
import { completeSecondFactorLogin } from './second-factor-login.ts';
import { deleteSession, SESSION_COOKIE } from './sessions.ts';
import { turnOffSecondFactor } from './turn-off-second-factor.ts';
import type { WriteGate } from './write-gate.ts';

const errorResponses = { tags: ['auth'] };

/** A change to the second factor asks for the password and a current code again (`withPasswordAndCode`). */
const reverificationRefusals = refusals({
  409: 'Two-factor sign-in is not on (`second_factor_not_enrolled`).',
  422: 'The password (`current_password_incorrect`) or the code (`wrong_second_factor_code`) is wrong.',
  429: 'Too many wrong passwords or codes in a row: wait (`too_many_second_factor_attempts`).',
});

export function presentSession(session: SessionRow, idleSeconds: number) {
  return {
    idleExpiresAt: session.idle_expires_at.toISOString(),
    absoluteExpiresAt: session.absolute_expires_at.toISOString(),
    serverTime: new Date().toISOString(),
    idleTimeoutSeconds: idleSeconds,
  };
}

/** The signed-in user as the browser sees it; the second-factor facts come with the session's statement. */
export async function presentMe(
  db: Kysely<Database>,
  signedIn: SessionPrincipal,
  idleSeconds: number,
  writeGate: WriteGate,
): Promise<MeResponse> {
  const { principal } = signedIn;
  const user = principal.user;
  const secondFactorEnrolled = signedIn.secondFactorConfirmed;
  const secondFactorMandatory =
    holdsRoleThatMayRequireSecondFactor(principal) && signedIn.secondFactorRequiredForAdminAndDm;
  return {
    user: {
      id: user.id,
      name: user.name,
      email: user.email,
      contact: user.contact,
      locale: user.locale,
      isAdmin: user.is_admin,
      previousLoginAt: user.previous_login_at?.toISOString() ?? null,
      secondFactorEnrolled,
      recoveryCodesRemaining: secondFactorEnrolled ? await countUnusedRecoveryCodes(db, user.id) : 0,
      secondFactorMandatory,
      secondFactorEnrolmentRequired: secondFactorMandatory && !secondFactorEnrolled,
    },
    memberships: await withTrainingPending(
      db,
      writeGate,
      principal,
      presentMemberships(
        principal,
        await studySitesOf(db, principal),
        await studyAndSiteHolds(db, [...principal.studies.keys()]),
      ),
    ),
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

export function registerAuthRoutes(app: App, context: AppContext, writeGate: WriteGate): void {
  const { db } = context.database;
  const idleSeconds = context.config.session.idleSeconds;

  /** The session cookie and the signed-in user, after the last step of a login. */
  async function answerSignedIn(request: FastifyRequest, reply: FastifyReply, result: LoginResult) {
    setSessionCookie(request, reply, result.token, context.config.session.maxSeconds);
    reply.header(SESSION_EXPIRY_HEADER, result.session.idle_expires_at.toISOString());
    // The new session read back as every request reads it: user, memberships, second-factor facts.
    const signedIn = await loadSessionPrincipal(db, result.session.id_hash);
    if (!signedIn) throw new AppError(401, 'unauthenticated');
    return presentMe(db, signedIn, idleSeconds, writeGate);
  }

  app.post(
    '/api/auth/login',
    {
      config: { access: 'public' },
      schema: {
        ...errorResponses,
        summary: 'Sign in with email and password (then a code, when the user has two-factor sign-in)',
        body: loginRequestSchema,
        response: {
          200: z.union([meResponseSchema, secondFactorRequiredResponseSchema]),
          ...refusals({
            401: 'Wrong email or password (`invalid_credentials`).',
            423: 'Too many failed sign-ins: the account is locked at this address for a while (`account_locked`).',
            429: 'Too many sign-ins from this address (`too_many_requests`), or a wait after failures (`login_delayed`).',
          }),
        },
      },
    },
    async (request, reply) => {
      const result = await login(db, context.config, {
        email: request.body.email,
        password: request.body.password,
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? '',
        requestId: String(request.id),
        previousToken: request.cookies[SESSION_COOKIE],
      });
      if (result.secondFactorRequired) return result;
      return answerSignedIn(request, reply, result);
    },
  );

  app.post(
    '/api/auth/login/second-factor',
    {
      config: { access: 'public' },
      schema: {
        ...errorResponses,
        summary: 'Second step of a login: the code from the authenticator app',
        body: secondFactorLoginRequestSchema,
        response: {
          200: meResponseSchema,
          ...refusals({
            401: 'The pending sign-in expired or is unknown (`second_factor_login_expired`), or the code is wrong (`wrong_second_factor_code`).',
            423: 'Too many failed sign-ins: the account is locked at this address for a while (`account_locked`).',
            429: 'Too many sign-ins from this address (`too_many_requests`), or a wait after failures (`login_delayed`).',
          }),
        },
      },
    },
    async (request, reply) => {
      const result = await completeSecondFactorLogin(db, context.config, {
        pendingToken: request.body.pendingToken,
        code: request.body.code,
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? '',
        requestId: String(request.id),
        previousToken: request.cookies[SESSION_COOKIE],
      });
      return answerSignedIn(request, reply, result);
    },
  );

  app.post(
    '/api/auth/second-factor/enrolment',
    {
      config: { access: 'signed-in' },
      schema: {
        ...errorResponses,
        summary: 'Start two-factor enrolment (password again): secret, otpauth URI and QR image',
        body: startSecondFactorEnrolmentRequestSchema,
        response: {
          200: secondFactorEnrolmentResponseSchema,
          ...refusals({
            409: 'Two-factor sign-in is already on (`second_factor_already_enrolled`).',
            422: 'The password is wrong (`current_password_incorrect`).',
          }),
        },
      },
    },
    async (request) => startEnrolment(db, principalOf(request).user, actorOf(request), request.body.password),
  );

  app.post(
    '/api/auth/second-factor/enrolment/confirm',
    {
      config: { access: 'signed-in' },
      schema: {
        ...errorResponses,
        summary: 'Confirm two-factor enrolment with a first code; answers the recovery codes, once',
        body: confirmSecondFactorRequestSchema,
        response: {
          200: recoveryCodesResponseSchema,
          ...refusals({
            409: 'No enrolment is waiting for its first code (`second_factor_not_pending`).',
            422: 'The code is wrong (`wrong_second_factor_code`).',
          }),
        },
      },
    },
    async (request) => confirmEnrolment(db, principalOf(request).user, actorOf(request), request.body.code),
  );

  app.post(
    '/api/auth/second-factor/recovery-codes',
    {
      config: { access: 'signed-in' },
      schema: {
        ...errorResponses,
        summary: 'New recovery codes (password and a current code); the old ones stop working',
        body: secondFactorChangeRequestSchema,
        response: { 200: recoveryCodesResponseSchema, ...reverificationRefusals },
      },
    },
    async (request) => regenerateRecoveryCodes(db, principalOf(request).user, actorOf(request), request.body),
  );

  app.post(
    '/api/auth/second-factor/turn-off',
    {
      config: { access: 'signed-in' },
      schema: {
        ...errorResponses,
        summary: 'Turn off own two-factor sign-in (password and a current code; refused when required)',
        body: secondFactorChangeRequestSchema,
        response: {
          204: z.null(),
          ...reverificationRefusals,
          ...refusals({
            409:
              'Two-factor sign-in is not on (`second_factor_not_enrolled`), or a role of the user requires it ' +
              '(`second_factor_required_for_role`).',
          }),
        },
      },
    },
    async (request, reply) => {
      await turnOffSecondFactor(db, principalOf(request), actorOf(request), request.body);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/auth/logout',
    {
      config: { access: 'signed-in' },
      schema: { ...errorResponses, summary: 'Sign out (ends this session)', response: { 204: z.null() } },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      await inTransaction(db, async (trx) => {
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
      config: { access: 'identified' },
      schema: {
        ...errorResponses,
        summary: 'The signed-in user, memberships and abilities; `{ "user": null }` without a session',
        response: { 200: meOrSignedOutResponseSchema },
      },
    },
    async (request, reply) => {
      if (request.signedIn) return presentMe(db, request.signedIn, idleSeconds, writeGate);
      // A cookie of a session that has ended is of no more use: the browser may forget it.
      if (request.cookies[SESSION_COOKIE]) clearSessionCookie(request, reply);
      return { user: null };
    },
  );

  app.post(
    '/api/auth/renew',
    {
      config: { access: 'signed-in', renewsSession: true },
      schema: {
        ...errorResponses,
        summary: 'Extend the idle session',
        response: { 200: renewResponseSchema },
      },
    },
    async (request) => {
      // authenticate() has already extended the session in full (a POST is activity, and
      // `renewsSession` lifts the one-minute step of other writes) and sent the header; renew only
      // says so, without a second UPDATE.
      return { session: presentSession(principalOf(request).session, idleSeconds) };
    },
  );

  app.put(
    '/api/auth/password',
    {
      config: { access: 'signed-in' },
      schema: {
        ...errorResponses,
        summary: 'Change own password; other sessions end',
        body: changePasswordRequestSchema,
        response: {
          204: z.null(),
          ...refusals({
            422:
              'The current password is wrong (`current_password_incorrect`), or the new one breaks the password ' +
              'rules (`password_policy`, `details.issues`), is too common (`password_too_common`) or unchanged (`password_unchanged`).',
          }),
        },
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
      config: { access: 'signed-in' },
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

  app.get(
    '/api/auth/notification-preferences',
    {
      config: { access: 'signed-in' },
      schema: {
        ...errorResponses,
        summary: 'Own e-mail notification choices, per event type (issue 18)',
        response: { 200: notificationPreferencesResponseSchema },
      },
    },
    async (request) => readNotificationPreferences(db, principalOf(request).user.id),
  );

  app.put(
    '/api/auth/notification-preferences',
    {
      config: { access: 'signed-in' },
      schema: {
        ...errorResponses,
        summary: 'Change own e-mail notification choices (audited)',
        body: updateNotificationPreferencesRequestSchema,
        response: { 200: notificationPreferencesResponseSchema },
      },
    },
    async (request) =>
      updateNotificationPreferences(
        db,
        actorOf(request),
        principalOf(request).user.id,
        request.body.preferences,
      ),
  );
}

/** The study and site freezes and locks in force in these studies (few: each a deliberate act). */
async function studyAndSiteHolds(db: Kysely<Database>, studyIds: number[]): Promise<StudyOrSiteHold[]> {
  if (studyIds.length === 0) return [];
  const rows = await db
    .selectFrom('holds')
    .select(['study_id', 'site_id', 'kind', 'level'])
    .where('study_id', 'in', studyIds)
    .where('lifted_at', 'is', null)
    .where('level', 'in', ['study', 'site'])
    .execute();
  return rows.map((row) => ({
    studyId: row.study_id,
    siteId: row.level === 'site' ? row.site_id : null,
    kind: row.kind,
    level: row.level as 'study' | 'site',
  }));
}

/** Each membership with whether the study's training gate holds the user's data entry back (issue 51). */
async function withTrainingPending(
  db: Kysely<Database>,
  writeGate: WriteGate,
  principal: Principal,
  memberships: StudyMembership[],
): Promise<StudyMembership[]> {
  const pending = await writeGate.heldStudies(db, principal);
  return memberships.map((membership) => ({
    ...membership,
    trainingPending: pending.has(membership.studyId),
  }));
}
