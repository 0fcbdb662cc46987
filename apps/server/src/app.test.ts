import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { buildTestApp } from '../test/test-app.ts';
import { describeWithDatabase } from '../test/test-database.ts';
import type { App } from './http/types.ts';
import { productVersion } from './version.ts';

interface OpenApiAnswer {
  description?: string;
  content?: Record<string, { schema?: { $ref?: string } }>;
}

const largeScript = 'export const message = "불러오는 중…";\n'.repeat(500);

describeWithDatabase('HTTP app', (database) => {
  let app: App;
  let webDist: string;

  beforeAll(async () => {
    // A stand-in web build: an index page, one small hashed asset, and one large one with the
    // brotli and gzip copies the web build writes beside it.
    webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'cdms-web-'));
    fs.mkdirSync(path.join(webDist, 'assets'));
    fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><div id="root"></div>');
    fs.writeFileSync(path.join(webDist, 'assets', 'app-abc123.js'), 'console.log(1)');
    fs.writeFileSync(path.join(webDist, 'assets', 'main-def456.js'), largeScript);
    fs.writeFileSync(path.join(webDist, 'assets', 'main-def456.js.br'), zlib.brotliCompressSync(largeScript));
    fs.writeFileSync(path.join(webDist, 'assets', 'main-def456.js.gz'), zlib.gzipSync(largeScript));
    app = await buildTestApp(database(), { WEB_DIST_DIR: webDist });
    // A route that exists only here, to exercise body validation and error shapes.
    app.post(
      '/api/test/echo',
      { config: { access: 'public' }, schema: { body: z.strictObject({ count: z.number().int().min(1) }) } },
      async (request) => ({ count: request.body.count }),
    );
    app.get('/api/test/explode', { config: { access: 'public' } }, async () => {
      throw new Error('boom');
    });
    app.get('/api/test/large', { config: { access: 'public' } }, async () => ({
      items: Array.from({ length: 200 }, (_, index) => `item ${index}`),
    }));
    await app.ready();
  });

  afterAll(async () => {
    await app.close();
    fs.rmSync(webDist, { recursive: true, force: true });
  });

  it('answers GET /api/health with the database kind and version', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', database: database().kind, version: productVersion });
  });

  it('answers an unknown /api path with the 404 error shape, in the requested language', async () => {
    const korean = await app.inject({ method: 'GET', url: '/api/no-such-thing' });
    expect(korean.statusCode).toBe(404);
    expect(korean.headers['content-type']).toContain('application/json');
    expect(korean.json()).toEqual({
      error: { code: 'route_not_found', message: 'API 경로를 찾을 수 없습니다: GET /api/no-such-thing' },
    });
    const english = await app.inject({
      method: 'DELETE',
      url: '/api/no-such-thing?x=1',
      headers: { 'accept-language': 'en-US,en;q=0.9' },
    });
    expect(english.json()).toEqual({
      error: { code: 'route_not_found', message: 'No API route matches DELETE /api/no-such-thing.' },
    });
  });

  it('serves index.html for any non-API path that is not a file (SPA fallback)', async () => {
    for (const url of ['/', '/task-list', '/dashboard/1?type=PI', '/no/such/page']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.body).toContain('<div id="root">');
    }
  });

  it('serves built files, hashed assets with a long cache lifetime', async () => {
    const response = await app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('console.log(1)');
    expect(response.headers['cache-control']).toContain('immutable');
  });

  it('sends the precompressed copy the client accepts: br, then gzip, then the file itself', async () => {
    const url = '/assets/main-def456.js';
    const br = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(largeScript);

    const gzip = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe(largeScript);

    const plain = await app.inject({ method: 'GET', url });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(plain.headers.vary).toContain('accept-encoding');
    expect(plain.body).toBe(largeScript);

    // A file without copies goes out as it is, whatever the client accepts.
    const small = await app.inject({
      method: 'GET',
      url: '/assets/app-abc123.js',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.body).toBe('console.log(1)');
  });

  it('does not serve the compressed copies as files of their own', async () => {
    const response = await app.inject({ method: 'GET', url: '/assets/main-def456.js.br' });
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.headers['content-type']).toContain('text/html');
  });

  it('has index.html checked with the server on every load', async () => {
    for (const url of ['/', '/index.html', '/dashboard/1']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.headers['cache-control'], url).toBe('no-cache');
    }
  });

  it('compresses API answers of 1 KB and more, keeping the error shape', async () => {
    const large = await app.inject({
      method: 'GET',
      url: '/api/test/large',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(large.headers['content-encoding']).toBe('br');
    expect(large.headers.vary).toContain('accept-encoding');
    expect(JSON.parse(zlib.brotliDecompressSync(large.rawPayload).toString()).items).toHaveLength(200);

    const gzip = await app.inject({
      method: 'GET',
      url: '/api/test/large',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gzip.headers['content-encoding']).toBe('gzip');

    // Below the threshold, and without Accept-Encoding, the answer is sent as it is.
    const small = await app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'accept-encoding': 'br' },
    });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json().status).toBe('ok');
    const plain = await app.inject({ method: 'GET', url: '/api/test/large' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.json().items).toHaveLength(200);

    const error = await app.inject({
      method: 'GET',
      url: '/api/no-such-thing',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(error.statusCode).toBe(404);
    const body =
      error.headers['content-encoding'] === 'br'
        ? zlib.brotliDecompressSync(error.rawPayload)
        : error.rawPayload;
    expect(JSON.parse(body.toString()).error.code).toBe('route_not_found');
  });

  it('sends security headers', async () => {
    const response = await app.inject({ method: 'GET', url: '/' });
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
  });

  it('publishes a valid OpenAPI 3 document generated from the route schemas', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toMatch(/^3\./);
    expect(document.paths['/api/health'].get.responses['200']).toBeDefined();
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    const page = await app.inject({ method: 'GET', url: '/api/docs' });
    expect([200, 302]).toContain(page.statusCode);
  });

  // Issue 43 item 15. Which refusals each route lists is checked against what the fuzz suite and the
  // authorization matrix see; here, that every operation has a success and refusals in the one shape.
  it('documents every operation with its success and its refusals in the one error schema', async () => {
    const document = (await app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, Record<string, { responses: Record<string, OpenApiAnswer> }>>;
      components: { schemas: Record<string, unknown> };
    };
    expect(Object.keys(document.components.schemas)).toEqual(['Error']);
    const problems: string[] = [];
    for (const [path, operations] of Object.entries(document.paths)) {
      if (path.startsWith('/api/test/')) continue;
      for (const [method, { responses }] of Object.entries(operations)) {
        const statuses = Object.keys(responses);
        if (!statuses.some((status) => status.startsWith('2')))
          problems.push(`${method} ${path}: no 2xx answer`);
        if (!statuses.includes('400')) problems.push(`${method} ${path}: no 400`);
        for (const status of statuses.filter((status) => !status.startsWith('2'))) {
          const answer = responses[status] as OpenApiAnswer;
          if (answer.content?.['application/json']?.schema?.$ref !== '#/components/schemas/Error')
            problems.push(`${method} ${path} ${status}: not the Error schema`);
          if (!answer.description || answer.description === 'Default Response')
            problems.push(`${method} ${path} ${status}: no description`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('answers malformed input with 4xx JSON, never 500', async () => {
    const cases = [
      { payload: '{"count": ', contentType: 'application/json', status: 400, code: 'malformed_body' },
      { payload: '', contentType: 'application/json', status: 400, code: 'malformed_body' },
      {
        payload: '{"count": "three"}',
        contentType: 'application/json',
        status: 400,
        code: 'validation_failed',
      },
      { payload: '{"count": 0}', contentType: 'application/json', status: 400, code: 'validation_failed' },
      {
        payload: 'count=1',
        contentType: 'application/x-www-form-urlencoded',
        status: 415,
        code: 'unsupported_media_type',
      },
      {
        payload: `{"count": 1, "pad": "${'x'.repeat(1_100_000)}"}`,
        contentType: 'application/json',
        status: 413,
        code: 'payload_too_large',
      },
    ];
    for (const testCase of cases) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/test/echo',
        payload: testCase.payload,
        headers: { 'content-type': testCase.contentType, 'accept-language': 'en' },
      });
      expect(response.statusCode, testCase.payload.slice(0, 30)).toBe(testCase.status);
      const body = response.json();
      expect(body.error.code).toBe(testCase.code);
      expect(typeof body.error.message).toBe('string');
    }
    const ok = await app.inject({ method: 'POST', url: '/api/test/echo', payload: { count: 3 } });
    expect(ok.json()).toEqual({ count: 3 });
  });

  it('hides the details of an unexpected failure behind a 500 with the same error shape', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/test/explode' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      error: { code: 'internal_error', message: '서버에서 오류가 발생했습니다. 관리자에게 문의하세요.' },
    });
  });
});
