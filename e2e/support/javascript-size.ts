import zlib from 'node:zlib';

/**
 * The most JavaScript the landing page may load before it is usable, counted as gzip at level 9 of
 * every script it requests (what a browser that accepts only gzip downloads). Held by
 * tests/first-load.spec.ts on every run and by `npm run lighthouse`.
 */
export const LANDING_JS_BUDGET_GZIP_BYTES = 150_000;

/** Bytes of `body` compressed with gzip at level 9 (the level of the build's .gz files). */
export function gzipBytes(body: Uint8Array): number {
  return zlib.gzipSync(body, { level: 9 }).length;
}

export function kilobytes(bytes: number): string {
  return `${(bytes / 1000).toFixed(1)} kB`;
}
