import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { PRECOMPRESS_MIN_BYTES, precompressDirectory } from './precompress.ts';

let dir = '';
afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('precompressDirectory', () => {
  it('writes brotli and gzip copies beside large text files only', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'precompress-'));
    fs.mkdirSync(path.join(dir, 'assets'));
    const script = 'export const greeting = "안녕하세요";\n'.repeat(200);
    fs.writeFileSync(path.join(dir, 'assets', 'main-abc123.js'), script);
    fs.writeFileSync(path.join(dir, 'small.css'), 'a{color:red}');
    fs.writeFileSync(path.join(dir, 'photo.png'), Buffer.alloc(PRECOMPRESS_MIN_BYTES * 4));

    const results = await precompressDirectory(dir);

    expect(results.map((result) => result.file)).toEqual([path.join('assets', 'main-abc123.js')]);
    const br = fs.readFileSync(path.join(dir, 'assets', 'main-abc123.js.br'));
    const gz = fs.readFileSync(path.join(dir, 'assets', 'main-abc123.js.gz'));
    expect(zlib.brotliDecompressSync(br).toString()).toBe(script);
    expect(zlib.gunzipSync(gz).toString()).toBe(script);
    expect(br.length).toBeLessThan(Buffer.byteLength(script));
    expect(fs.existsSync(path.join(dir, 'small.css.br'))).toBe(false);
    expect(fs.existsSync(path.join(dir, 'photo.png.gz'))).toBe(false);
  });
});
