import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Text files worth compressing; images and fonts are compressed formats already. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|xml|webmanifest)$/;

/**
 * Below this a compressed copy saves less than a packet: the server sends the file as it is
 * (the same threshold as the API's on-the-fly compression in apps/server/src/app.ts).
 */
export const PRECOMPRESS_MIN_BYTES = 1024;

export interface PrecompressedFile {
  file: string;
  bytes: number;
  br: number | null;
  gzip: number | null;
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

/**
 * Writes `name.br` (brotli, quality 11) and `name.gz` (gzip, level 9) beside every compressible
 * file of `dir` of at least PRECOMPRESS_MIN_BYTES, so the server sends compressed bytes without
 * compressing per request (@fastify/static `preCompressed`). A variant no smaller than the file is
 * not written.
 */
export async function precompressDirectory(dir: string): Promise<PrecompressedFile[]> {
  const files = (await filesUnder(dir)).filter((file) => COMPRESSIBLE.test(file)).sort();
  const results: PrecompressedFile[] = [];
  for (const file of files) {
    const content = await fs.readFile(file);
    if (content.length < PRECOMPRESS_MIN_BYTES) continue;
    const [br, gz] = await Promise.all([
      brotli(content, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
          [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: content.length,
        },
      }),
      gzip(content, { level: zlib.constants.Z_BEST_COMPRESSION }),
    ]);
    const written: PrecompressedFile = {
      file: path.relative(dir, file),
      bytes: content.length,
      br: null,
      gzip: null,
    };
    if (br.length < content.length) {
      await fs.writeFile(`${file}.br`, br);
      written.br = br.length;
    }
    if (gz.length < content.length) {
      await fs.writeFile(`${file}.gz`, gz);
      written.gzip = gz.length;
    }
    results.push(written);
  }
  return results;
}

/** Vite plugin: precompresses the finished build (public files included) once it is written. */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'cdms-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        const results = await precompressDirectory(outDir);
        const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;
        const sum = (pick: (result: PrecompressedFile) => number | null) =>
          results.reduce((total, result) => total + (pick(result) ?? result.bytes), 0);
        this.info(
          `precompressed ${results.length} files: ${kb(sum((r) => r.bytes))} → br ${kb(sum((r) => r.br))}, gzip ${kb(sum((r) => r.gzip))}`,
        );
      },
    },
  };
}
