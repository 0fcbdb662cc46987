import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type ErrorCode, errorMessages } from '../src/http/error-messages.ts';
import type { App } from '../src/http/types.ts';
import { buildTestApp, type SignedIn, seedDemo, signIn } from './test-app.ts';
import { describeWithDatabase } from './test-database.ts';

/**
 * Issue 11, item 1: one input policy at the edge. Each test sends the exact request the issue names and
 * checks the 4xx, the one error shape, the message in the requested language, and that nothing changed.
 */
describeWithDatabase('input policy at the edge', (database) => {
  let app: App;
  let studyId: number;
  let site1: number;
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
    await seedDemo(database().db, { subjects: true });
    app = await buildTestApp(database());
    await app.ready();
    for (const who of ['admin', 'pi', 'crc', 'dm']) session[who] = await signIn(app, `${who}@demo.cdms`);
    const db = database().db;
    studyId = (
      await db.selectFrom('studies').select('id').where('code', '=', 'TMP-2026').executeTakeFirstOrThrow()
    ).id;
    site1 = (
      await db
        .selectFrom('sites')
        .select('id')
        .where('study_id', '=', studyId)
        .where('institution_number', '=', '01')
        .executeTakeFirstOrThrow()
    ).id;
  }, 120_000);
  afterAll(async () => {
    await app.close();
  });

  it('refuses non-canonical ids in paths (0x13, 1.6e1, 16.0, %2016) before a form reset goes through', async () => {
    const db = database().db;
    for (const [text, id] of [
      ['0x13', 19],
      ['1.6e1', 16],
      ['16.0', 16],
      ['%2016', 16],
    ] as const) {
      // The subject the text would have meant exists, with a saved form the reset would clear.
      const form = await db
        .selectFrom('form_instances')
        .innerJoin('subjects', 'subjects.id', 'form_instances.subject_id')
        .select(['form_instances.id', 'visit_key', 'form_key', 'version', 'subjects.site_id'])
        .where('subject_id', '=', id)
        .where('has_data', '=', true)
        .where('form_key', '!=', 'investigatorSignature')
        .orderBy('form_instances.id')
        .executeTakeFirstOrThrow();
      const who = form.site_id === site1 ? 'pi' : 'crc';
      const head = await auditHead();
      const response = await app.inject({
        method: 'POST',
        url: `/api/studies/${studyId}/subjects/${text}/forms/${form.visit_key}/${form.form_key}/reset`,
        headers: { ...session[who]?.headers, 'accept-language': 'en' },
        payload: { version: form.version, reason: 'input policy test' },
      });
      expectRefused(response, 400, 'validation_failed');
      const after = await db
        .selectFrom('form_instances')
        .select(['version', 'has_data'])
        .where('id', '=', form.id)
        .executeTakeFirstOrThrow();
      expect(after).toEqual({ version: form.version, has_data: true });
      expect(await auditHead()).toBe(head);
    }
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
      Number((await db.selectFrom('subjects').select(db.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
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
});
