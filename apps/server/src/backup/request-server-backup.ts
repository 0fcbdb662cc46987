import net from 'node:net';
import path from 'node:path';
import type { BackupManifest } from './backup-manifest.ts';
import { type BackupAnswer, backupSocketPath } from './serve-backup-requests.ts';

/** The running server did not take the request, or could not write the backup. */
export class ServerBackupError extends Error {}

/**
 * Asks the server that holds the embedded database in `dataDir` to write a backup to `out`
 * (serve-backup-requests.ts) and waits for it: `npm run cdms -- backup` while the server runs.
 */
export function requestServerBackup(dataDir: string, out: string): Promise<BackupManifest> {
  const socketPath = backupSocketPath(dataDir);
  return new Promise((resolve, reject) => {
    let received = '';
    const socket = net.connect(socketPath, () => {
      socket.write(`${JSON.stringify({ out: path.resolve(out) })}\n`);
    });
    socket.setEncoding('utf8');
    socket.on('data', (text: string) => {
      received += text;
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      reject(
        new ServerBackupError(
          error.code === 'ENOENT' || error.code === 'ECONNREFUSED'
            ? `The server holding ${dataDir} takes no backup requests (no socket at ${socketPath}: a version before backups, or it is starting or stopping).`
            : `The server holding ${dataDir} could not be asked for a backup: ${error.message}`,
        ),
      );
    });
    socket.on('end', () => {
      try {
        const answer = JSON.parse(received) as BackupAnswer;
        if ('manifest' in answer) resolve(answer.manifest);
        else reject(new ServerBackupError(`The server could not write the backup: ${answer.error}`));
      } catch {
        reject(new ServerBackupError('The server ended the backup request without an answer.'));
      }
    });
  });
}
