import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AmendmentMigrationsResponse } from '@cdms/contract';
import type { StudyDefinition } from '@cdms/study';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/open-database.ts';
import { seedDemoData } from '../../src/seed/demo-seed.ts';
import { repositoryRoot, type ServerProcess, signInOverHttp, startServerProcess } from '../server-process.ts';

/**
 * A migration survives a crash (issue 49 item 4): an amendment renaming the vital signs' remark is
 * published over 80 subjects and their migration started; the server process is killed with SIGKILL
 * while the job is half way. Restarted (its lease made short), the job resumes where it stopped: every
 * subject is moved exactly once — its remark under the new key, no half-moved subject, one
 * `subject.migrated` record each, the job's counts equal to the subjects — and `audit verify` says
 * the chain is intact. On the embedded database, as the product runs by default.
 */
const SUBJECTS = 80;

describe('kill -9 during an amendment migration [pglite]', () => {
  let server: ServerProcess | undefined;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdms-migration-crash-'));
  const env = { DATA_DIR: dataDir, DATABASE_URL: '', MIGRATION_LEASE_SECONDS: '2' };

  afterAll(async () => {
    server?.process.kill('SIGKILL');
    await server?.exited;
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('resumes after the crash and moves every subject exactly once', async () => {
    const seeding = await openDatabase(loadConfig({ ...env, NODE_ENV: 'test' }));
    await seedDemoData(seeding.db, { subjects: false });
    await seeding.close();
    server = await startServerProcess(env);
    let base = server.url;
    const crc = await signInOverHttp(base, 'crc@demo.cdms');
    const dm = await signInOverHttp(base, 'dm@demo.cdms');
    const call = async (headers: Record<string, string>, method: string, url: string, body?: unknown) => {
      const { 'content-type': _json, ...withoutBody } = headers;
      const response = await fetch(`${base}${url}`, {
        method,
        headers: body === undefined ? withoutBody : headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      if (response.status >= 300)
        throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
      // biome-ignore lint/suspicious/noExplicitAny: the test reads the answers it needs by name
      return (await response.json()) as any;
    };
    const me = await call(crc, 'GET', '/api/auth/me');
    const studyId = me.memberships[0].studyId as number;
    const siteId = me.memberships[0].sites[0].id as number;

    const subjects: number[] = [];
    for (let i = 0; i < SUBJECTS; i++) {
      const { id } = await call(crc, 'POST', `/api/studies/${studyId}/subjects`, {
        siteId,
        consentDate: '2026-01-05',
        initials: 'MIG',
      });
      await call(crc, 'PUT', `/api/studies/${studyId}/subjects/${id}/forms/v1/vitalSigns`, {
        values: {
          bloodPressureSystolic: 120,
          bloodPressureDiastolic: 80,
          heartRate: 70,
          bodyTemperature: 36.5,
          result: 'normal',
          opinion: `Remark ${i}`,
        },
        version: 0,
      });
      subjects.push(id);
    }

    // The amendment: the remark renamed, published with the data manager's signature.
    const amendments = `/api/studies/${studyId}/amendments`;
    const fields = { number: 'AM-K9', reason: 'Remark renamed', sites: [] };
    const { id: amendmentId } = await call(dm, 'POST', amendments, fields);
    const { draft } = await call(dm, 'GET', `/api/studies/${studyId}/design-draft`);
    const next = structuredClone(draft.definition) as StudyDefinition;
    next.version = '2.0.0';
    for (const form of next.forms)
      for (const section of form.sections)
        for (const item of section.items)
          if (form.key === 'vitalSigns' && item.key === 'opinion') item.key = 'remark';
    await call(dm, 'PUT', `/api/studies/${studyId}/design-draft`, {
      baseRevision: draft.revision,
      definition: next,
    });
    await call(dm, 'PUT', `${amendments}/${amendmentId}`, {
      ...fields,
      declarations: { itemRenames: [{ form: 'vitalSigns', from: 'opinion', to: 'remark' }] },
    });
    await call(dm, 'POST', `${amendments}/${amendmentId}/impact`);
    await call(dm, 'POST', `${amendments}/${amendmentId}/publish`, { password: 'cdms-demo-2026' });

    // Started, and killed half way.
    const progress = async () =>
      ((await call(dm, 'GET', `${amendments}/${amendmentId}/migrations`)) as AmendmentMigrationsResponse)
        .migrations[0];
    await call(dm, 'POST', `${amendments}/${amendmentId}/migrations`, { scope: 'study' });
    let atKill = 0;
    for (let tries = 0; tries < 2000; tries++) {
      const job = await progress();
      if (job && job.migrated > 0) {
        server.process.kill('SIGKILL');
        atKill = job.migrated;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(await server.exited).toBe('SIGKILL');
    expect(atKill).toBeGreaterThan(0);
    expect(atKill).toBeLessThan(SUBJECTS);

    // Restarted on the same data: the lease runs out and the job resumes after its last subject.
    server = await startServerProcess(env);
    base = server.url;
    Object.assign(dm, await signInOverHttp(base, 'dm@demo.cdms'));
    let job = await progress();
    for (let tries = 0; tries < 600 && job?.status !== 'done'; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      job = await progress();
    }
    console.log(`migration crash: killed at ${atKill} of ${SUBJECTS} subjects; resumed to ${job?.migrated}`);
    expect(job).toMatchObject({ status: 'done', total: SUBJECTS, migrated: SUBJECTS, held: 0, failed: 0 });

    server.process.kill('SIGTERM');
    await server.exited;
    server = undefined;
    const reading = await openDatabase(loadConfig({ ...env, NODE_ENV: 'test' }));
    try {
      const rows = await sql<{ id: number; version: string; keys: string[]; migrated: number }>`
        select s.id, s.definition_version as version,
          (select array_agg(v.item_key order by v.item_key) from item_values v
            join form_instances f on f.id = v.form_instance_id
            where f.subject_id = s.id and f.form_key = 'vitalSigns') as keys,
          (select count(*)::int from audit_events a
            where a.subject_id = s.id and a.event_type = 'subject.migrated') as migrated
        from subjects s where s.id in (${sql.join(subjects)}) order by s.id`.execute(reading.db);
      const wrong = rows.rows.filter(
        (row) =>
          row.version !== '2.0.0' ||
          row.migrated !== 1 ||
          !row.keys.includes('remark') ||
          row.keys.includes('opinion'),
      );
      expect(wrong).toEqual([]);
      expect(rows.rows).toHaveLength(SUBJECTS);
    } finally {
      await reading.close();
    }
    const verify = spawnSync(process.execPath, ['apps/server/src/cli/main.ts', 'audit', 'verify'], {
      cwd: repositoryRoot,
      env: { ...process.env, ...env },
      encoding: 'utf8',
    });
    expect(verify.status, `${verify.stdout}\n${verify.stderr}`).toBe(0);
    expect(verify.stdout).toMatch(/intact/i);
  }, 600_000);
});
