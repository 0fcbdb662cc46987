import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { sendError } from '../http/errors.ts';

/**
 * Serves the built web app and the single-page-app fallback: a path outside /api that is not a
 * file gets index.html, and the client-side router decides (unknown pages go to /404 there).
 * An unknown /api path gets the API's 404 error instead.
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
      // Vite puts a content hash in every asset name, so assets may be cached for good.
      setHeaders: (res, filePath) => {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          res.header('cache-control', 'public, max-age=31536000, immutable');
        }
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
    // index.html must never be cached: it names the current asset files.
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}
