import { getStudyIndex, tmPerforationStudy } from '@cdms/study';
import { Kysely, PostgresDialect, type PostgresPool } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, signIn } from '../../test/test-app.ts';
import { createTestDatabase, describeWithDatabase } from '../../test/test-database.ts';
import type { Database } from '../db/schema.ts';
import type { App } from '../http/types.ts';
import { createMetrics } from './create-metrics.ts';
import { isLoopback } from './metrics-access.ts';
import { readDatabaseGauges } from './read-database-gauges.ts';

const TOKEN = 'scrape-token-0123456789';

describeWithDatabase('GET /metrics', (database) => {
  let app: App;
  let guarded: App;

  beforeAll(async () => {
    app = await buildTestApp(database(), {}, { notificationWorker: false });
    guarded = await buildTestApp(database(), { METRICS_TOKEN: TOKEN }, { notificationWorker: false });
    await Promise.all([app.ready(), guarded.ready()]);
  });

  afterAll(async () => {
    await app.close();
    await guarded.close();
  });

  it('counts requests by route pattern and status, never by the URL called', async () => {
    await app.inject({ method: 'GET', url: '/api/health' });
    await app.inject({ method: 'GET', url: '/api/studies/123/subjects' });
    await app.inject({ method: 'GET', url: '/api/studies/456/subjects' });
    // Under /api: outside it, the built web app's fallback page answers an unknown path with 200.
    await app.inject({ method: 'GET', url: '/api/no-such-route/789' });
    const response = await app.inject({ method: 'GET', url: '/metrics' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = response.body;
    for (const name of [
      'cdms_http_requests_total',
      'cdms_http_request_duration_seconds_bucket',
      'cdms_form_saves_total',
      'cdms_background_job_duration_seconds',
      'cdms_db_pool_connections',
      'cdms_db_pool_waiting',
      'cdms_export_jobs',
      'cdms_notification_outbox_backlog',
      'cdms_notification_outbox_oldest_age_seconds',
      'cdms_audit_checkpoint_age_seconds',
      'process_cpu_user_seconds_total',
    ])
      expect(text).toContain(name);
    expect(text).toContain(
      'cdms_http_requests_total{method="GET",route="/api/studies/:studyId/subjects",status_code="401"} 2',
    );
    expect(text).toContain('cdms_http_requests_total{method="GET",route="/api/health",status_code="200"} 1');
    expect(text).toContain('route="(unmatched)",status_code="404"');
    // No id the URLs carried reaches a label.
    expect(text).not.toMatch(/route="[^"]*(123|456|789)/);
    // The database gauges were read (not -1, the mark of a failed read).
    expect(text).toMatch(/^cdms_export_jobs\{state="queued"\} \d+$/m);
    expect(text).toMatch(/^cdms_notification_outbox_backlog \d+$/m);
    expect(text).toMatch(/^cdms_audit_checkpoint_age_seconds [\d.]+$/m);
    expect(text).toMatch(/^cdms_db_pool_connections\{state="total"\} [1-9]/m);
  });

  it('keeps each app instance its own numbers', async () => {
    const response = await guarded.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(response.body).not.toContain('route="/api/studies/:studyId/subjects"');
  });

  it('asks for the bearer token when METRICS_TOKEN is set', async () => {
    const without = await guarded.inject({ method: 'GET', url: '/metrics' });
    expect(without.statusCode).toBe(401);
    expect(without.json().error.code).toBe('unauthenticated');
    const wrong = await guarded.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: 'Bearer not-the-token-at-all' },
    });
    expect(wrong.statusCode).toBe(401);
    const right = await guarded.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
      remoteAddress: '203.0.113.9',
    });
    expect(right.statusCode).toBe(200);
  });

  it('answers only this machine when no token is set', async () => {
    const remote = await app.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.9' });
    expect(remote.statusCode).toBe(403);
    expect(remote.json().error.code).toBe('forbidden');
    // A proxy on this machine passing on someone else's request.
    const proxied = await app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { 'x-forwarded-for': '203.0.113.9' },
    });
    expect(proxied.statusCode).toBe(403);
    const local = await app.inject({ method: 'GET', url: '/metrics', remoteAddress: '::1' });
    expect(local.statusCode).toBe(200);
  });
});

