import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const repositoryRoot = path.resolve(import.meta.dirname, '../..');

/**
 * Starts the real server (as `npm run serve` would) on a free port with a fresh data directory,
 * waits for the URL it prints, and hands the URL to the tests through CDMS_E2E_BASE_URL.
 * Returns the teardown: stop the server, delete the data.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  if (!fs.existsSync(path.join(repositoryRoot, 'apps/web/dist/index.html'))) {
    throw new Error('The web app is not built: run "npm run build" before the end-to-end tests.');
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdms-e2e-'));
  const server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: repositoryRoot,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      // Every test logs in from the same address: the per-IP login limit (30 per 15 minutes)
      // would otherwise refuse the later ones. Lockout after wrong passwords stays as configured.
      LOGIN_RATE_LIMIT: '1000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const baseUrl = await waitForUrl(server);
  process.env.CDMS_E2E_BASE_URL = baseUrl;

  return async () => {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}

function waitForUrl(server: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    // The first start seeds the living demo: ~20 s on a quiet machine, minutes on a crowded one.
    const timer = setTimeout(
      () => reject(new Error(`The server did not start in 600 s:\n${output}`)),
      600_000,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = output.match(/running at (http:\/\/localhost:\d+)/);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1].replace('localhost', '127.0.0.1'));
      }
    };
    server.stdout?.on('data', onData);
    server.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      process.stderr.write(chunk);
    });
    server.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`The server exited (code ${code}) before it started:\n${output}`));
    });
  });
}
