import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, type SignedIn, signIn } from '../../test/test-app.ts';
import { describeWithDatabase } from '../../test/test-database.ts';
import type { App } from '../http/types.ts';

const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

function multipart(fieldName: string, fileName: string, contentType: string, bytes: Buffer) {
  const boundary = '----cdms-test-boundary';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${fieldName}"; filename="${fileName}"\r\nContent-Type: ${contentType}\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describeWithDatabase(
  'notices API',
  (database) => {
    let app: App;
    let studyId: number;
    let otherStudyId: number;
    const session: Record<string, SignedIn> = {};
    const as = (who: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
      app.inject({
        method,
        url,
        headers: { ...(session[who]?.headers ?? {}), 'accept-language': 'en' },
        ...(payload ? { payload } : {}),
      });

    beforeAll(async () => {
      app = await buildTestApp(database());
      await app.ready();
      for (const who of ['admin', 'pi', 'cra', 'dm', 'crc'])
        session[who] = await signIn(app, `${who}@demo.cdms`);
      studyId = (
        await database()
          .db.selectFrom('studies')
          .select('id')
          .where('code', '=', 'TMP-2026')
          .executeTakeFirstOrThrow()
      ).id;
      otherStudyId = (
        await database()
          .db.selectFrom('studies')
          .select('id')
          .where('code', '=', 'OME-2024')
          .executeTakeFirstOrThrow()
      ).id;
    });
    afterAll(async () => {
      await app.close();
    });

    it('lets CRA, DM and ADMIN write notices, and not PI or CRC', async () => {
      const body = { title: '모니터링 방문 안내', contentHtml: '<p>다음 주 방문합니다.</p>' };
      expect((await as('cra', 'POST', `/api/studies/${studyId}/notices`, body)).statusCode).toBe(201);
      expect((await as('dm', 'POST', `/api/studies/${studyId}/notices`, body)).statusCode).toBe(201);
      expect((await as('admin', 'POST', `/api/studies/${studyId}/notices`, body)).statusCode).toBe(201);
      expect((await as('pi', 'POST', `/api/studies/${studyId}/notices`, body)).statusCode).toBe(403);
      expect((await as('crc', 'POST', `/api/studies/${studyId}/notices`, body)).statusCode).toBe(403);
      expect(
        (await as('cra', 'POST', `/api/studies/${studyId}/notices`, { ...body, scope: 'global' })).statusCode,
      ).toBe(403);
    });

    it('stores sanitized HTML only', async () => {
      const created = await as('cra', 'POST', `/api/studies/${studyId}/notices`, {
        title: 'XSS',
        contentHtml:
          '<p><strong>굵게</strong><img src="/api/uploads/images/0b5e7a4e-7f6c-4c3e-9f1d-0a1b2c3d4e5f" onerror="alert(1)"><script>alert(2)</script><a href="javascript:alert(3)">x</a></p>',
      });
      expect(created.statusCode).toBe(201);
      const detail = (await as('pi', 'GET', `/api/studies/${studyId}/notices/${created.json().id}`)).json();
      expect(detail.contentHtml).toBe(
        '<p><strong>굵게</strong><img src="/api/uploads/images/0b5e7a4e-7f6c-4c3e-9f1d-0a1b2c3d4e5f" /><a target="_blank" rel="noopener noreferrer">x</a></p>',
      );
      const empty = await as('cra', 'POST', `/api/studies/${studyId}/notices`, {
        title: 'x',
        contentHtml: '<p><script>only</script></p>',
      });
      expect(empty.statusCode).toBe(422);
      expect(empty.json().error.code).toBe('content_required');
      const blankTitle = await as('cra', 'POST', `/api/studies/${studyId}/notices`, {
        title: '   ',
        contentHtml: '<p>x</p>',
      });
      expect(blankTitle.statusCode).toBe(400);
    });

    it('lists pinned first, then newest, with numbers, total and page bounds', async () => {
      const pinned = await as('dm', 'POST', `/api/studies/${studyId}/notices`, {
        title: '중요: 프로토콜 개정',
        contentHtml: '<p>v2.0</p>',
        pinned: true,
      });
      const list = (await as('pi', 'GET', `/api/studies/${studyId}/notices?size=10&page=1`)).json();
      expect(list.notices[0]).toMatchObject({ id: pinned.json().id, pinned: true, writer: '정데이' });
      expect(list.total).toBe(5);
      expect(list.notices.map((n: { no: number }) => n.no)).toEqual([5, 4, 3, 2, 1]);
      expect(list.canWrite).toBe(false);
      const beyond = (await as('pi', 'GET', `/api/studies/${studyId}/notices?page=9`)).json();
      expect(beyond.notices).toEqual([]);
      for (const query of [
        'page=0',
        'page=-1',
        'page=abc',
        'size=15',
        'size=0',
        'range=12',
        'start=2026-13-45x',
      ]) {
        expect((await as('pi', 'GET', `/api/studies/${studyId}/notices?${query}`)).statusCode, query).toBe(
          400,
        );
      }
    });

    it('filters by search text and by date range (UTC+9 days)', async () => {
      const search = (
        await as('pi', 'GET', `/api/studies/${studyId}/notices?search=${encodeURIComponent('프로토콜')}`)
      ).json();
      expect(search.notices.map((n: { title: string }) => n.title)).toEqual(['중요: 프로토콜 개정']);
      const today = new Date(Date.now() + 9 * 3600_000).toISOString().slice(0, 10);
      expect(
        (await as('pi', 'GET', `/api/studies/${studyId}/notices?start=${today}&end=${today}`)).json().total,
      ).toBe(5);
      expect(
        (await as('pi', 'GET', `/api/studies/${studyId}/notices?start=2020-01-01&end=2020-12-31`)).json()
          .total,
      ).toBe(0);
      expect((await as('pi', 'GET', `/api/studies/${studyId}/notices?range=3`)).json().total).toBe(5);
      expect(
        (await as('pi', 'GET', `/api/studies/${studyId}/notices?start=2026-05-01&end=2026-01-01`)).statusCode,
      ).toBe(400);
    });

    it('hides hidden notices from readers, shows them to writers, and deletes softly with an audit record', async () => {
      const notice = (
        await as('cra', 'POST', `/api/studies/${studyId}/notices`, {
          title: '숨김 공지',
          contentHtml: '<p>x</p>',
        })
      ).json();
      expect(
        (await as('cra', 'PUT', `/api/studies/${studyId}/notices/${notice.id}`, { visible: false })).json()
          .visible,
      ).toBe(false);
      expect((await as('pi', 'GET', `/api/studies/${studyId}/notices/${notice.id}`)).statusCode).toBe(404);
      expect(
        (await as('pi', 'GET', `/api/studies/${studyId}/notices`))
          .json()
          .notices.some((n: { id: number }) => n.id === notice.id),
      ).toBe(false);
      expect(
        (await as('dm', 'GET', `/api/studies/${studyId}/notices`))
          .json()
          .notices.some((n: { id: number }) => n.id === notice.id),
      ).toBe(true);
      expect((await as('pi', 'DELETE', `/api/studies/${studyId}/notices/${notice.id}`)).statusCode).toBe(404);
      expect((await as('cra', 'DELETE', `/api/studies/${studyId}/notices/${notice.id}`)).statusCode).toBe(
        204,
      );
      expect((await as('dm', 'GET', `/api/studies/${studyId}/notices/${notice.id}`)).statusCode).toBe(404);
      const row = await database()
        .db.selectFrom('notices')
        .select('deleted_at')
        .where('id', '=', notice.id)
        .executeTakeFirstOrThrow();
      expect(row.deleted_at).not.toBeNull();
      const types = (
        await database()
          .db.selectFrom('audit_events')
          .select('event_type')
          .where('entity_type', '=', 'notice')
          .execute()
      ).map((r) => r.event_type);
      expect(types).toEqual(expect.arrayContaining(['notice.created', 'notice.updated', 'notice.deleted']));
    });

    it('shows global notices in every study, writable only by system administrators', async () => {
      const global = await as('admin', 'POST', `/api/studies/${studyId}/notices`, {
        title: '시스템 점검',
        contentHtml: '<p>토요일 02:00</p>',
        scope: 'global',
      });
      expect(global.statusCode).toBe(201);
      const elsewhere = (await as('pi', 'GET', `/api/studies/${otherStudyId}/notices`)).json();
      expect(
        elsewhere.notices.map((n: { title: string; global: boolean }) => [n.title, n.global]),
      ).toContainEqual(['시스템 점검', true]);
      expect(
        (await as('cra', 'PUT', `/api/studies/${studyId}/notices/${global.json().id}`, { title: 'x' }))
          .statusCode,
      ).toBe(403);
    });

    it('answers 404 for a study the user is not in and for unknown notices', async () => {
      expect((await as('pi', 'GET', `/api/studies/424242/notices`)).statusCode).toBe(404);
      expect((await as('pi', 'GET', `/api/studies/${studyId}/notices/424242`)).statusCode).toBe(404);
    });

    it('accepts an image by its bytes and refuses anything else', async () => {
      const png = multipart('upload', 'pixel.png', 'image/png', PNG_1X1);
      const uploaded = await app.inject({
        method: 'POST',
        url: '/api/uploads/images',
        payload: png.payload,
        headers: { ...png.headers, ...session.cra?.headers },
      });
      expect(uploaded.statusCode).toBe(201);
      const { imageUrl } = uploaded.json();
      expect(imageUrl).toMatch(/^\/api\/uploads\/images\/[0-9a-f-]{36}$/);
      const served = await app.inject({
        method: 'GET',
        url: imageUrl,
        headers: { cookie: session.pi?.cookie ?? '' },
      });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/png');
      expect(served.rawPayload.equals(PNG_1X1)).toBe(true);

      const fake = multipart('upload', 'evil.png', 'image/png', Buffer.from('<svg onload="alert(1)"></svg>'));
      const refused = await app.inject({
        method: 'POST',
        url: '/api/uploads/images',
        payload: fake.payload,
        headers: { ...fake.headers, ...session.cra?.headers },
      });
      expect(refused.statusCode).toBe(415);
      expect(refused.json().error.code).toBe('image_type_not_allowed');
      const wrongField = multipart('file', 'pixel.png', 'image/png', PNG_1X1);
      expect(
        (
          await app.inject({
            method: 'POST',
            url: '/api/uploads/images',
            payload: wrongField.payload,
            headers: { ...wrongField.headers, ...session.cra?.headers },
          })
        ).statusCode,
      ).toBe(400);
      const big = multipart(
        'upload',
        'big.png',
        'image/png',
        Buffer.concat([PNG_1X1, Buffer.alloc(6 * 1024 * 1024)]),
      );
      expect(
        (
          await app.inject({
            method: 'POST',
            url: '/api/uploads/images',
            payload: big.payload,
            headers: { ...big.headers, ...session.cra?.headers },
          })
        ).statusCode,
      ).toBe(413);
      const byPi = multipart('upload', 'pixel.png', 'image/png', PNG_1X1);
      expect(
        (
          await app.inject({
            method: 'POST',
            url: '/api/uploads/images',
            payload: byPi.payload,
            headers: { ...byPi.headers, ...session.pi?.headers },
          })
        ).statusCode,
      ).toBe(403);
      expect(
        (
          await app.inject({
            method: 'POST',
            url: '/api/uploads/images',
            payload: { a: 1 },
            headers: session.cra?.headers ?? {},
          })
        ).statusCode,
      ).toBe(415);
    });
  },
  { seed: 'demo' },
);
