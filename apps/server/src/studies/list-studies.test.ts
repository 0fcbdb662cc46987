import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, signIn } from '../../test/test-app.ts';
import { describeWithDatabase } from '../../test/test-database.ts';
import type { App } from '../http/types.ts';

describeWithDatabase(
  'study lists',
  (database) => {
    let app: App;
    beforeAll(async () => {
      app = await buildTestApp(database());
      await app.ready();
    });
    afterAll(async () => {
      await app.close();
    });

    it('lists the active and the ended studies the user is a member of, with the approaches they hold', async () => {
      const pi = await signIn(app, 'pi@demo.cdms');
      const active = (
        await app.inject({ method: 'GET', url: '/api/studies', headers: { cookie: pi.cookie } })
      ).json();
      expect(active.studies.map((s: { code: string }) => s.code)).toEqual(['TMP-2026']);
      expect(active.studies[0]).toMatchObject({
        status: 'active',
        registeredOn: '2026-03-02',
        approaches: ['PI'],
        roles: ['PI'],
      });
      const ended = (
        await app.inject({ method: 'GET', url: '/api/studies?status=ended', headers: { cookie: pi.cookie } })
      ).json();
      expect(ended.studies.map((s: { code: string }) => s.code)).toEqual(['OME-2024']);
      const cra = await signIn(app, 'cra@demo.cdms');
      const craList = (
        await app.inject({ method: 'GET', url: '/api/studies', headers: { cookie: cra.cookie } })
      ).json();
      expect(craList.studies[0].approaches).toEqual(['CRA']);
    });

    it('filters by search text (title, content or code), safely', async () => {
      const dm = await signIn(app, 'dm@demo.cdms');
      const search = async (text: string, status = 'active') =>
        (
          await app.inject({
            method: 'GET',
            url: `/api/studies?status=${status}&search=${encodeURIComponent(text)}`,
            headers: { cookie: dm.cookie },
          })
        ).json().studies.length;
      expect(await search('고막')).toBe(1);
      expect(await search('TMP')).toBe(1);
      expect(await search('없는 연구')).toBe(0);
      expect(await search('%%')).toBe(0);
      expect(await search('환기관', 'ended')).toBe(1);
      expect(
        (
          await app.inject({
            method: 'GET',
            url: '/api/studies?status=archived',
            headers: { cookie: dm.cookie },
          })
        ).statusCode,
      ).toBe(400);
    });

    it('remembers the studies a user opened, newest first, for that user only', async () => {
      const crc = await signIn(app, 'crc@demo.cdms');
      const studies = (
        await app.inject({ method: 'GET', url: '/api/studies?status=ended', headers: { cookie: crc.cookie } })
      ).json().studies;
      const active = (
        await app.inject({ method: 'GET', url: '/api/studies', headers: { cookie: crc.cookie } })
      ).json().studies;
      expect(
        (
          await app.inject({ method: 'GET', url: '/api/studies/recent', headers: { cookie: crc.cookie } })
        ).json().studies,
      ).toEqual([]);
      await app.inject({ method: 'POST', url: `/api/studies/${active[0].id}/views`, headers: crc.headers });
      await app.inject({ method: 'POST', url: `/api/studies/${studies[0].id}/views`, headers: crc.headers });
      const recent = (
        await app.inject({ method: 'GET', url: '/api/studies/recent', headers: { cookie: crc.cookie } })
      ).json().studies;
      expect(recent.map((s: { code: string }) => s.code)).toEqual(['OME-2024', 'TMP-2026']);
      const si = await signIn(app, 'si@demo.cdms');
      expect(
        (
          await app.inject({ method: 'GET', url: '/api/studies/recent', headers: { cookie: si.cookie } })
        ).json().studies,
      ).toEqual([]);
      expect(
        (await app.inject({ method: 'POST', url: '/api/studies/424242/views', headers: crc.headers }))
          .statusCode,
      ).toBe(404);
    });
  },
  { seed: 'demo' },
);
