import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FullConfig } from '@playwright/test';
import { SMTPServer } from 'smtp-server';
import { type E2eServer, publishE2eServers } from './servers.ts';

export const repositoryRoot = path.resolve(import.meta.dirname, '../..');

/**
 * Starts one server per Playwright worker (`config.workers`: E2E_WORKERS, or `--workers`), so that
 * no two workers ever change the same data: the files of one worker still run one after another on
 * its own server. See startE2eServers. With E2E_BASE_URL, the tests use that running server instead
 * and start none (one file at a time, as a developer runs it; tests that read e-mails need the
 * suite's own servers and their mailboxes).
 */
export default async function globalSetup(config: FullConfig): Promise<() => Promise<void>> {
  const running = process.env.E2E_BASE_URL;
  if (running) {
    // A server the developer started (docs/TESTING.md): every worker uses it, no mailbox is read.
    publishE2eServers(Array.from({ length: config.workers }, () => ({ baseUrl: running, mailbox: '' })));
    return async () => {};
  }
  return startE2eServers(config.workers);
}

/**
 * Starts `count` copies of the real server (as `npm run serve` would), each on a free port with a
 * data directory of its own holding the living demo, waits for the URL each prints, and hands the
 * URLs to the tests through publishE2eServers (servers.ts; a test finds its worker's with
 * e2eServer()). The demo is seeded once (`npm run cdms -- seed-demo`, half a minute) into a data
 * directory that each server gets a copy of, and the servers start side by side. The servers'
 * e-mails really leave over SMTP, each server's to a mail server of its own started here that files
 * each message it receives as `<n>.eml` in that server's mailbox directory.
 * Returns the teardown: stop the servers and mail servers, delete the data.
 */
export async function startE2eServers(count: number): Promise<() => Promise<void>> {
  if (!fs.existsSync(path.join(repositoryRoot, 'apps/web/dist/index.html'))) {
    throw new Error('The web app is not built: run "npm run build" before the end-to-end tests.');
  }
  const seeded = fs.mkdtempSync(path.join(os.tmpdir(), 'cdms-e2e-seeded-'));
  try {
    await seedDemoDataDirectory(seeded);
    const started = await Promise.allSettled(
      Array.from({ length: count }, (_, index) => startServer(index, count, seeded)),
    );
    const running = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    const teardown = async () => {
      await Promise.all(running.map((server) => server.stop()));
    };
    const failed = started.find((result) => result.status === 'rejected');
    if (failed) {
      await teardown();
      throw failed.reason;
    }
    publishE2eServers(running.map(({ baseUrl, mailbox }) => ({ baseUrl, mailbox })));
    return teardown;
  } finally {
    fs.rmSync(seeded, { recursive: true, force: true });
  }
}

/** The living demo in `dataDir`, seeded by the command line (no server: no e-mail leaves yet). */
async function seedDemoDataDirectory(dataDir: string): Promise<void> {
  const seeding = spawn(process.execPath, ['apps/server/src/cli/main.ts', 'seed-demo'], {
    cwd: repositoryRoot,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  seeding.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  seeding.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve) => seeding.once('exit', resolve));
  if (code !== 0) throw new Error(`Seeding the living demo failed (exit ${code}):\n${output}`);
}

/**
 * One server on a copy of the seeded data directory, with its mail server; `stop` ends both and
 * deletes the data.
 */
async function startServer(
  index: number,
  count: number,
  seeded: string,
): Promise<E2eServer & { stop: () => Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `cdms-e2e-${index}-`));
  // The seeding process's lock on the directory ended with it: the copy starts without one.
  fs.cpSync(seeded, dataDir, { recursive: true, filter: (source) => path.basename(source) !== 'cdms.lock' });
  const mailbox = path.join(dataDir, 'mailbox');
  fs.mkdirSync(mailbox);
  const smtp = await startMailbox(mailbox);
  const server = spawn(process.execPath, ['apps/server/src/main.ts'], {
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
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      SMTP_FROM: 'CDMS e2e <no-reply@cdms.test>',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stop = async () => {
    await stopProcess(server);
    await smtp.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    // With more than one server, each line the servers write says whose it is.
    const baseUrl = await waitForUrl(server, count > 1 ? `[e2e server ${index}] ` : '');
    return { baseUrl, mailbox, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Ends a server process as a service manager would (SIGTERM) and waits until it has exited. */
export async function stopProcess(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.kill('SIGTERM');
  await exited;
}

export function waitForUrl(server: ChildProcess, prefix: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    // The demo is seeded already: a start migrates nothing new and listens, seconds even on a crowded machine.
    const timer = setTimeout(
      () => reject(new Error(`${prefix}The server did not start in 600 s:\n${output}`)),
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
    let partialLine = '';
    server.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (!prefix) {
        process.stderr.write(chunk);
        return;
      }
      const lines = (partialLine + chunk.toString()).split('\n');
      partialLine = lines.pop() ?? '';
      for (const line of lines) process.stderr.write(`${prefix}${line}\n`);
    });
    server.once('exit', (code) => {
      if (partialLine) process.stderr.write(`${prefix}${partialLine}\n`);
      clearTimeout(timer);
      reject(new Error(`${prefix}The server exited (code ${code}) before it started:\n${output}`));
    });
  });
}

/** A local mail server that accepts every message and files it, raw, in `directory`. */
async function startMailbox(directory: string): Promise<{ port: number; close: () => Promise<void> }> {
  let received = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received += 1;
        fs.writeFileSync(path.join(directory, `${received}.eml`), Buffer.concat(chunks));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (server.server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