describeWithDatabase(
  'form saves in /metrics',
  (database) => {
    it('counts a form saved, not one refused', async () => {
      const app = await buildTestApp(database(), {}, { notificationWorker: false, exportRunner: false });
      try {
        const crc = await signIn(app, 'crc@demo.cdms');
        const study = await database()
          .db.selectFrom('studies')
          .select('id')
          .where('code', '=', 'TMP-2026')
          .executeTakeFirstOrThrow();
        const site = await database()
          .db.selectFrom('sites')
          .select('id')
          .where('study_id', '=', study.id)
          .where('institution_number', '=', '02')
          .executeTakeFirstOrThrow();
        const created = await app.inject({
          method: 'POST',
          url: `/api/studies/${study.id}/subjects`,
          payload: { siteId: site.id, consentDate: '2025-03-03', initials: 'MET' },
          headers: crc.headers,
        });
        const layout = getStudyIndex(tmPerforationStudy).schedule[0];
        const url = `/api/studies/${study.id}/subjects/${created.json().id}/forms/${layout?.visitKey}/${layout?.form.key}`;
        const stale = await app.inject({
          method: 'PUT',
          url,
          payload: { values: {}, version: 3 },
          headers: crc.headers,
        });
        expect(stale.statusCode).toBe(409);
        // The form as it stands, saved again unchanged.
        const current = stale.json().error.details;
        const saved = await app.inject({
          method: 'PUT',
          url,
          payload: { values: current.values, version: current.currentVersion },
          headers: crc.headers,
        });
        expect(saved.statusCode, saved.body).toBe(200);
        const text = (await app.inject({ method: 'GET', url: '/metrics' })).body;
        expect(text).toMatch(/^cdms_form_saves_total 1$/m);
      } finally {
        await app.close();
      }
    });
  },
  { seed: 'demo' },
);

it('tells loopback addresses from others', () => {
  expect(['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1'].map(isLoopback)).toEqual([
    true,
    true,
    true,
    true,
  ]);
  expect(['10.0.0.1', '::ffff:10.0.0.1', '::2', '1.127.0.0', undefined].map(isLoopback)).toEqual([
    false,
    false,
    false,
    false,
    false,
  ]);
});

it('reports -1 and the error, never throws, when the database cannot be read', async () => {
  const database = await createTestDatabase('pglite');
  const metrics = createMetrics(database);
  await database.close();
  const errors: unknown[] = [];
  await readDatabaseGauges(database.db, metrics, (error) => errors.push(error));
  expect(errors).toHaveLength(1);
  const text = await metrics.registry.metrics();
  expect(text).toContain('cdms_export_jobs{state="queued"} -1');
  expect(text).toContain('cdms_notification_outbox_backlog -1');
  expect(text).toContain('cdms_audit_checkpoint_age_seconds -1');
});

it('reports -1 when the database does not answer in time', async () => {
  // A database whose connection never comes: every query waits for good.
  const silent = new Kysely<Database>({
    dialect: new PostgresDialect({
      pool: { connect: () => new Promise<never>(() => {}), end: async () => {} } as unknown as PostgresPool,
    }),
  });
  const metrics = createMetrics({ db: silent, kind: 'postgres', close: async () => {} });
  const errors: unknown[] = [];
  await readDatabaseGauges(silent, metrics, (error) => errors.push(error), 50);
  expect(String(errors[0])).toContain('did not answer within 50 ms');
  expect(await metrics.registry.metrics()).toContain('cdms_notification_outbox_oldest_age_seconds -1');
});
