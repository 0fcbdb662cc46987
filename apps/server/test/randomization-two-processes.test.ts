import type { ChildProcess } from 'node:child_process';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { copyPostgresTemplate, dropPostgresDatabase } from './database-templates.ts';
import { signInOverHttp, startServerProcess } from './server-process.ts';

/**
 * Registration and randomization under real concurrency: two server processes on one PostgreSQL
 * database. 50 simultaneous randomizations split between them → 50 distinct numbers, no slot used
 * twice; 30 simultaneous registrations → 30 distinct, consecutive screening numbers.
 * Runs when TEST_DATABASE_URL is set (CI sets it).
 */
const adminUrl = process.env.TEST_DATABASE_URL;
const SUBJECTS = 50;

// The database is a copy of the test run's living demo (database-templates.ts), so neither start
// seeds it again; each still migrates, as a server does.
function startServer(databaseUrl: string) {
  return startServerProcess({ DATABASE_URL: databaseUrl, CDMS_DEMO: '1' }, 150_000);
}

const logIn = (base: string, email: string) => signInOverHttp(base, email);

describe.skipIf(!adminUrl)('randomization on two server processes sharing PostgreSQL', () => {
  const postgres = inject('testDatabaseSources').postgres;
  // Named with the run's prefix: the run's teardown drops it even if this file dies.
  const databaseName = `${postgres?.prefix}_rand_${process.pid}`;
  const servers: ChildProcess[] = [];
  const serverUrls: string[] = [];
  let testSite = { studyId: 0, siteId: 0 };
  let databaseUrl = '';

  beforeAll(async () => {
    if (!postgres) throw new Error('TEST_DATABASE_URL is set but the global setup made no templates.');
    databaseUrl = await copyPostgresTemplate(postgres, 'living-demo', databaseName);
  }, 300_000);

  afterAll(async () => {
    // Both processes end before their database is dropped.
    await Promise.all(
      servers.map((server) => {
        if (server.exitCode !== null || server.signalCode !== null) return undefined;
        const exited = new Promise((resolve) => server.once('exit', resolve));
        server.kill('SIGTERM');
        return exited;
      }),
    );
    if (postgres) await dropPostgresDatabase(postgres.url, databaseName);
  });

  it('hands out 50 distinct numbers to 50 simultaneous requests split over two processes', async () => {
    // The first process migrates and seeds; the second starts on the ready database.
    const first = await startServer(databaseUrl);
    servers.push(first.process);
    serverUrls.push(first.url);
    const second = await startServer(databaseUrl);
    servers.push(second.process);
    serverUrls.push(second.url);

    const pi = await logIn(first.url, 'pi@demo.cdms');
    const dm = await logIn(first.url, 'dm@demo.cdms');
    const studies = (await (await fetch(`${first.url}/api/studies`, { headers: pi })).json()) as {
      studies: { id: number }[];
    };
    const studyId = studies.studies[0]?.id as number;
    // The living demo already holds lists and subjects at the demo sites: the test opens a site of
    // its own (through the admin API) and gives the PI a role there, so it starts from an empty list.
    const admin = await logIn(first.url, 'admin@demo.cdms');
    const site = (await (
      await fetch(`${first.url}/api/admin/studies/${studyId}/sites`, {
        method: 'POST',
        headers: admin,
        body: JSON.stringify({ code: 'TWO-9Y', name: 'Two processes', institutionNumber: '09' }),
      })
    ).json()) as { id: number };
    const siteId = site.id;
    const memberships = (await (
      await fetch(`${first.url}/api/admin/studies/${studyId}/memberships`, { headers: admin })
    ).json()) as { memberships: { id: number; userEmail: string; siteIds: number[] }[] };
    const piMembership = memberships.memberships.find((m) => m.userEmail === 'pi@demo.cdms');
    const widened = await fetch(`${first.url}/api/admin/studies/${studyId}/memberships/${piMembership?.id}`, {
      method: 'PUT',
      headers: admin,
      body: JSON.stringify({ siteIds: [...(piMembership?.siteIds ?? []), siteId] }),
    });
    expect(widened.status).toBe(200);
    testSite = { studyId, siteId };

    const generated = await fetch(`${first.url}/api/studies/${studyId}/randomization/generate`, {
      method: 'POST',
      headers: dm,
      body: JSON.stringify({ perSite: 60, seed: 'two-processes', siteIds: [siteId] }),
    });
    expect(generated.status).toBe(201);

    const subjectIds: number[] = [];
    for (let i = 0; i < SUBJECTS; i++) {
      const created = (await (
        await fetch(`${first.url}/api/studies/${studyId}/subjects`, {
          method: 'POST',
          headers: pi,
          body: JSON.stringify({ siteId, consentDate: '2025-03-03', initials: 'TWO' }),
        })
      ).json()) as { id: number };
      const saved = await fetch(
        `${first.url}/api/studies/${studyId}/subjects/${created.id}/forms/v2/inclusionExclusionEval`,
        {
          method: 'PUT',
          headers: pi,
          body: JSON.stringify({ values: { eligible: 'Y' }, version: 0 }),
        },
      );
      expect(saved.status).toBe(200);
      subjectIds.push(created.id);
    }

    // Sessions live in the database: the same cookie works on both processes. (No body, so no
    // JSON content type: an empty JSON body is a malformed request.)
    const { 'content-type': _json, ...withoutBody } = pi;
    const responses = await Promise.all(
      subjectIds.map((subjectId, index) =>
        fetch(
          `${(index % 2 === 0 ? first : second).url}/api/studies/${studyId}/subjects/${subjectId}/randomize`,
          { method: 'POST', headers: withoutBody },
        ),
      ),
    );
    const bodies = (await Promise.all(responses.map((response) => response.json()))) as {
      randomizationNumber: string;
    }[];
    expect(
      responses.map((response) => response.status),
      JSON.stringify(bodies[0]),
    ).toEqual(Array(SUBJECTS).fill(201));
    const numbers = bodies.map((body) => body.randomizationNumber);
    expect(new Set(numbers).size).toBe(SUBJECTS);

    const check = new pg.Client({ connectionString: databaseUrl });
    await check.connect();
    const used = await check.query(
      'select count(*)::int as slots, count(distinct subject_id)::int as subjects from randomization_slots where subject_id is not null and site_id = $1',
      [siteId],
    );
    await check.end();
    expect(used.rows[0]).toEqual({ slots: SUBJECTS, subjects: SUBJECTS });
  }, 360_000);

  it('gives 30 simultaneous registrations on two processes 30 distinct, consecutive screening numbers', async () => {
    // The servers of the first test, still running.
    expect(serverUrls).toHaveLength(2);
    const [firstUrl, secondUrl] = serverUrls;
    const pi = await logIn(firstUrl as string, 'pi@demo.cdms');
    const { studyId, siteId } = testSite;
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, index) =>
        fetch(`${index % 2 === 0 ? firstUrl : secondUrl}/api/studies/${studyId}/subjects`, {
          method: 'POST',
          headers: pi,
          body: JSON.stringify({ siteId, consentDate: '2025-03-03', initials: 'CON' }),
        }),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(30).fill(201));
    const numbers = (await Promise.all(responses.map((response) => response.json()))).map(
      (body) => (body as { subjectId: string }).subjectId,
    );
    expect(new Set(numbers).size).toBe(30);
    const sequences = numbers.map((number) => Number(number.split('-')[1])).sort((a, b) => a - b);
    expect((sequences.at(-1) ?? 0) - (sequences[0] ?? 0)).toBe(29);
  }, 120_000);
});
