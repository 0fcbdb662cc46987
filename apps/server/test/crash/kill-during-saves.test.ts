import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/open-database.ts';
import { seedDemoData } from '../../src/seed/demo-seed.ts';
import { repositoryRoot, type ServerProcess, signInOverHttp, startServerProcess } from '../server-process.ts';

/**
 * Durability under a crash (issue 11): 50 coordinators' worth of concurrent form saves against the
 * real server process; after 450 saves have been acknowledged the process is killed with SIGKILL
 * while ~50 more are in flight. On restart every acknowledged save must be there (a save that was in
 * flight may or may not have landed, but nothing older may come back), and `audit verify` must say
 * the chain is intact. On the embedded database always; on PostgreSQL when TEST_DATABASE_URL is set.
 */
const SAVERS = 50;
const KILL_AFTER_ACKNOWLEDGED = 450;
const adminUrl = process.env.TEST_DATABASE_URL;

interface Saver {
  subjectId: number;
  version: number;
  /** Heart rate of the last save the server acknowledged, and of the one sent after it (if any). */
  acknowledged?: number;
  inFlight?: number;
}

const kinds: {
  kind: string;
  setUp: () => Promise<{ env: Record<string, string>; cleanUp: () => Promise<void> }>;
}[] = [
  {
    kind: 'pglite',
    setUp: async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdms-crash-'));
      return {
        env: { DATA_DIR: dataDir, DATABASE_URL: '' },
        cleanUp: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
      };
    },
  },
  ...(adminUrl
    ? [
        {
          kind: 'postgres',
          setUp: async () => {
            const name = `cdms_crash_${Date.now()}_${process.pid}`;
            const admin = new pg.Client({ connectionString: adminUrl });
            await admin.connect();
            await admin.query(`create database ${name}`);
            await admin.end();
            const url = new URL(adminUrl);
            url.pathname = `/${name}`;
            return {
              env: { DATABASE_URL: url.toString() },
              cleanUp: async () => {
                const client = new pg.Client({ connectionString: adminUrl });
                await client.connect();
                await client.query(`drop database if exists ${name} with (force)`);
                await client.end();
              },
            };
          },
        },
      ]
    : []),
];

for (const { kind, setUp } of kinds) {
  describe(`kill -9 during concurrent saves [${kind}]`, () => {
    let server: ServerProcess | undefined;
    let cleanUp: (() => Promise<void>) | undefined;

    afterAll(async () => {
      server?.process.kill('SIGKILL');
      await server?.exited;
      await cleanUp?.();
    });

    it('keeps every acknowledged save and an intact audit trail', async () => {
      const database = await setUp();
      cleanUp = database.cleanUp;
      // The demo study, sites and accounts, without the living demo's subjects (the server's own
      // first-start seed would spend half a minute entering them; it skips a database with users).
      const seeding = await openDatabase(loadConfig({ ...database.env, NODE_ENV: 'test' }));
      await seedDemoData(seeding.db, { subjects: false });
      await seeding.close();
      server = await startServerProcess(database.env);
      const base = server.url;
      const crc = await signInOverHttp(base, 'crc@demo.cdms');
      const studies = (await (await fetch(`${base}/api/studies`, { headers: crc })).json()) as {
        studies: { id: number; sites?: { id: number }[] }[];
      };
      const studyId = studies.studies[0]?.id as number;
      const me = (await (await fetch(`${base}/api/auth/me`, { headers: crc })).json()) as {
        memberships: { studyId: number; sites: { id: number }[] }[];
      };
      const siteId = me.memberships.find((m) => m.studyId === studyId)?.sites[0]?.id as number;

      // Fresh subjects, one per saver, so the savers never wait on each other's form version.
      const savers: Saver[] = [];
      for (let i = 0; i < SAVERS; i++) {
        const response = await fetch(`${base}/api/studies/${studyId}/subjects`, {
          method: 'POST',
          headers: crc,
          body: JSON.stringify({ siteId, consentDate: '2026-01-05', initials: 'KIL' }),
        });
        expect(response.status, await response.clone().text()).toBe(201);
        savers.push({ subjectId: ((await response.json()) as { id: number }).id, version: 0 });
      }

      let acknowledged = 0;
      let killed = false;
      const formUrl = (saver: Saver) =>
        `${base}/api/studies/${studyId}/subjects/${saver.subjectId}/forms/v1/vitalSigns`;
      const saveLoop = async (saver: Saver) => {
        for (let n = 0; !killed; n++) {
          const heartRate = 40 + n;
          saver.inFlight = heartRate;
          const body = {
            values: {
              bloodPressureSystolic: 120,
              bloodPressureDiastolic: 80,
              heartRate,
              bodyTemperature: 36.5,
              result: 'normal',
            },
            version: saver.version,
            reasons: n === 0 ? {} : { heartRate: 'Re-measured (crash test)' },
          };
          let response: Response;
          try {
            response = await fetch(formUrl(saver), {
              method: 'PUT',
              headers: crc,
              body: JSON.stringify(body),
            });
          } catch {
            return; // the server is gone: this save is "in flight", it may or may not have landed
          }
          if (response.status !== 200)
            throw new Error(`save refused: ${response.status} ${await response.text()}`);
          const saved = (await response.json()) as { version: number };
          saver.version = saved.version;
          saver.acknowledged = heartRate;
          saver.inFlight = undefined;
          acknowledged++;
          if (acknowledged >= KILL_AFTER_ACKNOWLEDGED && !killed) {
            killed = true;
            server?.process.kill('SIGKILL');
          }
        }
      };
      await Promise.all(savers.map(saveLoop));
      expect(await server.exited).toBe('SIGKILL');
      expect(acknowledged).toBeGreaterThanOrEqual(KILL_AFTER_ACKNOWLEDGED);
      const inFlight = savers.filter((saver) => saver.inFlight !== undefined).length;
      console.log(`crash [${kind}]: ${acknowledged} saves acknowledged, ${inFlight} in flight at SIGKILL`);
      expect(inFlight).toBeGreaterThan(0);

      // Restart on the same data: every acknowledged save is there.
      server = await startServerProcess(database.env);
      const again = await signInOverHttp(server.url, 'crc@demo.cdms');
      const missing: string[] = [];
      for (const saver of savers) {
        const response = await fetch(formUrl(saver).replace(base, server.url), { headers: again });
        const form = (await response.json()) as { values: { heartRate?: number }; version: number };
        const allowed = [saver.acknowledged, saver.inFlight];
        if (!allowed.includes(form.values.heartRate) || form.version < saver.version)
          missing.push(
            `subject ${saver.subjectId}: acknowledged heart rate ${saver.acknowledged} (version ${saver.version}), found ${form.values.heartRate} (version ${form.version})`,
          );
      }
      expect(missing).toEqual([]);

      // Stop it cleanly (the embedded database allows one process) and verify the chain from the CLI.
      server.process.kill('SIGTERM');
      await server.exited;
      server = undefined;
      const verify = spawnSync(process.execPath, ['apps/server/src/cli/main.ts', 'audit', 'verify'], {
        cwd: repositoryRoot,
        env: { ...process.env, ...database.env },
        encoding: 'utf8',
      });
      expect(verify.status, `${verify.stdout}\n${verify.stderr}`).toBe(0);
      expect(verify.stdout).toMatch(/intact/i);
    }, 600_000);
  });
}
