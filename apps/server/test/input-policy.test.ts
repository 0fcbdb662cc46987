import net, { type AddressInfo } from 'node:net';
import { getFormLayout, tmPerforationStudy } from '@cdms/study';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyAuditChain } from '../src/audit/verify-audit-chain.ts';
import { type ErrorCode, errorMessages } from '../src/http/error-messages.ts';
import type { App } from '../src/http/types.ts';
import { buildTestApp, demoStudyIds, type SignedIn, sessionUser, signIn } from './test-app.ts';
import { describeWithDatabase } from './test-database.ts';

/**
 * Issue 11, item 1: one input policy at the edge. Each test sends the exact request the issue names and
 * checks the 4xx, the one error shape, the message in the requested language, and that nothing changed.
 */
describeWithDatabase(
  'input policy at the edge',
  (database) => {
    let app: App;
    let studyId: number;
    let site1: number;
    /** A subject of site 01 (the PI's) with a saved demographics form. */
    let subjectPk: number;
    const session: Record<string, SignedIn> = {};

    const auditHead = async () =>
      (await database().db.selectFrom('audit_chain_head').select('last_id').executeTakeFirst())?.last_id ?? 0;

    /** The answer is `status` with `code`, in the one error shape, with the message in `language`. */
    function expectRefused(
      response: LightMyRequestResponse,
      status: number,
      code: ErrorCode,
      language: 'ko' | 'en' = 'en',
    ): void {
      expect({ status: response.statusCode, body: response.json() }).toEqual({
        status,
        body: { error: expect.objectContaining({ code, message: errorMessages[code][language] }) },
      });
    }

    beforeAll(async () => {
      app = await buildTestApp(database());
      await app.ready();
      for (const who of ['admin', 'pi', 'crc', 'dm']) session[who] = await signIn(app, `${who}@demo.cdms`);
      const db = database().db;
      const demo = await demoStudyIds(db);
      studyId = demo.studyId;
      site1 = demo.siteId('01');
      const subject = await app.inject({
        method: 'POST',
        url: `/api/studies/${studyId}/subjects`,
        headers: session.pi?.headers,
        payload: { siteId: site1, consentDate: '2025-03-03', initials: 'IPT' },
      });
      subjectPk = subject.json().id;
      const saved = await app.inject({
        method: 'PUT',
        url: `/api/studies/${studyId}/subjects/${subjectPk}/forms/v1/demographicInfo`,
        headers: session.pi?.headers,
        payload: { values: { birthDate: '1990-01-01', gender: 'M' }, version: 0 },
      });
      expect(saved.statusCode).toBe(200);
    });
    afterAll(async () => {
      await app.close();
    });

    it('refuses non-canonical ids in paths (0x13, 1.6e1, 16.0, %2016) before a form reset goes through', async () => {
      const db = database().db;
      const formUrl = (id: string) => `/api/studies/${studyId}/subjects/${id}/forms/v1/demographicInfo`;
      const form = () =>
        db
          .selectFrom('form_instances')
          .select(['version', 'has_data'])
          .where('subject_id', '=', subjectPk)
          .where('visit_key', '=', 'v1')
          .where('form_key', '=', 'demographicInfo')
          .executeTakeFirstOrThrow();
      const before = await form();
      expect(before).toEqual({ version: 1, has_data: true });
      const head = await auditHead();
      // The texts, and the same spellings of our subject's real id.
      const texts = [
        '0x13',
        '1.6e1',
        '16.0',
        '%2016',
        `0x${subjectPk.toString(16)}`,
        `${subjectPk / 10}e1`,
        `${subjectPk}.0`,
        `%20${subjectPk}`,
        `0${subjectPk}`,
        `+${subjectPk}`,
      ];
      for (const text of texts) {
        const response = await app.inject({
          method: 'POST',
          url: `${formUrl(text)}/reset`,
          headers: { ...session.pi?.headers, 'accept-language': 'en' },
          payload: { version: 1, reason: 'input policy test' },
        });
        expectRefused(response, 400, 'validation_failed');
      }
      // A form version past int4 is refused by the schema too, not by the database (a 500).
      const bigVersion = await app.inject({
        method: 'POST',
        url: `${formUrl(String(subjectPk))}/reset`,
        headers: { ...session.pi?.headers, 'accept-language': 'en' },
        payload: { version: 9999999999, reason: 'input policy test' },
      });
      expectRefused(bigVersion, 400, 'validation_failed');
      expect(await form()).toEqual(before);
      expect(await auditHead()).toBe(head);
      // The same request with the canonical id goes through: the refusals above were for the id alone.
      const reset = await app.inject({
        method: 'POST',
        url: `${formUrl(String(subjectPk))}/reset`,
        headers: session.pi?.headers,
        payload: { version: 1, reason: 'input policy test' },
      });
      expect(reset.statusCode).toBe(200);
    });

    it('refuses the login with a lone surrogate in the email (the request that broke audit verify) and verify stays intact', async () => {
      const head = await auditHead();
      const response = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { 'content-type': 'application/json', 'accept-language': 'en' },
        // The exact bytes: JSON text with the escape, not a JS string (which could not hold it).
        payload: '{"email":"\\ud800@x.test","password":"x"}',
      });
      expectRefused(response, 400, 'invalid_text');
      expect(await auditHead()).toBe(head);
      const verification = await verifyAuditChain(database().db);
      expect(verification.breaks).toEqual([]);
      expect(verification.ok).toBe(true);
    });

    it('refuses ids above 2^31 − 1 in bodies (siteId 2147483648, userId 9999999999) with 400, not 500', async () => {
      const db = database().db;
      const membership = await db
        .selectFrom('memberships')
        .select('id')
        .where('study_id', '=', studyId)
        .where('role', '=', 'PI')
        .executeTakeFirstOrThrow();
      const sitesBefore = await db
        .selectFrom('membership_sites')
        .selectAll()
        .orderBy('membership_id')
        .execute();
      const membershipsBefore = await db.selectFrom('memberships').select('id').execute();
      const head = await auditHead();

      const update = await app.inject({
        method: 'PUT',
        url: `/api/admin/studies/${studyId}/memberships/${membership.id}`,
        headers: { ...session.admin?.headers, 'accept-language': 'ko' },
        payload: { siteIds: [2147483648] },
      });
      expectRefused(update, 400, 'validation_failed', 'ko');
      const create = await app.inject({
        method: 'POST',
        url: `/api/admin/studies/${studyId}/memberships`,
        headers: { ...session.admin?.headers, 'accept-language': 'en' },
        payload: { userId: 9999999999, role: 'CRC', siteIds: [2147483648] },
      });
      expectRefused(create, 400, 'validation_failed');

      expect(await db.selectFrom('membership_sites').selectAll().orderBy('membership_id').execute()).toEqual(
        sitesBefore,
      );
      expect(await db.selectFrom('memberships').select('id').execute()).toEqual(membershipsBefore);
      expect(await auditHead()).toBe(head);
    });

    it('refuses dates that do not exist (start=2026-13-01, 2026-02-30; consentDate 2026-02-30)', async () => {
      for (const query of ['start=2026-13-01', 'start=2026-02-30', 'end=2026-02-30']) {
        const response = await app.inject({
          method: 'GET',
          url: `/api/studies/${studyId}/notices?${query}`,
          headers: { ...session.pi?.headers, 'accept-language': 'en' },
        });
        expectRefused(response, 400, 'validation_failed');
      }
      const db = database().db;
      const count = async () =>
        Number(
          (await db.selectFrom('subjects').select(db.fn.countAll().as('n')).executeTakeFirstOrThrow()).n,
        );
      const before = await count();
      const head = await auditHead();
      const create = await app.inject({
        method: 'POST',
        url: `/api/studies/${studyId}/subjects`,
        headers: { ...session.pi?.headers, 'accept-language': 'ko' },
        payload: { siteId: site1, consentDate: '2026-02-30', initials: 'AB' },
      });
      expectRefused(create, 400, 'validation_failed', 'ko');
      expect(await count()).toBe(before);
      expect(await auditHead()).toBe(head);
    });

    it('reads page numbers and sizes only as canonical decimals', async () => {
      for (const query of ['page=0x2', 'page=1.0', 'size=1e1', 'size=%2010', 'page=-1', 'page=01']) {
        const response = await app.inject({
          method: 'GET',
          url: `/api/studies/${studyId}/notices?${query}`,
          headers: { ...session.pi?.headers, 'accept-language': 'en' },
        });
        expectRefused(response, 400, 'validation_failed');
      }
      const ok = await app.inject({
        method: 'GET',
        url: `/api/studies/${studyId}/notices?page=1&size=20`,
        headers: session.pi?.headers,
      });
      expect(ok.statusCode).toBe(200);
    });

    it('still documents every route (the OpenAPI document builds with the id transforms)', async () => {
      const response = await app.inject({ method: 'GET', url: '/api/docs/json' });
      expect(response.statusCode).toBe(200);
      const parameters = response.json().paths['/api/studies/{studyId}/notices'].get.parameters;
      expect(parameters).toEqual(
        expect.arrayContaining([expect.objectContaining({ name: 'studyId', in: 'path' })]),
      );
    });

    describe('text', () => {
      const noticeCount = async () => {
        const db = database().db;
        return Number(
          (await db.selectFrom('notices').select(db.fn.countAll().as('n')).executeTakeFirstOrThrow()).n,
        );
      };
      const postNotice = (payload: string | Buffer, contentType = 'application/json', language = 'en') =>
        app.inject({
          method: 'POST',
          url: `/api/studies/${studyId}/notices`,
          headers: { ...session.dm?.headers, 'accept-language': language, 'content-type': contentType },
          payload,
        });

      it('refuses NUL in a notice title (body string) and %00 in a query parameter', async () => {
        const before = await noticeCount();
        const head = await auditHead();
        expectRefused(
          await postNotice(JSON.stringify({ title: 'a\u0000b', contentHtml: '<p>x</p>' })),
          400,
          'invalid_text',
        );
        expectRefused(
          await postNotice('{"title":"a\\u0000b","contentHtml":"<p>x</p>"}', 'application/json', 'ko'),
          400,
          'invalid_text',
          'ko',
        );
        for (const query of ['search=%00', 'search=a%00b', '%00=1']) {
          const response = await app.inject({
            method: 'GET',
            url: `/api/studies/${studyId}/notices?${query}`,
            headers: { ...session.pi?.headers, 'accept-language': 'en' },
          });
          expectRefused(response, 400, 'invalid_text');
        }
        expect(await noticeCount()).toBe(before);
        expect(await auditHead()).toBe(head);
      });

      it('refuses invalid UTF-8 in a body and in percent-encoding instead of storing U+FFFD', async () => {
        const before = await noticeCount();
        const head = await auditHead();
        const bytes = Buffer.concat([
          Buffer.from('{"title":"'),
          Buffer.from([0xc3, 0x28]),
          Buffer.from('","contentHtml":"<p>x</p>"}'),
        ]);
        expectRefused(await postNotice(bytes), 400, 'invalid_text');
        const query = await app.inject({
          method: 'GET',
          url: `/api/studies/${studyId}/notices?search=%C3%28`,
          headers: { ...session.pi?.headers, 'accept-language': 'en' },
        });
        expectRefused(query, 400, 'malformed_url');
        expect(await noticeCount()).toBe(before);
        expect(await auditHead()).toBe(head);
      });

      it('accepts JSON only as UTF-8: charset=utf-16 is 415', async () => {
        const before = await noticeCount();
        const body = JSON.stringify({ title: '공지', contentHtml: '<p>x</p>' });
        expectRefused(
          await postNotice(Buffer.from(body, 'utf16le'), 'application/json; charset=utf-16'),
          415,
          'unsupported_charset',
        );
        expectRefused(
          await postNotice(Buffer.from(body, 'latin1'), 'application/json; charset=ISO-8859-1', 'ko'),
          415,
          'unsupported_charset',
          'ko',
        );
        expect(await noticeCount()).toBe(before);
        // UTF-8, named or not, with Korean and a character outside the BMP, is stored as sent.
        const named = await postNotice(
          JSON.stringify({ title: '공지 😀', contentHtml: '<p>x</p>' }),
          'application/json; charset=UTF-8',
        );
        expect(named.statusCode).toBe(201);
        expect(named.json().title).toBe('공지 😀');
      });

      it('refuses a lone surrogate (\ud800) in comment text', async () => {
        const db = database().db;
        const sectionKey = getFormLayout(tmPerforationStudy, 'v1', 'demographicInfo')?.sections[0]?.key;
        const comments = async () =>
          (await db.selectFrom('form_comments').select('id').execute()).map((row) => row.id);
        const before = await comments();
        const head = await auditHead();
        const response = await app.inject({
          method: 'POST',
          url: `/api/studies/${studyId}/subjects/${subjectPk}/forms/v1/demographicInfo/comments`,
          headers: { ...session.pi?.headers, 'accept-language': 'en', 'content-type': 'application/json' },
          payload: `{"sectionKey":"${sectionKey}","text":"\\ud800"}`,
        });
        expectRefused(response, 400, 'invalid_text');
        expect(await comments()).toEqual(before);
        expect(await auditHead()).toBe(head);
      });

      it('refuses JSON nested 1000 deep with 400, not a stack overflow', async () => {
        const before = await noticeCount();
        const deep = `{"title":${'['.repeat(1000)}${']'.repeat(1000)},"contentHtml":"x"}`;
        expectRefused(await postNotice(deep), 400, 'body_too_deep');
        expect(await noticeCount()).toBe(before);
      });
    });

    describe('strict bodies', () => {
      it('refuses a body on body-less actions (logout, password reset, deletes) and does nothing', async () => {
        const db = database().db;
        const own = await signIn(app, 'crc@demo.cdms');
        const head = await auditHead();
        const logout = await app.inject({
          method: 'POST',
          url: '/api/auth/logout',
          headers: { ...own.headers, 'accept-language': 'en' },
          payload: { everywhere: true },
        });
        expectRefused(logout, 400, 'body_not_allowed');
        // The session is still alive.
        expect((await sessionUser(app, own.cookie))?.email).toBe('crc@demo.cdms');

        const user = await db
          .selectFrom('users')
          .select(['id', 'password_hash'])
          .where('email', '=', 'crc@demo.cdms')
          .executeTakeFirstOrThrow();
        const reset = await app.inject({
          method: 'POST',
          url: `/api/admin/users/${user.id}/reset-password`,
          headers: { ...session.admin?.headers, 'accept-language': 'ko' },
          payload: { temporaryPassword: 'chosen-by-the-caller-1' },
        });
        expectRefused(reset, 400, 'body_not_allowed', 'ko');
        expect(
          (
            await db
              .selectFrom('users')
              .select('password_hash')
              .where('id', '=', user.id)
              .executeTakeFirstOrThrow()
          ).password_hash,
        ).toBe(user.password_hash);

        const notice = await app.inject({
          method: 'POST',
          url: `/api/studies/${studyId}/notices`,
          headers: session.dm?.headers,
          payload: { title: 'to delete', contentHtml: '<p>x</p>' },
        });
        expect(notice.statusCode).toBe(201);
        const noticeId = notice.json().id;
        const afterCreate = await auditHead();
        const deleteNotice = await app.inject({
          method: 'DELETE',
          url: `/api/studies/${studyId}/notices/${noticeId}`,
          headers: { ...session.dm?.headers, 'accept-language': 'en' },
          payload: {},
        });
        expectRefused(deleteNotice, 400, 'body_not_allowed');
        expect(
          (
            await db
              .selectFrom('notices')
              .select('deleted_at')
              .where('id', '=', noticeId)
              .executeTakeFirstOrThrow()
          ).deleted_at,
        ).toBeNull();

        const membership = await db
          .selectFrom('memberships')
          .select('id')
          .where('study_id', '=', studyId)
          .executeTakeFirstOrThrow();
        const deleteMembership = await app.inject({
          method: 'DELETE',
          url: `/api/admin/studies/${studyId}/memberships/${membership.id}`,
          headers: { ...session.admin?.headers, 'accept-language': 'en', 'content-type': 'text/plain' },
          payload: 'please',
        });
        expectRefused(deleteMembership, 400, 'body_not_allowed');
        expect(
          await db.selectFrom('memberships').select('id').where('id', '=', membership.id).executeTakeFirst(),
        ).toEqual({ id: membership.id });
        expect(await auditHead()).toBe(afterCreate);
        expect(afterCreate).toBeGreaterThan(head);

        // Without a body (what the web app sends) the same actions work.
        const deleted = await app.inject({
          method: 'DELETE',
          url: `/api/studies/${studyId}/notices/${noticeId}`,
          headers: session.dm?.headers,
        });
        expect(deleted.statusCode).toBe(204);
      });

      it('refuses a PUT with {} or with only unknown keys, and unknown keys anywhere in a body', async () => {
        const db = database().db;
        const created = await app.inject({
          method: 'POST',
          url: `/api/studies/${studyId}/notices`,
          headers: session.dm?.headers,
          payload: { title: 'pinned notice', contentHtml: '<p>x</p>', pinned: true },
        });
        const noticeId = created.json().id;
        const user = await db
          .selectFrom('users')
          .select(['id', 'name', 'updated_at'])
          .where('email', '=', 'pi@demo.cdms')
          .executeTakeFirstOrThrow();
        const notice = () =>
          db
            .selectFrom('notices')
            .select(['title', 'pinned', 'updated_at'])
            .where('id', '=', noticeId)
            .executeTakeFirstOrThrow();
        const noticeBefore = await notice();
        const head = await auditHead();
        for (const payload of [{}, { titel: 'typo' }, { title: 'x', unknownKey: 1 }]) {
          const response = await app.inject({
            method: 'PUT',
            url: `/api/studies/${studyId}/notices/${noticeId}`,
            headers: { ...session.dm?.headers, 'accept-language': 'en' },
            payload,
          });
          expectRefused(response, 400, 'validation_failed');
        }
        for (const payload of [{}, { nmae: 'typo' }]) {
          const response = await app.inject({
            method: 'PUT',
            url: `/api/admin/users/${user.id}`,
            headers: { ...session.admin?.headers, 'accept-language': 'ko' },
            payload,
          });
          expectRefused(response, 400, 'validation_failed', 'ko');
        }
        const login = await app.inject({
          method: 'POST',
          url: '/api/auth/login',
          headers: { 'accept-language': 'en' },
          payload: { email: 'pi@demo.cdms', password: 'x', remember: true },
        });
        expectRefused(login, 400, 'validation_failed');
        expect(await notice()).toEqual(noticeBefore);
        expect(
          await db
            .selectFrom('users')
            .select(['id', 'name', 'updated_at'])
            .where('id', '=', user.id)
            .executeTakeFirstOrThrow(),
        ).toEqual(user);
        expect(await auditHead()).toBe(head);

        // A partial edit changes only what it names: the title alone keeps the notice pinned.
        const edited = await app.inject({
          method: 'PUT',
          url: `/api/studies/${studyId}/notices/${noticeId}`,
          headers: session.dm?.headers,
          payload: { title: 'renamed' },
        });
        expect(edited.statusCode).toBe(200);
        expect(await notice()).toMatchObject({ title: 'renamed', pinned: true });
      });
    });

    describe('parser and framework errors', () => {
      it('answers a truncated multipart upload with 400 in the error shape, not 500', async () => {
        const db = database().db;
        const images = async () => (await db.selectFrom('uploaded_images').select('id').execute()).length;
        const before = await images();
        const head = await auditHead();
        const boundary = '----cdms-truncated';
        const png = Buffer.from(
          'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
          'base64',
        );
        // The part starts and the bytes stop: no closing boundary.
        const payload = Buffer.concat([
          Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="upload"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
          ),
          png.subarray(0, 30),
        ]);
        for (const language of ['en', 'ko'] as const) {
          const response = await app.inject({
            method: 'POST',
            url: '/api/uploads/images',
            headers: {
              ...session.dm?.headers,
              'accept-language': language,
              'content-type': `multipart/form-data; boundary=${boundary}`,
            },
            payload,
          });
          expectRefused(response, 400, 'upload_incomplete', language);
        }
        expect(await images()).toBe(before);
        expect(await auditHead()).toBe(head);
      });

      it('answers a 20 KB query string with 431 in the error shape and the reader language', async () => {
        const server = await buildTestApp(database());
        await server.listen({ port: 0, host: '127.0.0.1' });
        try {
          const { port } = server.server.address() as AddressInfo;
          const query = `search=${'a'.repeat(20 * 1024)}`;
          for (const [language, header] of [
            ['en', 'Accept-Language: en\r\n'],
            ['ko', ''],
          ] as const) {
            const raw = await rawRequest(
              port,
              `GET /api/studies/${studyId}/notices?${query} HTTP/1.1\r\nHost: localhost\r\n${header}\r\n`,
            );
            const [head = '', body = ''] = raw.split('\r\n\r\n');
            expect(head).toMatch(/^HTTP\/1\.1 431 /);
            expect(head.toLowerCase()).toContain('content-type: application/json; charset=utf-8');
            expect(JSON.parse(body)).toEqual({
              error: { code: 'headers_too_large', message: errorMessages.headers_too_large[language] },
            });
          }
        } finally {
          await server.close();
        }
      });
    });
  },
  { seed: 'demo' },
);

/** Sends `request` as is over a socket and returns everything the server wrote until it closed. */
function rawRequest(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}
