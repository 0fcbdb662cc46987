import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithDatabase } from '../../test/test-database.ts';
import { lockDataDirectory } from '../db/data-dir-lock.ts';
import { listArchive } from './backup-archive.ts';
import { requestServerBackup, ServerBackupError } from './request-server-backup.ts';
import { type BackupRequestServer, backupSocketPath, serveBackupRequests } from './serve-backup-requests.ts';

const repositoryRoot = path.resolve(import.meta.dirname, '../../../..');

/**
 * Issue 52 item 1: `npm run cdms -- backup` on the embedded database while its server runs. This
 * test process plays the server: it holds DATA_DIR's lock and the database, and answers on the
 * socket; the command, a process of its own, finds the lock taken and asks.
 */
describeWithDatabase(
  'backup requests to the running embedded server',
  (database) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdms-backup-socket-'));
    let unlock: () => void;
    let server: BackupRequestServer;
    const messages: string[] = [];

    beforeAll(async () => {
      unlock = lockDataDirectory(dataDir);
      // The command checks that DATA_DIR has a database before anything else.
      fs.mkdirSync(path.join(dataDir, 'pgdata'));
      server = await serveBackupRequests(
        database(),
        {
          dataDir,
          databaseUrl: undefined,
          databaseOwnerUrl: undefined,
          auditCheckpoint: {
            key: undefined,
            file: path.join(dataDir, 'checkpoints.jsonl'),
            intervalSeconds: 0,
          },
        },
        { info: (message) => messages.push(message), error: (_error, message) => messages.push(message) },
      );
    });

    afterAll(async () => {
      await server.close();
      unlock();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    it('listens in a folder only its user may enter', () => {
      expect(fs.statSync(path.dirname(backupSocketPath(dataDir))).mode & 0o777).toBe(0o700);
      expect(fs.statSync(backupSocketPath(dataDir)).isSocket()).toBe(true);
    });

    it('writes the archive a request names and answers with its manifest', async () => {
      const out = path.join(dataDir, 'asked.tar');
      const manifest = await requestServerBackup(dataDir, out);
      expect(manifest.database.kind).toBe('pglite');
      expect((await listArchive(out)).map((entry) => entry.name)).toEqual(['manifest.json', 'pgdata.tar.gz']);
      expect(messages).toContain(`backup written to ${out} (requested by npm run cdms -- backup)`);
    });

    it('says so when no server answers on a data directory', async () => {
      const elsewhere = path.join(dataDir, 'no-server');
      await expect(requestServerBackup(elsewhere, path.join(elsewhere, 'x.tar'))).rejects.toThrow(
        ServerBackupError,
      );
    });

    it('is what npm run cdms -- backup uses when the server holds DATA_DIR', {
      timeout: 60_000,
    }, async () => {
      const out = path.join(dataDir, 'from-the-command.tar');
      const result = await new Promise<{ status: number | null; stdout: string; stderr: string }>(
        (resolve) => {
          // Not spawnSync: this process must go on answering while the command waits.
          const child = spawn(process.execPath, ['apps/server/src/cli/main.ts', 'backup', '--out', out], {
            cwd: repositoryRoot,
            env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
          });
          let stdout = '';
          let stderr = '';
          child.stdout.on('data', (chunk) => {
            stdout += chunk;
          });
          child.stderr.on('data', (chunk) => {
            stderr += chunk;
          });
          child.on('close', (status) => resolve({ status, stdout, stderr }));
        },
      );
      expect(result.stderr).toBe('');
      expect(result.stdout).toContain(
        `The server running on ${dataDir} (pid ${process.pid}) took the backup.`,
      );
      expect(result.stdout).toContain(`Backup written to ${out}`);
      expect(result.status).toBe(0);
      expect((await listArchive(out))[0]?.name).toBe('manifest.json');
    });
  },
  { kinds: ['pglite'] },
);
