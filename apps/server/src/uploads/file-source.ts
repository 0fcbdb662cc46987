import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';

/**
 * An uploaded file's bytes without holding them all: its size and SHA-256 (counted while it arrived)
 * and reads of any part. Uploads land in a temporary file (`receiveUpload`); the demo seed's small
 * files are in memory (`bufferSource`). Sniffing the type reads the head (and a ZIP's directory),
 * storing reads one chunk at a time, so memory stays flat whatever the size (issue 43).
 */
export interface FileSource {
  readonly size: number;
  readonly sha256: string;
  /** `length` bytes from `offset`, fewer at the end of the file. */
  read(offset: number, length: number): Promise<Buffer>;
}

export function bufferSource(bytes: Buffer): FileSource {
  return {
    size: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    read: async (offset, length) => bytes.subarray(offset, Math.min(bytes.length, offset + length)),
  };
}

export function diskSource(path: string, size: number, sha256: string): FileSource {
  return {
    size,
    sha256,
    read: async (offset, length) => {
      const start = Math.max(0, Math.min(offset, size));
      const buffer = Buffer.alloc(Math.max(0, Math.min(length, size - start)));
      const handle = await open(path, 'r');
      try {
        let filled = 0;
        while (filled < buffer.length) {
          const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, start + filled);
          if (bytesRead === 0) break;
          filled += bytesRead;
        }
        return buffer.subarray(0, filled);
      } finally {
        await handle.close();
      }
    },
  };
}
