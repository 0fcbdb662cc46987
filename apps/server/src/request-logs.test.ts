import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp } from '../test/test-app.ts';
import { describeWithDatabase } from '../test/test-database.ts';
import { serverLoggerOptions } from './app.ts';
import type { App } from './http/types.ts';

/** Issue 52: JSON log lines, each of a request with its id, none with a secret or a query's text. */
describeWithDatabase(
  'request logs',
  (database) => {
    let app: App;
    const lines: string[] = [];

    beforeAll(async () => {
      app = await buildTestApp(
        database(),
        {},
        {
          notificationWorker: false,
          exportRunner: false,
          logger: { ...serverLoggerOptions('info'), stream: { write: (line: string) => lines.push(line) } },
        },
      );
      await app.ready();
    });

    afterAll(async () => {
      await app.close();
    });

    it('puts the request id on every line of a request and no credential or query text on any', async () => {
      lines.length = 0;
      await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'someone.private@hospital.kr', password: 'Secret-Password-42' },
      });
      await app.inject({
        method: 'GET',
        url: '/api/studies/7/subjects?search=HongGildong',
        headers: { cookie: 'cdms_session=session-secret-value', authorization: 'Bearer bearer-secret-value' },
      });
      const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(records.length).toBeGreaterThanOrEqual(4);
      for (const record of records) expect(record.reqId).toEqual(expect.stringMatching(/^[0-9a-f-]{36}$/));
      const incoming = records.find((record) => record.msg === 'incoming request' && record.req);
      expect(incoming?.req).toMatchObject({
        method: 'POST',
        route: '/api/auth/login',
        path: '/api/auth/login',
      });
      const text = lines.join('\n');
      for (const secret of [
        'Secret-Password-42',
        'someone.private',
        'session-secret-value',
        'bearer-secret-value',
        'HongGildong',
      ])
        expect(text).not.toContain(secret);
      expect(text).toContain('/api/studies/:studyId/subjects');
    });

    it('does not log every probe and scrape', async () => {
      lines.length = 0;
      for (const url of ['/health/live', '/health/ready', '/metrics'])
        await app.inject({ method: 'GET', url });
      expect(lines).toEqual([]);
    });
  },
  { seed: 'demo' },
);
