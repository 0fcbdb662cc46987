import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirectoryInUseError, lockDataDirectory } from './data-dir-lock.ts';

const repositoryRoot = path.resolve(import.meta.dirname, '../../../..');
const directories: string[] = [];

function tempDir(): string {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'cdms-lock-'));
  directories.push(directory);
  return directory;
}

afterEach(() => {
  for (const directory of directories.splice(0)) fs.rmSync(directory, { recursive: true, force: true });
});

describe('lockDataDirectory', () => {
  it('refuses a second holder while the first is alive, and allows it after release', () => {
    const directory = tempDir();
    const release = lockDataDirectory(directory);
    expect(() => lockDataDirectory(directory)).toThrow(DataDirectoryInUseError);
    expect(() => lockDataDirectory(directory)).toThrow(/in use by another CDMS process/);
    release();
    const releaseAgain = lockDataDirectory(directory);
    releaseAgain();
    expect(fs.existsSync(path.join(directory, 'cdms.lock'))).toBe(false);
  });

  it('takes over a stale lock whose process is gone', () => {
    const directory = tempDir();
    // A process id far above Linux's pid_max: certainly not running.
    fs.writeFileSync(path.join(directory, 'cdms.lock'), '99999999');
    const release = lockDataDirectory(directory);
    expect(fs.readFileSync(path.join(directory, 'cdms.lock'), 'utf8')).toBe(String(process.pid));
    release();
  });

  it('makes a second server process on the same data directory refuse with a clear message', () => {
    const directory = tempDir();
    const release = lockDataDirectory(directory);
    try {
      const result = spawnSync(process.execPath, ['apps/server/src/main.ts'], {
        cwd: repositoryRoot,
        env: { ...process.env, DATA_DIR: directory, PORT: '0', DATABASE_URL: '' },
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(result.status).toBe(1);
      expect(result.stderr).toContain(`in use by another CDMS process (pid ${process.pid})`);
    } finally {
      release();
    }
  });
});
