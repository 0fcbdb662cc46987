import { generate } from 'otplib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, type SignedIn, signIn } from '../../test/test-app.ts';
import { describeWithDatabase } from '../../test/test-database.ts';
import type { App } from '../http/types.ts';
import { DEMO_PASSWORD } from '../seed/demo-seed.ts';

/** The code an authenticator app shows for the secret, `offsetSeconds` from now. */
const codeAt = (secret: string, offsetSeconds = 0) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + offsetSeconds });

describeWithDatabase(
  'two-factor sign-in',
  (database) => {
    let app: App;
    let secret: string;
    const email = 'crc@demo.cdms';
    const auditTypes = async () =>
      (await database().db.selectFrom('audit_events').select('event_type').orderBy('id').execute()).map(
        (row) => row.event_type,
      );
    const passwordStep = () =>
      app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: DEMO_PASSWORD } });
    const codeStep = (pendingToken: string, code: string) =>
      app.inject({ method: 'POST', url: '/api/auth/login/second-factor', payload: { pendingToken, code } });

    beforeAll(async () => {
      app = await buildTestApp(database(), { LOGIN_MAX_FAILURES: '50' });
      await app.ready();
    });
    afterAll(async () => {
      await app.close();
    });

    it('enrols: password again, then a QR code and secret, then a first code confirms it', async () => {
      const user: SignedIn = await signIn(app, email);
      const wrongPassword = await app.inject({
        method: 'POST',
        url: '/api/auth/second-factor/enrolment',
        headers: user.headers,
        payload: { password: 'not-my-password-1' },
      });
      expect(wrongPassword.statusCode).toBe(422);

      const start = await app.inject({
        method: 'POST',
        url: '/api/auth/second-factor/enrolment',
        headers: user.headers,
        payload: { password: DEMO_PASSWORD },
      });
      expect(start.statusCode).toBe(200);
      const enrolment = start.json();
      secret = enrolment.secret;
      expect(enrolment.otpauthUri).toMatch(/^otpauth:\/\/totp\/CDMS:crc%40demo\.cdms\?.*secret=/);
      expect(enrolment.qrCodeDataUrl).toMatch(/^data:image\/png;base64,/);

      // Not yet in force: the password alone still signs in.
      expect((await passwordStep()).json().user.email).toBe(email);

      const wrong = await app.inject({
        method: 'POST',
        url: '/api/auth/second-factor/enrolment/confirm',
        headers: user.headers,
        payload: { code: (Number(await codeAt(secret)) ^ 1).toString().padStart(6, '0') },
      });
      expect(wrong.statusCode).toBe(422);
      expect(wrong.json().error.code).toBe('wrong_second_factor_code');

      const confirm = await app.inject({
        method: 'POST',
        url: '/api/auth/second-factor/enrolment/confirm',
        headers: user.headers,
        payload: { code: await codeAt(secret) },
      });
      expect(confirm.statusCode).toBe(200);
      expect(confirm.json().recoveryCodes).toHaveLength(10);
      const me = await app.inject({ method: 'GET', url: '/api/auth/me', headers: user.headers });
      expect(me.json().user.secondFactorEnrolled).toBe(true);
      expect(me.body).not.toContain(secret);
      expect(await auditTypes()).toEqual(
        expect.arrayContaining(['auth.second_factor_enrolment_started', 'auth.second_factor_enrolled']),
      );

      const again = await app.inject({
        method: 'POST',
        url: '/api/auth/second-factor/enrolment',
        headers: user.headers,
        payload: { password: DEMO_PASSWORD },
      });
      expect(again.statusCode).toBe(409);
    });

    it('asks for the code after the password; no session until the code is right; a used code is refused', async () => {
      const first = await passwordStep();
      expect(first.statusCode).toBe(200);
      expect(first.json()).toEqual({ secondFactorRequired: true, pendingToken: expect.any(String) });
      expect(first.cookies.find((c) => c.name === 'cdms_session')).toBeUndefined();
      const { pendingToken } = first.json();

      // The code that confirmed the enrolment is in the same time step: a replay, refused.
      const replayed = await codeStep(pendingToken, await codeAt(secret));
      expect(replayed.statusCode).toBe(401);
      expect(replayed.json().error.code).toBe('wrong_second_factor_code');
      expect(replayed.cookies.find((c) => c.name === 'cdms_session')).toBeUndefined();

      const right = await codeStep(pendingToken, await codeAt(secret, 30));
      expect(right.statusCode).toBe(200);
      expect(right.json().user.email).toBe(email);
      expect(right.cookies.find((c) => c.name === 'cdms_session')?.value).toBeTruthy();

      // The pending token is spent with the login.
      const reused = await codeStep(pendingToken, await codeAt(secret, 30));
      expect(reused.statusCode).toBe(401);
      expect(reused.json().error.code).toBe('second_factor_login_expired');

      const types = await auditTypes();
      expect(types).toEqual(
        expect.arrayContaining(['auth.second_factor_requested', 'auth.second_factor_failed']),
      );
      expect(types.at(-1)).toBe('auth.login_succeeded');
    });

    it('counts a wrong code as a failed login and refuses an expired pending login', async () => {
      const { pendingToken } = (await passwordStep()).json();
      const failedBefore = (await auditTypes()).filter((type) => type === 'auth.login_failed').length;
      const wrong = await codeStep(pendingToken, '000000');
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json().error.code).toBe('wrong_second_factor_code');
      // Counted by the same lockout as a wrong password.
      expect((await auditTypes()).filter((type) => type === 'auth.login_failed')).toHaveLength(
        failedBefore + 1,
      );
      expect(
        await database().db.selectFrom('login_failures').select('email').where('email', '=', email).execute(),
      ).not.toEqual([]);

      await database()
        .db.updateTable('pending_logins')
        .set({ expires_at: new Date(Date.now() - 1000) })
        .execute();
      const expired = await codeStep(pendingToken, await codeAt(secret, 30));
      expect(expired.statusCode).toBe(401);
      expect(expired.json().error.code).toBe('second_factor_login_expired');
    });

    it('a system administrator resets the second factor (audited); the password alone signs in again', async () => {
      const userId = (
        await database()
          .db.selectFrom('users')
          .select('id')
          .where('email', '=', email)
          .executeTakeFirstOrThrow()
      ).id;
      const crc = await signIn(app, 'pi@demo.cdms');
      const refused = await app.inject({
        method: 'POST',
        url: `/api/admin/users/${userId}/second-factor/reset`,
        headers: crc.headers,
      });
      expect(refused.statusCode).toBe(403);
      const admin = await signIn(app, 'admin@demo.cdms');
      const reset = await app.inject({
        method: 'POST',
        url: `/api/admin/users/${userId}/second-factor/reset`,
        headers: admin.headers,
      });
      expect(reset.statusCode).toBe(204);
      const audit = await database()
        .db.selectFrom('audit_events')
        .selectAll()
        .where('event_type', '=', 'user.second_factor_reset')
        .executeTakeFirstOrThrow();
      expect(audit.entity_id).toBe(String(userId));
      await database().db.deleteFrom('login_failures').execute();
      expect((await passwordStep()).json().user.email).toBe(email);
    });
  },
  { seed: 'demo' },
);
