import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, sessionUser, signIn } from '../../test/test-app.ts';
import { describeWithDatabase } from '../../test/test-database.ts';
import type { App } from '../http/types.ts';
import { DEMO_PASSWORD } from '../seed/demo-seed.ts';
import { hashSessionToken, SESSION_COOKIE } from './sessions.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Lockouts, login delays and the ends of sessions are all decided against the server's `new Date()`:
 * the tests move that clock forward instead of sleeping through the seconds. It keeps running from
 * there, and is put back only when the file ends: a clock that jumped back would make the sessions
 * written meanwhile last longer than the tests after it expect.
 */
function moveClockForward(milliseconds: number): void {
  if (!vi.isFakeTimers()) vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
  vi.setSystemTime(Date.now() + milliseconds);
}

afterAll(() => {
  vi.useRealTimers();
});
/** The stored id of a signed-in session: the hash of its cookie's token. */
const idHashOf = (session: { cookie: string }) =>
  hashSessionToken(session.cookie.slice(`${SESSION_COOKIE}=`.length));

describeWithDatabase(
  'auth API',
  (database) => {
    let app: App;
    const auditTypes = async () =>
      (await database().db.selectFrom('audit_events').select('event_type').orderBy('id').execute()).map(
        (row) => row.event_type,
      );

    beforeAll(async () => {
      app = await buildTestApp(database(), { LOGIN_MAX_FAILURES: '5', LOGIN_LOCKOUT_SECONDS: '2' });
      await app.ready();
    });
    afterAll(async () => {
      await app.close();
    });

    describe('login', () => {
      it('signs in, sets an HttpOnly SameSite cookie (not Secure over http) and returns the user', async () => {
        const response = await app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { email: ' PI@demo.cdms ', password: DEMO_PASSWORD },
        });
        expect(response.statusCode).toBe(200);
        const cookie = response.cookies.find((c) => c.name === 'cdms_session');
        expect(cookie?.httpOnly).toBe(true);
        expect(cookie?.sameSite).toBe('Lax');
        expect(cookie?.secure).toBeFalsy();
        const body = response.json();
        expect(body.user).toMatchObject({ email: 'pi@demo.cdms', name: '김연구', isAdmin: false });
        expect(body.csrfToken).toMatch(/^[\w-]{40,}$/);
        const study = body.memberships.find((m: { studyCode: string }) => m.studyCode === 'TMP-2026');
        expect(study.roles).toEqual(['PI']);
        expect(study.sites.map((s: { institutionNumber: string }) => s.institutionNumber)).toEqual(['01']);
        expect(study.abilities).toEqual([
          'subject.read',
          'subject.write',
          'subject.delete',
          'subject.randomize',
          'casebook.sign',
          'query.answer',
          'report.read',
          'sae.report',
          'sae.submit',
          'sae.read',
          'blind.break',
        ]);
        expect(response.headers['x-session-idle-expires-at']).toBe(body.session.idleExpiresAt);
        expect(response.body).not.toContain('password');
      });

      it('answers an unknown email exactly like a wrong password', async () => {
        const wrong = await app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { email: 'si@demo.cdms', password: 'nope-1234567' },
        });
        const unknown = await app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { email: 'ghost@demo.cdms', password: 'nope-1234567' },
        });
        expect(wrong.statusCode).toBe(401);
        expect(unknown.statusCode).toBe(401);
        expect(unknown.json()).toEqual(wrong.json());
        expect(wrong.json().error.code).toBe('invalid_credentials');
        expect(wrong.cookies).toEqual([]);
      });

      it('locks an account after 5 failures, refuses even the right password, then lets it in after the lockout', async () => {
        const email = 'crc@demo.cdms';
        const attempt = (password: string) =>
          app.inject({
            method: 'POST',
            url: '/api/auth/login',
            payload: { email, password },
            headers: { 'accept-language': 'en' },
          });
        for (let i = 1; i <= 4; i++) expect((await attempt(`wrong-${i}-password`)).statusCode).toBe(401);
        const fifth = await attempt('wrong-5-password');
        expect(fifth.statusCode).toBe(423);
        expect(fifth.json().error).toMatchObject({ code: 'account_locked' });
        expect(fifth.json().error.message).toMatch(/locked/);
        expect((await attempt(DEMO_PASSWORD)).statusCode).toBe(423);
        expect(await auditTypes()).toContain('auth.account_locked');
        moveClockForward(2100);
        expect((await attempt(DEMO_PASSWORD)).statusCode).toBe(200);
      });

      it('locks out only the attacking address: the real user at another address still signs in', async () => {
        const email = 'pi@demo.cdms';
        const attempt = (password: string, remoteAddress: string) =>
          app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress });
        const attacker = '198.51.100.66';
        const statuses: number[] = [];
        for (let i = 1; i <= 6; i++)
          statuses.push((await attempt(`wrong-${i}-password`, attacker)).statusCode);
        expect(statuses).toEqual([401, 401, 401, 401, 423, 423]);
        expect((await attempt(DEMO_PASSWORD, attacker)).statusCode).toBe(423);

        const user = await attempt(DEMO_PASSWORD, '203.0.113.20');
        expect(user.statusCode).toBe(200);
        // The user's sign-in does not unlock the attacker's address.
        expect((await attempt(DEMO_PASSWORD, attacker)).statusCode).toBe(423);
      });

      it('slows, without locking, an email attacked from many addresses', async () => {
        const email = 'cra@demo.cdms';
        const attempt = (password: string, remoteAddress: string) =>
          app.inject({
            method: 'POST',
            url: '/api/auth/login',
            payload: { email, password },
            remoteAddress,
            headers: { 'accept-language': 'en' },
          });
        for (let i = 1; i <= 5; i++) await attempt(`wrong-${i}-password`, '198.51.100.1');
        // The sixth failure for the email, from a second address, makes the next attempt wait a second.
        expect((await attempt('wrong-6-password', '198.51.100.2')).statusCode).toBe(401);
        const delayed = await attempt('wrong-7-password', '198.51.100.3');
        expect(delayed.statusCode).toBe(429);
        expect(delayed.json().error).toMatchObject({ code: 'login_delayed' });
        expect(delayed.json().error.message).toMatch(/Try again in 1 seconds/);
        // The real user is slowed too, but only for that second.
        expect((await attempt(DEMO_PASSWORD, '203.0.113.30')).statusCode).toBe(429);
        moveClockForward(1100);
        expect((await attempt(DEMO_PASSWORD, '203.0.113.30')).statusCode).toBe(200);
      });

      it('locks an unknown email the same way, so lockouts reveal nothing', async () => {
        let last = 0;
        for (let i = 0; i < 5; i++) {
          last = (
            await app.inject({
              method: 'POST',
              url: '/api/auth/login',
              payload: { email: 'nobody@x.kr', password: 'x' },
            })
          ).statusCode;
        }
        expect(last).toBe(423);
      });

      it('refuses malformed login bodies with 400, never 500', async () => {
        for (const payload of [
          {},
          { email: 'a@b.c' },
          { email: 5, password: 'x' },
          { email: '', password: '' },
        ]) {
          const response = await app.inject({ method: 'POST', url: '/api/auth/login', payload });
          expect(response.statusCode).toBe(400);
          expect(response.json().error.code).toBe('validation_failed');
        }
      });

      it('gives a new session id on every login and ends the one the browser came with (no fixation)', async () => {
        const first = await signIn(app, 'dm@demo.cdms');
        const response = await app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { email: 'dm@demo.cdms', password: DEMO_PASSWORD },
          headers: { cookie: first.cookie },
        });
        const second = response.cookies.find((c) => c.name === 'cdms_session')?.value;
        expect(second).toBeDefined();
        expect(`cdms_session=${second}`).not.toBe(first.cookie);
        expect(await sessionUser(app, first.cookie)).toBeNull();
        expect((await sessionUser(app, `cdms_session=${second}`))?.email).toBe('dm@demo.cdms');
      });

      it('stores only a hash of the session token', async () => {
        const session = await signIn(app, 'si@demo.cdms');
        const token = session.cookie.split('=')[1] as string;
        const rows = await database().db.selectFrom('sessions').select('id_hash').execute();
        expect(rows.some((row) => row.id_hash === token)).toBe(false);
        expect(rows.every((row) => /^[0-9a-f]{64}$/.test(row.id_hash))).toBe(true);
      });
    });

    describe('session', () => {
      it('answers /api/auth/me with { user: null } without a cookie or with a bogus one (not a 401)', async () => {
        const none = await app.inject({ method: 'GET', url: '/api/auth/me' });
        expect(none.statusCode).toBe(200);
        expect(none.json()).toEqual({ user: null });
        expect(none.cookies).toEqual([]);
        const forged = await app.inject({
          method: 'GET',
          url: '/api/auth/me',
          headers: { cookie: 'cdms_session=forged' },
        });
        expect(forged.statusCode).toBe(200);
        expect(forged.json()).toEqual({ user: null });
        // The browser is told to forget a cookie that names no live session.
        expect(forged.cookies).toMatchObject([{ name: 'cdms_session', value: '', httpOnly: true }]);
      });

      it('still refuses every other route without a session (401)', async () => {
        const response = await app.inject({ method: 'POST', url: '/api/auth/renew' });
        expect(response.statusCode).toBe(401);
        expect(response.json().error.code).toBe('unauthenticated');
      });

      it('refuses a cookie-authenticated write without the CSRF token', async () => {
        const session = await signIn(app, 'cra@demo.cdms');
        // The idle expiry moves with a write the session may make, and only then.
        const idleExpiry = async () =>
          (
            await database()
              .db.selectFrom('sessions')
              .innerJoin('users', 'users.id', 'sessions.user_id')
              .select('sessions.idle_expires_at')
              .where('users.email', '=', 'cra@demo.cdms')
              .orderBy('sessions.created_at', 'desc')
              .executeTakeFirstOrThrow()
          ).idle_expires_at.getTime();
        const signedInExpiry = await idleExpiry();
        await sleep(5);
        const without = await app.inject({
          method: 'PUT',
          url: '/api/auth/contact',
          payload: { contact: '010-1234-5678' },
          headers: { cookie: session.cookie },
        });
        expect(without.statusCode).toBe(403);
        expect(without.json().error.code).toBe('csrf_failed');
        const wrong = await app.inject({
          method: 'PUT',
          url: '/api/auth/contact',
          payload: { contact: '010-1234-5678' },
          headers: { cookie: session.cookie, 'x-csrf-token': `${session.csrfToken}x` },
        });
        expect(wrong.statusCode).toBe(403);
        const user = await database()
          .db.selectFrom('users')
          .select('contact')
          .where('email', '=', 'cra@demo.cdms')
          .executeTakeFirstOrThrow();
        expect(user.contact).toBe('');
        expect(await idleExpiry()).toBe(signedInExpiry);
        // As if the session had last moved two minutes ago: a write moves it only by more than a minute.
        await database()
          .db.updateTable('sessions')
          .set({ idle_expires_at: new Date(signedInExpiry - 120_000) })
          .where('id_hash', '=', idHashOf(session))
          .execute();
        const right = await app.inject({
          method: 'PUT',
          url: '/api/auth/contact',
          payload: { contact: '010-1234-5678' },
          headers: session.headers,
        });
        expect(right.statusCode).toBe(204);
        expect(await idleExpiry()).toBeGreaterThanOrEqual(signedInExpiry);
        expect(new Date(right.headers['x-session-idle-expires-at'] as string).getTime()).toBe(
          await idleExpiry(),
        );
        const me = await app.inject({
          method: 'GET',
          url: '/api/auth/me',
          headers: { cookie: session.cookie },
        });
        expect(me.json().user.contact).toBe('010-1234-5678');
      });

      it('refuses a contact that is not a phone number', async () => {
        const session = await signIn(app, 'cra@demo.cdms');
        const response = await app.inject({
          method: 'PUT',
          url: '/api/auth/contact',
          payload: { contact: '<script>' },
          headers: session.headers,
        });
        expect(response.statusCode).toBe(400);
      });

      it('moves the idle expiry on a write only when that gains more than a minute; renewing always does', async () => {
        const session = await signIn(app, 'dm@demo.cdms');
        const stored = async () =>
          (
            await database()
              .db.selectFrom('sessions')
              .select('idle_expires_at')
              .where('id_hash', '=', idHashOf(session))
              .executeTakeFirstOrThrow()
          ).idle_expires_at.getTime();
        const write = () =>
          app.inject({
            method: 'PUT',
            url: '/api/auth/contact',
            payload: { contact: '010-2222-3333' },
            headers: session.headers,
          });
        const signedIn = await stored();
        await sleep(20);
        // Seconds after signing in: the full idle period is barely longer, so nothing is written, and
        // the browser is told the expiry as it stands.
        const soon = await write();
        expect(soon.statusCode).toBe(204);
        expect(await stored()).toBe(signedIn);
        expect(new Date(soon.headers['x-session-idle-expires-at'] as string).getTime()).toBe(signedIn);
        // Renewing moves it at once, however recently it moved.
        const renewed = await app.inject({
          method: 'POST',
          url: '/api/auth/renew',
          headers: session.headers,
        });
        expect(renewed.statusCode).toBe(200);
        const renewedExpiry = new Date(renewed.json().session.idleExpiresAt).getTime();
        expect(renewedExpiry).toBeGreaterThan(signedIn);
        expect(await stored()).toBe(renewedExpiry);
        // A write 61 seconds of idleness later (the expiry set back as if they had passed) moves it.
        await database()
          .db.updateTable('sessions')
          .set({ idle_expires_at: new Date(renewedExpiry - 61_000) })
          .where('id_hash', '=', idHashOf(session))
          .execute();
        const later = await write();
        expect(later.statusCode).toBe(204);
        const laterExpiry = new Date(later.headers['x-session-idle-expires-at'] as string).getTime();
        expect(laterExpiry).toBeGreaterThanOrEqual(renewedExpiry);
        expect(await stored()).toBe(laterExpiry);
      });

      it('renews the idle expiry and logs out', async () => {
        const session = await signIn(app, 'pi@demo.cdms');
        const before = (
          await app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie: session.cookie } })
        ).json().session.idleExpiresAt;
        await sleep(20);
        const renewed = await app.inject({
          method: 'POST',
          url: '/api/auth/renew',
          headers: session.headers,
        });
        expect(renewed.statusCode).toBe(200);
        expect(new Date(renewed.json().session.idleExpiresAt).getTime()).toBeGreaterThan(
          new Date(before).getTime(),
        );
        const logout = await app.inject({
          method: 'POST',
          url: '/api/auth/logout',
          headers: session.headers,
        });
        expect(logout.statusCode).toBe(204);
        expect(await sessionUser(app, session.cookie)).toBeNull();
        expect(await auditTypes()).toContain('auth.logout');
      });

      it('ends the session of a deactivated user at once', async () => {
        const admin = await signIn(app, 'admin@demo.cdms');
        const si = await signIn(app, 'si@demo.cdms');
        const deactivate = await app.inject({
          method: 'PUT',
          url: `/api/admin/users/${si.userId}`,
          payload: { active: false },
          headers: admin.headers,
        });
        expect(deactivate.statusCode).toBe(200);
        expect(await sessionUser(app, si.cookie)).toBeNull();
        const login = await app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { email: 'si@demo.cdms', password: DEMO_PASSWORD },
        });
        expect(login.statusCode).toBe(401);
        await app.inject({
          method: 'PUT',
          url: `/api/admin/users/${si.userId}`,
          payload: { active: true },
          headers: admin.headers,
        });
      });
    });

    describe('password change', () => {
      it('checks the current password and the policy, then ends every other session', async () => {
        const here = await signIn(app, 'pi@demo.cdms');
        const elsewhere = await signIn(app, 'pi@demo.cdms');
        const wrongCurrent = await app.inject({
          method: 'PUT',
          url: '/api/auth/password',
          payload: { currentPassword: 'not-it-123', newPassword: 'new-password-2027' },
          headers: here.headers,
        });
        expect(wrongCurrent.statusCode).toBe(422);
        expect(wrongCurrent.json().error.code).toBe('current_password_incorrect');
        const weak = await app.inject({
          method: 'PUT',
          url: '/api/auth/password',
          payload: { currentPassword: DEMO_PASSWORD, newPassword: 'short' },
          headers: here.headers,
        });
        expect(weak.statusCode).toBe(422);
        expect(weak.json().error.details.issues).toEqual(['too_short', 'needs_digit']);
        const common = await app.inject({
          method: 'PUT',
          url: '/api/auth/password',
          payload: { currentPassword: DEMO_PASSWORD, newPassword: 'qwerty12345' },
          headers: { ...here.headers, 'accept-language': 'en' },
        });
        expect(common.statusCode).toBe(422);
        expect(common.json().error).toEqual({
          code: 'password_too_common',
          message: 'This password is one of the most common passwords. Choose another.',
        });

        const changed = await app.inject({
          method: 'PUT',
          url: '/api/auth/password',
          payload: { currentPassword: DEMO_PASSWORD, newPassword: 'new-password-2027' },
          headers: here.headers,
        });
        expect(changed.statusCode).toBe(204);
        expect((await sessionUser(app, here.cookie))?.email).toBe('pi@demo.cdms');
        expect(await sessionUser(app, elsewhere.cookie)).toBeNull();
        await signIn(app, 'pi@demo.cdms', 'new-password-2027');
        await app.inject({
          method: 'PUT',
          url: '/api/auth/password',
          payload: { currentPassword: 'new-password-2027', newPassword: DEMO_PASSWORD },
          headers: here.headers,
        });
      });
    });

    describe('audit of security events', () => {
      it('writes an unbroken, append-only chain', async () => {
        const types = await auditTypes();
        for (const type of [
          'auth.login_succeeded',
          'auth.login_failed',
          'auth.account_locked',
          'auth.logout',
          'auth.password_changed',
          'auth.contact_changed',
          'user.updated',
        ]) {
          expect(types).toContain(type);
        }
        await expect(
          sql`update audit_events set actor_label = 'someone else' where id = 1`.execute(database().db),
        ).rejects.toThrow(/append-only/);
        await expect(sql`delete from audit_events where id = 1`.execute(database().db)).rejects.toThrow(
          /append-only/,
        );
        const passwords = await database()
          .db.selectFrom('audit_events')
          .select(['before', 'after'])
          .execute();
        expect(JSON.stringify(passwords)).not.toContain(DEMO_PASSWORD);
      });
    });
  },
  { seed: 'demo' },
);

