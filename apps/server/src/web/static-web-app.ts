import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { sendError } from '../http/errors.ts';

/** The precompressed copies the web build writes beside its files (apps/web/build-tools/precompress.ts). */
const PRECOMPRESSED_COPY = /\.(?:br|gz)$/;

/**
 * Serves the built web app and the single-page-app fallback: a path outside /api that is not a
 * file gets index.html, and the client-side router decides (unknown pages go to /404 there).
 * An unknown /api path gets the API's 404 error instead.
 *
 * Files were compressed at build time: the brotli or gzip copy is sent as the Accept-Encoding header
 * allows (br, then gzip, then the file itself), with `Vary: Accept-Encoding` and the original's
 * Content-Type. Nothing here is compressed per request (app.ts keeps on-the-fly compression to the
 * API).
 */
export async function registerWebApp(app: FastifyInstance, webDistDir: string): Promise<void> {
  const indexFile = path.join(webDistDir, 'index.html');
  const hasBuild = fs.existsSync(indexFile);
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: webDistDir,
      // One route per file found at start (not a wildcard), so that every unknown path reaches
      // the fallback below.
      wildcard: false,
      index: false,
      preCompressed: true,
      // The copies are alternate encodings of their originals, never pages of their own: no route
      // is made for them (a request for one reaches the fallback below directly), and were one
      // reached anyway, it is refused.
      globIgnore: ['**/*.br', '**/*.gz'],
      allowedPath: (pathname) => !PRECOMPRESSED_COPY.test(pathname),
      setHeaders: (reply, filePath) => {
        // Vite puts a content hash in every asset name, so assets may be cached for good. Every
        // other file (index.html names the current assets) is checked with the server each time.
        reply.header(
          'cache-control',
          filePath.includes(`${path.sep}assets${path.sep}`)
            ? 'public, max-age=31536000, immutable'
            : 'no-cache',
        );
      },
    });
  } else {
    app.log.warn(`No web build at ${webDistDir}; run "npm run build" to serve the web app.`);
  }

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    if (pathname === '/api' || pathname.startsWith('/api/')) {
      return sendError(request, reply, 404, 'route_not_found', { method: request.method, path: pathname });
    }
    if (!hasBuild || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return sendError(request, reply, 404, 'not_found');
    }
    return reply.sendFile('index.html');
  });
}
