import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/database.ts';
import type { App } from '../../src/http/types.ts';
import { buildTestApp, type SignedIn, seedDemo, signIn } from '../test-app.ts';
import { createTestDatabase } from '../test-database.ts';

/**
 * First step of the issue-11 fuzz suite: every operation of the OpenAPI document, as anonymous and as
 * admin, with a fixed list of malformed inputs (non-canonical ids, NUL, lone surrogates, wrong types,
 * bad percent-encoding). Each answer must not be a 5xx and a 4xx must be in the one error shape.
 * Not yet: fast-check arbitraries from the schemas, every role, the database fingerprint, 10,000 requests.
 */
const badIds = ['0x13', '1.6e1', '16.0', '%2016', '2147483648', '-1', '0', '%00', '%E0%A4%A', '%ED%A0%80'];
const badBodies: unknown[] = [
  {},
  { unknownKey: 1 },
  { id: '\u0000' },
  { name: '\ud800', email: '\ud800@x.test', password: 'x' },
  { siteId: 2147483648, userId: 2147483648 },
  { consentDate: '2026-02-30' },
  [],
  'x'.repeat(70_000),
];

let database: DatabaseHandle;
let app: App;
let admin: SignedIn;

beforeAll(async () => {
  database = await createTestDatabase('pglite');
  app = await buildTestApp(database);
  await seedDemo(database.db);
  await app.ready();
  admin = await signIn(app, 'admin@demo.cdms');
}, 120_000);

afterAll(async () => {
  await app?.close();
  await database?.close();
});

it('answers every malformed request with a 4xx in the error shape, never a 5xx', async () => {
  const document = app.swagger() as { paths: Record<string, Record<string, unknown>> };
  const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.keys(methods).map((method) => ({ method: method.toUpperCase(), path })),
  );
  expect(operations.length).toBeGreaterThan(0);
  const failures: string[] = [];
  let requests = 0;
  for (const { method, path } of operations) {
    for (const headers of [{}, admin.headers]) {
      for (const id of badIds) {
        const url = path.replace(/\{[^}]+\}/g, id);
        for (const body of method === 'GET' ? [undefined] : badBodies) {
          const response = await app.inject({
            method: method as 'GET',
            url,
            headers,
            payload: body as string,
          });
          requests++;
          const described = `${method} ${url} headers=${JSON.stringify(headers)} body=${JSON.stringify(body)?.slice(0, 200)}`;
          if (response.statusCode >= 500)
            failures.push(`${response.statusCode} ${described} → ${response.body}`);
          else if (response.statusCode >= 400) {
            const parsed = safeJson(response.body) as
              | { error?: { code?: unknown; message?: unknown } }
              | undefined;
            if (typeof parsed?.error?.code !== 'string' || typeof parsed.error.message !== 'string')
              failures.push(
                `bad error shape ${response.statusCode} ${described} → ${response.body.slice(0, 200)}`,
              );
          }
        }
      }
    }
  }
  console.log(`fuzz: ${requests} requests over ${operations.length} operations, ${failures.length} failures`);
  // One line per distinct failure (status, operation, error code) so the summary stays readable.
  const distinct = new Map<string, string>();
  for (const failure of failures) {
    const key = failure
      .replace(/\/api\/\S*/, '')
      .replace(/headers=.*→/, '→')
      .slice(0, 120);
    if (!distinct.has(key)) distinct.set(key, failure.slice(0, 400));
  }
  console.log([...distinct.values()].join('\n'));
  expect(failures.slice(0, 20)).toEqual([]);
}, 300_000);

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
