import fs from 'node:fs';
import { Readable } from 'node:stream';

/**
 * A backup is one tar file (POSIX ustar, so `tar -tvf` lists it and `tar -xf` takes it apart by
 * hand): `manifest.json` first, then each part as a plain file. Written here rather than with a tar
 * package because the server needs only these two directions over regular files: a part is copied
 * in from a file, and read back as a byte range of the archive (a restore streams the database dump
 * to pg_restore straight out of the archive, without unpacking it first).
 */

const BLOCK = 512;
/** The largest size the 11 octal digits of a ustar header hold (8 GiB); larger sizes go in base-256. */
const OCTAL_SIZE_LIMIT = 8 ** 11;

export interface ArchivePart {
  /** The name inside the archive (a plain file name: no directories). */
  name: string;
  /** The file whose bytes the part holds. */
  file: string;
}

export interface ArchiveEntry {
  name: string;
  /** Where the entry's bytes start in the archive, and how many there are. */
  offset: number;
  size: number;
}

/** Writes `parts` in their order as one tar file at `out` (created or replaced). */
export async function writeArchive(out: string, parts: ArchivePart[]): Promise<void> {
  const handle = await fs.promises.open(out, 'w');
  try {
    for (const part of parts) {
      const { size } = await fs.promises.stat(part.file);
      await handle.write(tarHeader(part.name, size));
      for await (const chunk of fs.createReadStream(part.file)) await handle.write(chunk as Buffer);
      const padding = (BLOCK - (size % BLOCK)) % BLOCK;
      if (padding > 0) await handle.write(Buffer.alloc(padding));
    }
    // The end of a tar file: two blocks of zeros.
    await handle.write(Buffer.alloc(BLOCK * 2));
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** The header block of one regular file. */
function tarHeader(name: string, size: number): Buffer {
  const nameBytes = Buffer.from(name, 'utf8');
  if (nameBytes.length > 100 || name.includes('/')) throw new Error(`Bad archive part name: ${name}`);
  const header = Buffer.alloc(BLOCK);
  nameBytes.copy(header, 0);
  header.write('0000644\0', 100, 'ascii'); // mode
  header.write('0000000\0', 108, 'ascii'); // uid
  header.write('0000000\0', 116, 'ascii'); // gid
  writeSize(header, size);
  header.write(
    `${Math.floor(Date.now() / 1000)
      .toString(8)
      .padStart(11, '0')}\0`,
    136,
    'ascii',
  );
  header.write('        ', 148, 'ascii'); // the checksum counts itself as spaces
  header.write('0', 156, 'ascii'); // a regular file
  header.write('ustar\0', 257, 'ascii');
  header.write('00', 263, 'ascii');
  let checksum = 0;
  for (const byte of header) checksum += byte;
  header.write(`${checksum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return header;
}

function writeSize(header: Buffer, size: number): void {
  if (size < OCTAL_SIZE_LIMIT) {
    header.write(`${size.toString(8).padStart(11, '0')}\0`, 124, 'ascii');
    return;
  }
  // GNU base-256: the first byte's high bit set, the size big-endian in the rest of the 12 bytes.
  header.fill(0, 124, 136);
  header[124] = 0x80;
  header.writeBigUInt64BE(BigInt(size), 128);
}

function readSize(header: Buffer): number {
  if ((header[124] ?? 0) & 0x80) return Number(header.readBigUInt64BE(128));
  return Number.parseInt(header.toString('ascii', 124, 136).replace(/\0.*$/, '').trim() || '0', 8);
}

/** A file that is not a whole tar archive of regular files (cut short, or not an archive at all). */
export class ArchiveFormatError extends Error {}

/**
 * The entries of the tar file at `file`, in their order, by reading the headers only. Anything but
 * a regular file, a header whose checksum is wrong, or an entry running past the end of the file
 * is an `ArchiveFormatError`.
 */
export async function listArchive(file: string): Promise<ArchiveEntry[]> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const { size: fileSize } = await handle.stat();
    const entries: ArchiveEntry[] = [];
    const header = Buffer.alloc(BLOCK);
    let offset = 0;
    for (;;) {
      if (offset + BLOCK > fileSize) throw new ArchiveFormatError('the archive ends before its last block');
      await handle.read(header, 0, BLOCK, offset);
      if (header.every((byte) => byte === 0)) return entries;
      if (!checksumMatches(header)) throw new ArchiveFormatError(`bad header at byte ${offset}`);
      const type = header.toString('ascii', 156, 157);
      if (type !== '0' && type !== '\0') throw new ArchiveFormatError(`not a plain file at byte ${offset}`);
      const name = header.toString('utf8', 0, 100).replace(/\0.*$/s, '');
      const size = readSize(header);
      const start = offset + BLOCK;
      if (start + size > fileSize) throw new ArchiveFormatError(`the part ${name} is cut short`);
      entries.push({ name, offset: start, size });
      offset = start + Math.ceil(size / BLOCK) * BLOCK;
    }
  } finally {
    await handle.close();
  }
}

function checksumMatches(header: Buffer): boolean {
  const stored = Number.parseInt(header.toString('ascii', 148, 156).replace(/\0.*$/, '').trim(), 8);
  let sum = 0;
  for (let index = 0; index < BLOCK; index++) {
    sum += index >= 148 && index < 156 ? 0x20 : (header[index] ?? 0);
  }
  return sum === stored;
}

/** The bytes of one entry as a stream (empty entries give an empty stream). */
export function readEntry(file: string, entry: ArchiveEntry): NodeJS.ReadableStream {
  if (entry.size === 0) return Readable.from([]);
  return fs.createReadStream(file, { start: entry.offset, end: entry.offset + entry.size - 1 });
}

/** The bytes of one small entry (the manifest) at once. */
export async function readEntryBytes(file: string, entry: ArchiveEntry): Promise<Buffer> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const bytes = Buffer.alloc(entry.size);
    await handle.read(bytes, 0, entry.size, entry.offset);
    return bytes;
  } finally {
    await handle.close();
  }
}
