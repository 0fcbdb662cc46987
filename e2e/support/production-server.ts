import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repositoryRoot, stopProcess, waitForUrl } from './global-setup.ts';

/** A production install as its administrator finds it on the first day: no demo, one system administrator. */
export interface EmptyProductionServer {
  baseUrl: string;
  admin: { email: string; name: string; password: string };
  stop: () => Promise<void>;
}

/**
 * Starts the real server with `NODE_ENV=production` on an empty embedded database (no demo is
 * seeded in production), after creating its first system administrator with the command line
 * (`npm run cdms -- create-admin … --password-stdin`), as README's production set-up says. For the
 * journey from an empty database to a first subject (issue 45 item 8); the suite's other tests use
 * the living demo's servers of global-setup.ts.
 */
export async function startEmptyProductionServer(): Promise<EmptyProductionServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdms-e2e-production-'));
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    LOG_LEVEL: 'warn',
  };
  const admin = {
    email: 'it-admin@hospital.example',
    name: '시스템관리자',
    password: 'first-day-admin-2027',
  };
  const created = spawnSync(
    process.execPath,
    [
      'apps/server/src/cli/main.ts',
      'create-admin',
      '--email',
      admin.email,
      '--name',
      admin.name,
      '--password-stdin',
    ],
    { cwd: repositoryRoot, env, input: `${admin.password}\n`, encoding: 'utf8', timeout: 120_000 },
  );
  if (created.status !== 0) throw new Error(`create-admin failed (${created.status}): ${created.stderr}`);
  const server = spawn(process.execPath, ['apps/server/src/main.ts'], {
    cwd: repositoryRoot,
    env: { ...env, PORT: '0', HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stop = async () => {
    await stopProcess(server);
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    return { baseUrl: await waitForUrl(server, '[production server] '), admin, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
