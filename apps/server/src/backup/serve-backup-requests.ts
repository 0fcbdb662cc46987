import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { DatabaseHandle } from '../db/database.ts';
import type { BackupManifest } from './backup-manifest.ts';
import { type BackupConfig, writeBackup } from './write-backup.ts';

/**
 * The embedded database's server takes `npm run cdms -- backup` requests on a Unix socket in its
 * data directory, `DATA_DIR/control/backup.sock`: only the process that opened PGlite can dump it
 * (write-backup.ts), and the command must work without stopping that server.
 *
 * Who may ask: the socket sits in a folder only the server's user may enter (mode 0700), so only
 * that user (or root) — who can read the data directory anyway — can connect. The archive is
 * written by the server, as its user, where the request says.
 *
 * One request per connection, one JSON line each way: `{"out": "/absolute/path.tar"}`, answered
 * `{"manifest": …}` or `{"error": "…"}`. Requests are taken one at a time.
 */

export function backupSocketPath(dataDir: string): string {
  return path.join(dataDir, 'control', 'backup.sock');
}

export type BackupAnswer = { manifest: BackupManifest } | { error: string };

export interface BackupRequestServer {
  close(): Promise<void>;
}

interface Log {
  info(message: string): void;
  error(error: unknown, message: string): void;
}

/** The longest request line read (a path and a little JSON). */
const MAX_REQUEST_BYTES = 8192;

export async function serveBackupRequests(
  database: DatabaseHandle,
  config: BackupConfig & { dataDir: string },
  log: Log,
): Promise<BackupRequestServer> {
  const socketPath = backupSocketPath(config.dataDir);
  const folder = path.dirname(socketPath);
  await fs.promises.mkdir(folder, { recursive: true, mode: 0o700 });
  await fs.promises.chmod(folder, 0o700);
  // A socket file left by a server that died: this process holds the data directory's lock now.
  await fs.promises.rm(socketPath, { force: true });

  let queue: Promise<unknown> = Promise.resolve();
  const answer = async (line: string): Promise<BackupAnswer> => {
    let out: unknown;
    try {
      out = (JSON.parse(line) as { out?: unknown }).out;
    } catch {
      return { error: 'The request is not JSON.' };
    }
    if (typeof out !== 'string' || !path.isAbsolute(out)) {
      return { error: 'The request names no absolute path for the archive ("out").' };
    }
    try {
      const manifest = await writeBackup(database, config, out);
      log.info(`backup written to ${out} (requested by npm run cdms -- backup)`);
      return { manifest };
    } catch (error) {
      log.error(error, `the requested backup into ${out} failed`);
      return { error: error instanceof Error ? error.message : String(error) };
    }
  };

  const server = net.createServer((socket) => {
    let received = '';
    socket.setEncoding('utf8');
    socket.on('error', () => {});
    socket.on('data', (text: string) => {
      received += text;
      const end = received.indexOf('\n');
      if (end === -1 && received.length <= MAX_REQUEST_BYTES) return;
      socket.removeAllListeners('data');
      const line = end === -1 ? '' : received.slice(0, end);
      const turn = queue.then(() => answer(line));
      queue = turn.catch(() => {});
      void turn.then((reply) => socket.end(`${JSON.stringify(reply)}\n`));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await queue;
      await fs.promises.rm(socketPath, { force: true });
    },
  };
}
