import fs from 'node:fs';
import path from 'node:path';

/**
 * A PGlite data directory may be opened by one process at a time: two WebAssembly backends writing
 * the same files corrupt them. The lock is a file holding the owner's process id; a lock whose
 * process is gone (a crash, a kill -9) is stale and taken over.
 */
export class DataDirectoryInUseError extends Error {
  readonly dataDir: string;
  readonly ownerPid: number;

  constructor(dataDir: string, ownerPid: number) {
    super(
      `The embedded database in ${dataDir} is in use by another CDMS process (pid ${ownerPid}). ` +
        'Stop that process first (for example the running server), or point DATA_DIR elsewhere.',
    );
    this.dataDir = dataDir;
    this.ownerPid = ownerPid;
    this.name = 'DataDirectoryInUseError';
  }
}

const LOCK_FILE_NAME = 'cdms.lock';

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM means the process exists but belongs to someone else: still alive.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the lock for `dataDir` and returns a function that gives it back. */
export function lockDataDirectory(dataDir: string, ownerPid: number = process.pid): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const lockPath = path.join(dataDir, LOCK_FILE_NAME);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockPath, String(ownerPid), { flag: 'wx' });
      return () => {
        try {
          if (fs.readFileSync(lockPath, 'utf8').trim() === String(ownerPid)) fs.unlinkSync(lockPath);
        } catch {
          // Already gone: nothing to give back.
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const existingPid = Number.parseInt(fs.readFileSync(lockPath, 'utf8').trim(), 10);
      if (Number.isInteger(existingPid) && existingPid > 0 && isProcessAlive(existingPid)) {
        throw new DataDirectoryInUseError(dataDir, existingPid);
      }
      fs.rmSync(lockPath, { force: true }); // stale: its owner died without cleaning up
    }
  }
  throw new Error(`Could not lock the data directory ${dataDir}.`);
}