describeWithDatabase(
  'session timeouts',
  (database) => {
    let app: App;
    beforeAll(async () => {
      app = await buildTestApp(database(), { SESSION_IDLE_SECONDS: '3', SESSION_MAX_SECONDS: '5' });
      await app.ready();
    });
    afterAll(async () => {
      await app.close();
    });

    it('ends an idle session after the idle timeout', async () => {
      const session = await signIn(app, 'cra@demo.cdms');
      expect((await sessionUser(app, session.cookie))?.email).toBe('cra@demo.cdms');
      moveClockForward(3300);
      expect(await sessionUser(app, session.cookie)).toBeNull();
    });

    it('ends a session at its absolute lifetime even when renewed', async () => {
      const session = await signIn(app, 'cra@demo.cdms');
      const started = Date.now();
      // Renewing every 0.8 s keeps the 3 s idle timeout from striking…
      while (Date.now() - started < 3600) {
        moveClockForward(800);
        const renewed = await app.inject({
          method: 'POST',
          url: '/api/auth/renew',
          headers: session.headers,
        });
        expect(renewed.statusCode).toBe(200);
      }
      // …but not the 5 s absolute lifetime.
      moveClockForward(5300 - (Date.now() - started));
      const late = await app.inject({ method: 'POST', url: '/api/auth/renew', headers: session.headers });
      expect(late.statusCode).toBe(401);
    });
  },
  { seed: 'demo' },
);

