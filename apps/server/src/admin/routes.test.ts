import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, type SignedIn, sessionUser, signIn } from '../../test/test-app.ts';
import { describeWithDatabase } from '../../test/test-database.ts';
import type { App } from '../http/types.ts';

describeWithDatabase(
  'admin API',
  (database) => {
    let app: App;
    let admin: SignedIn;
    let studyId: number;
    const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
      app.inject({
        method,
        url,
        headers: { ...admin.headers, 'accept-language': 'en' },
        ...(payload ? { payload } : {}),
      });

    beforeAll(async () => {
      app = await buildTestApp(database());
      await app.ready();
      admin = await signIn(app, 'admin@demo.cdms');
      studyId = (
        await database()
          .db.selectFrom('studies')
          .select('id')
          .where('code', '=', 'TMP-2026')
          .executeTakeFirstOrThrow()
      ).id;
    });
    afterAll(async () => {
      await app.close();
    });

    it('creates a user, refuses a duplicate email and a weak password', async () => {
      const created = await call('POST', '/api/admin/users', {
        email: 'New.Coordinator@Hospital.kr',
        name: '신규 코디',
        password: 'first-day-2026',
      });
      expect(created.statusCode).toBe(201);
      expect(created.json()).toMatchObject({
        email: 'new.coordinator@hospital.kr',
        active: true,
        isAdmin: false,
        locale: 'ko',
      });
      const duplicate = await call('POST', '/api/admin/users', {
        email: 'new.coordinator@hospital.kr',
        name: 'x',
        password: 'first-day-2026',
      });
      expect(duplicate.statusCode).toBe(409);
      expect(duplicate.json().error).toEqual({
        code: 'email_taken',
        message: 'This email is already in use.',
      });
      const weak = await call('POST', '/api/admin/users', {
        email: 'weak@hospital.kr',
        name: 'x',
        password: 'password',
      });
      expect(weak.statusCode).toBe(422);
      const common = await call('POST', '/api/admin/users', {
        email: 'common@hospital.kr',
        name: 'x',
        password: 'Password1234',
      });
      expect(common.statusCode).toBe(422);
      expect(common.json().error.code).toBe('password_too_common');
      const list = await call('GET', '/api/admin/users');
      expect(list.json().users.map((u: { email: string }) => u.email)).toContain(
        'new.coordinator@hospital.kr',
      );
    });

    it('shows an email locked at one address as locked, and a reset unlocks it', async () => {
      const email = 'dm@demo.cdms';
      for (let i = 1; i <= 5; i++) {
        await app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { email, password: `wrong-${i}-password` },
          remoteAddress: '198.51.100.77',
        });
      }
      const lockedUntil = async () =>
        (await call('GET', '/api/admin/users'))
          .json()
          .users.find((user: { email: string }) => user.email === email).lockedUntil;
      expect(await lockedUntil()).toMatch(/^\d{4}-/);
      const dm = await database()
        .db.selectFrom('users')
        .select('id')
        .where('email', '=', email)
        .executeTakeFirstOrThrow();
      expect((await call('POST', `/api/admin/users/${dm.id}/reset-password`)).statusCode).toBe(200);
      expect(await lockedUntil()).toBeNull();
    });

    it('resets a password to a temporary one that works, and ends the old sessions', async () => {
      const crc = await signIn(app, 'crc@demo.cdms');
      const reset = await call('POST', `/api/admin/users/${crc.userId}/reset-password`);
      expect(reset.statusCode).toBe(200);
      const { temporaryPassword } = reset.json();
      expect(temporaryPassword).toHaveLength(16);
      expect(await sessionUser(app, crc.cookie)).toBeNull();
      await signIn(app, 'crc@demo.cdms', temporaryPassword);
    });

    it('does not let an administrator remove their own rights', async () => {
      const response = await call('PUT', `/api/admin/users/${admin.userId}`, { isAdmin: false });
      expect(response.statusCode).toBe(422);
      expect(response.json().error.code).toBe('cannot_change_own_admin');
      expect((await call('PUT', '/api/admin/users/999999', { name: 'x' })).statusCode).toBe(404);
    });

    it('adds and edits sites, refusing duplicate codes and institution numbers', async () => {
      const site = await call('POST', `/api/admin/studies/${studyId}/sites`, {
        code: 'NEW-4Y',
        name: '새 병원',
        institutionNumber: '04',
      });
      expect(site.statusCode).toBe(201);
      expect(
        (
          await call('POST', `/api/admin/studies/${studyId}/sites`, {
            code: 'NEW-4Y',
            name: 'x',
            institutionNumber: '05',
          })
        ).json().error.code,
      ).toBe('site_code_taken');
      expect(
        (
          await call('POST', `/api/admin/studies/${studyId}/sites`, {
            code: 'NEW-5Y',
            name: 'x',
            institutionNumber: '04',
          })
        ).json().error.code,
      ).toBe('institution_number_taken');
      expect(
        (
          await call('POST', `/api/admin/studies/${studyId}/sites`, {
            code: 'BAD',
            name: 'x',
            institutionNumber: '4',
          })
        ).statusCode,
      ).toBe(400);
      const edited = await call('PUT', `/api/admin/studies/${studyId}/sites/${site.json().id}`, {
        code: 'NEW-4Y',
        name: '새 병원 (개명)',
        institutionNumber: '04',
      });
      expect(edited.json().name).toBe('새 병원 (개명)');
      const studies = await call('GET', '/api/admin/studies');
      const tmp = studies.json().studies.find((s: { id: number }) => s.id === studyId);
      expect(tmp.sites.map((s: { code: string }) => s.code)).toEqual([
        'HBU-1Y',
        'SBH-2Y',
        'NRM-3Y',
        'NEW-4Y',
      ]);
    });

    it('grants roles with the right sites, and the new member sees exactly that', async () => {
      const user = (
        await call('POST', '/api/admin/users', {
          email: 'cra2@hospital.kr',
          name: '모니터 2',
          password: 'monitor-two-2026',
        })
      ).json();
      const sites = (await call('GET', '/api/admin/studies'))
        .json()
        .studies.find((s: { id: number }) => s.id === studyId).sites;
      const site3 = sites.find((s: { institutionNumber: string }) => s.institutionNumber === '03').id;

      expect(
        (
          await call('POST', `/api/admin/studies/${studyId}/memberships`, {
            userId: user.id,
            role: 'CRA',
            siteIds: [],
          })
        ).json().error.code,
      ).toBe('sites_required');
      expect(
        (
          await call('POST', `/api/admin/studies/${studyId}/memberships`, {
            userId: user.id,
            role: 'DM',
            siteIds: [site3],
          })
        ).json().error.code,
      ).toBe('sites_not_allowed');
      expect(
        (
          await call('POST', `/api/admin/studies/${studyId}/memberships`, {
            userId: user.id,
            role: 'CRA',
            siteIds: [424242],
          })
        ).json().error.code,
      ).toBe('unknown_site');

      const membership = await call('POST', `/api/admin/studies/${studyId}/memberships`, {
        userId: user.id,
        role: 'CRA',
        siteIds: [site3],
      });
      expect(membership.statusCode).toBe(201);
      expect(
        (
          await call('POST', `/api/admin/studies/${studyId}/memberships`, {
            userId: user.id,
            role: 'CRA',
            siteIds: [site3],
          })
        ).statusCode,
      ).toBe(409);

      const cra2 = await signIn(app, 'cra2@hospital.kr', 'monitor-two-2026');
      const me = (
        await app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie: cra2.cookie } })
      ).json();
      expect(me.memberships).toHaveLength(1);
      expect(me.memberships[0].sites.map((s: { institutionNumber: string }) => s.institutionNumber)).toEqual([
        '03',
      ]);

      const site1 = sites.find((s: { institutionNumber: string }) => s.institutionNumber === '01').id;
      const updated = await call('PUT', `/api/admin/studies/${studyId}/memberships/${membership.json().id}`, {
        siteIds: [site1, site3],
      });
      expect(updated.json().siteIds).toEqual([site1, site3].sort((a, b) => a - b));
      expect(
        (await call('DELETE', `/api/admin/studies/${studyId}/memberships/${membership.json().id}`))
          .statusCode,
      ).toBe(204);
      const after = (
        await app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie: cra2.cookie } })
      ).json();
      expect(after.memberships).toEqual([]);

      const types = (await database().db.selectFrom('audit_events').select('event_type').execute()).map(
        (r) => r.event_type,
      );
      expect(types).toEqual(
        expect.arrayContaining([
          'membership.created',
          'membership.updated',
          'membership.deleted',
          'site.created',
          'site.updated',
          'user.password_reset',
        ]),
      );
    });
  },
  { seed: 'demo' },
);
