import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';

const repositoryRoot = path.resolve(import.meta.dirname, '../..');

/**
 * Starts the real server (as `npm run serve` would) on a free port with a fresh data directory,
 * waits for the URL it prints, and hands the URL to the tests through CDMS_E2E_BASE_URL.
 * The server's e-mails really leave over SMTP, to a mail server started here that files each message
 * it receives as `<n>.eml` in the directory named by CDMS_E2E_MAILBOX.
 * Returns the teardown: stop the servers, delete the data.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  if (!fs.existsSync(path.join(repositoryRoot, 'apps/web/dist/index.html'))) {
    throw new Error('The web app is not built: run "npm run build" before the end-to-end tests.');
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdms-e2e-'));
  const mailbox = path.join(dataDir, 'mailbox');
  fs.mkdirSync(mailbox);
  const smtp = await startMailbox(mailbox);
  process.env.CDMS_E2E_MAILBOX = mailbox;
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
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      SMTP_FROM: 'CDMS e2e <no-reply@cdms.test>',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const baseUrl = await waitForUrl(server);
  process.env.CDMS_E2E_BASE_URL = baseUrl;

  return async () => {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    await smtp.close();
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
