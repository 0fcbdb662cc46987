import { generate } from 'otplib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, type SignedIn, signIn } from '../../test/test-app.ts';
import { describeWithDatabase } from '../../test/test-database.ts';
import type { App } from '../http/types.ts';
import { DEMO_PASSWORD } from '../seed/demo-seed.ts';
import { hashRecoveryCode, normaliseRecoveryCode } from './recovery-codes.ts';

/** The code an authenticator app shows for the secret, `offsetSeconds` from now. */
const codeAt = (secret: string, offsetSeconds = 0) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + offsetSeconds });

describeWithDatabase(
  'recovery codes, turning the factor off, the required-for-ADMIN-and-DM setting',
  (database) => {
    let app: App;

    beforeAll(async () => {
      app = await buildTestApp(database(), { LOGIN_MAX_FAILURES: '50', LOGIN_RATE_LIMIT: '1000' });
      await app.ready();
    });
    afterAll(async () => {
      await app.close();
    });

    const auditOf = (type: string) =>
      database()
        .db.selectFrom('audit_events')
        .selectAll()
        .where('event_type', '=', type)
        .orderBy('id')
        .execute();
    const passwordStep = (email: string) =>
      app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: DEMO_PASSWORD } });
    const codeStep = (pendingToken: string, code: string) =>
      app.inject({ method: 'POST', url: '/api/auth/login/second-factor', payload: { pendingToken, code } });
    const me = async (user: SignedIn) =>
      (await app.inject({ method: 'GET', url: '/api/auth/me', headers: user.headers })).json();

    /** Enrols the user through the API; answers the secret and the recovery codes. */
    async function enrol(user: SignedIn): Promise<{ secret: string; recoveryCodes: string[] }> {
      const start = await app.inject({
        method: 'POST',
        url: '/api/auth/second-factor/enrolment',
        headers: user.headers,
        payload: { password: DEMO_PASSWORD },
      });
      const secret: string = start.json().secret;
      const confirm = await app.inject({
        method: 'POST',
        url: '/api/auth/second-factor/enrolment/confirm',
        headers: user.headers,
        payload: { code: await codeAt(secret) },
      });
      expect(confirm.statusCode).toBe(200);
      return { secret, recoveryCodes: confirm.json().recoveryCodes };
    }

    it('gives ten recovery codes once, stores only their hashes, and accepts each once at the code step', async () => {
      const email = 'crc@demo.cdms';
      const user = await signIn(app, email);
      const { recoveryCodes } = await enrol(user);
      expect(recoveryCodes).toHaveLength(10);
      expect(new Set(recoveryCodes).size).toBe(10);
      for (const code of recoveryCodes) expect(code).toMatch(/^[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/);
      expect((await me(user)).user.recoveryCodesRemaining).toBe(10);

      const stored = await database()
        .db.selectFrom('second_factor_recovery_codes')
        .select('code_hash')
        .where('user_id', '=', user.userId)
        .execute();
      expect(stored).toHaveLength(10);
      const storedText = JSON.stringify(stored);
      for (const code of recoveryCodes) {
        expect(storedText).not.toContain(code);
        expect(storedText).not.toContain(code.replace('-', ''));
      }
      const first = recoveryCodes[0] as string;
      expect(stored.map((row) => row.code_hash)).toContain(
        hashRecoveryCode(user.userId, normaliseRecoveryCode(first) as string),
      );

      // Typed in lower case without the hyphen: still the code.
      const login = await codeStep(
        (await passwordStep(email)).json().pendingToken,
        first.replace('-', '').toLowerCase(),
      );
      expect(login.statusCode).toBe(200);
      expect(login.json().user.recoveryCodesRemaining).toBe(9);
      const used = await auditOf('auth.second_factor_recovery_code_used');
      expect(used).toHaveLength(1);
      expect(used[0]?.after).toEqual({ remainingRecoveryCodes: 9 });

      const again = await codeStep((await passwordStep(email)).json().pendingToken, first);
      expect(again.statusCode).toBe(401);
      expect(again.json().error.code).toBe('wrong_second_factor_code');
    });

    it('regenerates codes with password and a current code; the old codes stop working', async () => {
      const email = 'si@demo.cdms';
      const user = await signIn(app, email);
      const { secret, recoveryCodes: old } = await enrol(user);

      const wrongPassword = await app.inject({
        method: 'POST',
        url: '/api/auth/second-factor/recovery-codes',
        headers: user.headers,
        payload: { password: 'not-my-password-1', code: await codeAt(secret, 30) },
      });
      expect(wrongPassword.statusCode).toBe(422);
      expect(wrongPassword.json().error.code).toBe('current_password_incorrect');
      const wrongCode = await app.inject({
        method: 'POST',
        url: '/api/auth/second-factor/recovery-codes',
        headers: user.headers,
        payload: { password: DEMO_PASSWORD, code: '000000' },
      });
      expect(wrongCode.statusCode).toBe(422);
      expect(wrongCode.json().error.code).toBe('wrong_second_factor_code');
      expect(await auditOf('auth.second_factor_check_failed')).toHaveLength(2);

      const fresh = await app.inject({
        method: 'POST',
        url: '/api/auth/second-factor/recovery-codes',
        headers: user.headers,
        payload: { password: DEMO_PASSWORD, code: await codeAt(secret, 30) },
      });
      expect(fresh.statusCode).toBe(200);
      const renewed: string[] = fresh.json().recoveryCodes;
      expect(renewed).toHaveLength(10);
      expect(await auditOf('auth.second_factor_recovery_codes_regenerated')).toHaveLength(1);

      const withOld = await codeStep((await passwordStep(email)).json().pendingToken, old[0] as string);
      expect(withOld.statusCode).toBe(401);
      const withNew = await codeStep((await passwordStep(email)).json().pendingToken, renewed[0] as string);
      expect(withNew.statusCode).toBe(200);
    });

    it('turns off its own second factor with password and a current code (audited); the password alone signs in', async () => {
      const email = 'crc3@demo.cdms';
      const user = await signIn(app, email);
      const { secret } = await enrol(user);
      const refused = await app.inject({
        method: 'POST',
        url: '/api/auth/second-factor/turn-off',
        headers: user.headers,
        payload: { password: DEMO_PASSWORD, code: '000000' },
      });
      expect(refused.statusCode).toBe(422);
      const off = await app.inject({
        method: 'POST',
        url: '/api/auth/second-factor/turn-off',
        headers: user.headers,
        payload: { password: DEMO_PASSWORD, code: await codeAt(secret, 30) },
      });
      expect(off.statusCode).toBe(204);
      expect(await auditOf('auth.second_factor_turned_off')).toHaveLength(1);
      expect(
        await database()
          .db.selectFrom('second_factor_recovery_codes')
          .select('id')
          .where('user_id', '=', user.userId)
          .execute(),
      ).toEqual([]);
      expect((await passwordStep(email)).json().user.email).toBe(email);
      expect((await me(user)).user.secondFactorEnrolled).toBe(false);
    });

    it('the setting: only a system admin changes it (audited before/after); a DM without a factor may only enrol, then gets in', async () => {
      const dm = await signIn(app, 'dm@demo.cdms');
      const admin = await signIn(app, 'admin@demo.cdms');
      const byDm = await app.inject({
        method: 'PUT',
        url: '/api/admin/settings/two-factor',
        headers: dm.headers,
        payload: { requiredForAdminAndDm: true },
      });
      expect(byDm.statusCode).toBe(403);
      const strictBody = await app.inject({
        method: 'PUT',
        url: '/api/admin/settings/two-factor',
        headers: admin.headers,
        payload: { requiredForAdminAndDm: true, extra: 1 },
      });
      expect(strictBody.statusCode).toBe(400);

      // The DM's study list works before the setting is on.
      expect((await app.inject({ method: 'GET', url: '/api/studies', headers: dm.headers })).statusCode).toBe(
        200,
      );

      const on = await app.inject({
        method: 'PUT',
        url: '/api/admin/settings/two-factor',
        headers: admin.headers,
        payload: { requiredForAdminAndDm: true },
      });
      expect(on.statusCode).toBe(200);
      expect(on.json()).toEqual({ requiredForAdminAndDm: true });
      const changed = await auditOf('system.settings_changed');
      expect(changed).toHaveLength(1);
      expect(changed[0]?.before).toEqual({ secondFactorRequiredForAdminAndDm: false });
      expect(changed[0]?.after).toEqual({ secondFactorRequiredForAdminAndDm: true });

      // The DM (and the system admin, who has no factor either) is held to enrolment.
      const dmMe = await me(dm);
      expect(dmMe.user.secondFactorEnrolmentRequired).toBe(true);
      const studies = await app.inject({ method: 'GET', url: '/api/studies', headers: dm.headers });
      expect(studies.statusCode).toBe(403);
      expect(studies.json().error.code).toBe('second_factor_enrolment_required');
      const english = await app.inject({
        method: 'GET',
        url: '/api/studies',
        headers: { ...dm.headers, 'accept-language': 'en' },
      });
      expect(english.json().error.message).toMatch(/two-factor/i);
      expect(
        (await app.inject({ method: 'GET', url: '/api/admin/users', headers: admin.headers })).statusCode,
      ).toBe(403);
      expect(
        (await app.inject({ method: 'POST', url: '/api/auth/renew', headers: dm.headers })).statusCode,
      ).toBe(200);

      // A PI is not concerned.
      const pi = await signIn(app, 'pi@demo.cdms');
      expect((await me(pi)).user.secondFactorEnrolmentRequired).toBe(false);
      expect((await app.inject({ method: 'GET', url: '/api/studies', headers: pi.headers })).statusCode).toBe(
        200,
      );

      // Enrolment lifts the restriction; turning the factor off is then refused.
      const { secret } = await enrol(dm);
      expect((await me(dm)).user.secondFactorEnrolmentRequired).toBe(false);
      expect((await me(dm)).user.secondFactorMandatory).toBe(true);
      expect((await app.inject({ method: 'GET', url: '/api/studies', headers: dm.headers })).statusCode).toBe(
        200,
      );
      const turnOff = await app.inject({
        method: 'POST',
        url: '/api/auth/second-factor/turn-off',
        headers: dm.headers,
        payload: { password: DEMO_PASSWORD, code: await codeAt(secret, 30) },
      });
      expect(turnOff.statusCode).toBe(409);
      expect(turnOff.json().error.code).toBe('second_factor_required_for_role');

      // A system admin's reset (audited) removes it; the DM is then held to enrolment again.
      // The admin must enrol first to act at all.
      await enrol(admin);
      const users = await app.inject({ method: 'GET', url: '/api/admin/users', headers: admin.headers });
      const dmRow = users.json().users.find((row: { email: string }) => row.email === 'dm@demo.cdms');
      expect(dmRow.secondFactorEnrolled).toBe(true);
      const reset = await app.inject({
        method: 'POST',
        url: `/api/admin/users/${dm.userId}/second-factor/reset`,
        headers: admin.headers,
      });
      expect(reset.statusCode).toBe(204);
      const resetAudit = await auditOf('user.second_factor_reset');
      expect(resetAudit.at(-1)?.before).toEqual({ secondFactorEnrolled: true });
      expect((await me(dm)).user.secondFactorEnrolmentRequired).toBe(true);

      const off = await app.inject({
        method: 'PUT',
        url: '/api/admin/settings/two-factor',
        headers: admin.headers,
        payload: { requiredForAdminAndDm: false },
      });
      expect(off.statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/api/studies', headers: dm.headers })).statusCode).toBe(
        200,
      );
    });
  },
  { seed: 'demo' },
);