describeWithDatabase(
  'login rate limit',
  (database) => {
    it('refuses a burst of logins from one address with 429', async () => {
      const app = await buildTestApp(database(), { LOGIN_RATE_LIMIT: '3' });
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        statuses.push(
          (
            await app.inject({
              method: 'POST',
              url: '/api/auth/login',
              payload: { email: 'x@y.kr', password: 'nope' },
            })
          ).statusCode,
        );
      }
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
      await app.close();
    });
  },
  { seed: 'demo' },
);

describeWithDatabase(
  'client address behind one trusted proxy',
  (database) => {
    it('rate limits by the address the proxy saw, whatever the client puts in X-Forwarded-For', async () => {
      const app = await buildTestApp(database(), { TRUST_PROXY: '1', LOGIN_RATE_LIMIT: '30' });
      const proxyAddress = '10.0.0.2';
      const realClient = '203.0.113.7';
      const statuses: number[] = [];
      // The exact attack from issue 11: 35 failures, each with a new forged left-most address; the
      // proxy appends the address it saw, so the right-most entry is the real client.
      for (let i = 0; i < 35; i++) {
        const response = await app.inject({
          method: 'POST',
          url: '/api/auth/login',
          remoteAddress: proxyAddress,
          headers: { 'x-forwarded-for': `1.2.3.${i}, ${realClient}` },
          payload: { email: `nobody${i}@y.kr`, password: 'nope' },
        });
        statuses.push(response.statusCode);
      }
      expect(statuses.slice(0, 30).every((status) => status === 401)).toBe(true);
      expect(statuses.slice(30)).toEqual([429, 429, 429, 429, 429]);
      const addresses = await database()
        .db.selectFrom('audit_events')
        .select('ip')
        .where('event_type', '=', 'auth.login_failed')
        .execute();
      expect(addresses.length).toBe(30);
      expect(new Set(addresses.map((row) => row.ip))).toEqual(new Set([realClient]));
      await app.close();
    });

    it('ignores X-Forwarded-For and X-Forwarded-Proto when no proxy is trusted', async () => {
      const app = await buildTestApp(database(), { TRUST_PROXY: '0' });
      const response = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: '198.51.100.9',
        headers: { 'x-forwarded-for': '1.2.3.4', 'x-forwarded-proto': 'https' },
        payload: { email: 'dm@demo.cdms', password: DEMO_PASSWORD },
      });
      expect(response.statusCode).toBe(200);
      expect(response.cookies.find((c) => c.name === 'cdms_session')?.secure).toBeFalsy();
      const session = await database().db.selectFrom('sessions').select('ip').executeTakeFirstOrThrow();
      expect(session.ip).toBe('198.51.100.9');
      await app.close();
    });
  },
  { seed: 'demo' },
);

describeWithDatabase(
  'cookies behind an https proxy',
  (database) => {
    it('marks the session cookie Secure when the request came over https', async () => {
      const app = await buildTestApp(database(), { TRUST_PROXY: '1' });
      const response = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'dm@demo.cdms', password: DEMO_PASSWORD },
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(response.cookies.find((c) => c.name === 'cdms_session')?.secure).toBe(true);
      await app.close();
    });
  },
  { seed: 'demo' },
);
