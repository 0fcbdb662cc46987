import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ArchiveFormatError,
  listArchive,
  readEntry,
  readEntryBytes,
  writeArchive,
} from './backup-archive.ts';

const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdms-archive-'));
afterAll(() => {
  fs.rmSync(workDir, { recursive: true, force: true });
});

/** A file of `size` bytes whose content tells its bytes apart. */
function part(name: string, size: number): { name: string; file: string; bytes: Buffer } {
  const bytes = Buffer.alloc(size);
  for (let index = 0; index < size; index++) bytes[index] = (index * 31 + name.length) % 251;
  const file = path.join(workDir, `source-${name}`);
  fs.writeFileSync(file, bytes);
  return { name, file, bytes };
}

async function streamed(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('the backup archive (tar)', () => {
  const parts = [
    part('manifest.json', 700),
    part('empty', 0),
    part('block', 512),
    part('large', 3 * 65_536 + 5),
  ];
  const archive = path.join(workDir, 'archive.tar');

  it('reads back every part, in order, byte for byte (sizes on and off a block boundary, empty)', async () => {
    await writeArchive(archive, parts);
    const entries = await listArchive(archive);
    expect(entries.map((entry) => [entry.name, entry.size])).toEqual(
      parts.map((p) => [p.name, p.bytes.length]),
    );
    for (const [index, entry] of entries.entries()) {
      expect((await streamed(readEntry(archive, entry))).equals(parts[index]?.bytes ?? Buffer.alloc(0))).toBe(
        true,
      );
    }
    expect(
      (await readEntryBytes(archive, entries[0] ?? { name: '', offset: 0, size: 0 })).equals(
        parts[0]?.bytes ?? Buffer.alloc(0),
      ),
    ).toBe(true);
  });

  it('is a tar the system’s tar lists and unpacks', () => {
    const listed = spawnSync('tar', ['-tf', archive], { encoding: 'utf8' });
    expect(listed.status).toBe(0);
    expect(listed.stdout.trim().split('\n')).toEqual(parts.map((p) => p.name));
    const unpacked = path.join(workDir, 'unpacked');
    fs.mkdirSync(unpacked);
    expect(spawnSync('tar', ['-xf', archive, '-C', unpacked]).status).toBe(0);
    expect(fs.readFileSync(path.join(unpacked, 'large')).equals(parts[3]?.bytes ?? Buffer.alloc(0))).toBe(
      true,
    );
  });

  it('refuses a changed header, a file cut short and a part name with a folder', async () => {
    const changed = path.join(workDir, 'changed.tar');
    const bytes = fs.readFileSync(archive);
    bytes[0] = 'X'.charCodeAt(0); // the first header's name: its checksum no longer matches
    fs.writeFileSync(changed, bytes);
    await expect(listArchive(changed)).rejects.toThrow(ArchiveFormatError);
    const cut = path.join(workDir, 'cut.tar');
    fs.writeFileSync(cut, fs.readFileSync(archive).subarray(0, 2048));
    await expect(listArchive(cut)).rejects.toThrow(/cut short|ends before/);
    await expect(
      writeArchive(path.join(workDir, 'bad.tar'), [{ name: 'a/b', file: parts[0]?.file ?? '' }]),
    ).rejects.toThrow('Bad archive part name');
  });
});
