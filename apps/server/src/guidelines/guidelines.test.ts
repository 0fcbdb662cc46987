import { zipSync } from 'fflate';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, demoStudyIds, type SignedIn, signIn } from '../../test/test-app.ts';
import { describeWithDatabase } from '../../test/test-database.ts';
import type { App } from '../http/types.ts';
import { sendDueTaskNotices } from '../task-notices/send-due-task-notices.ts';

const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const EXE = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200, 0x90)]);

function officeZip(mainType: string): Buffer {
  const enc = new TextEncoder();
  return Buffer.from(
    zipSync({
      '[Content_Types].xml': enc.encode(
        `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/main.xml" ContentType="${mainType}"/></Types>`,
      ),
      'main.xml': enc.encode('<x/>'),
    }),
  );
}
const DOCX = officeZip('application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml');
const XLSX = officeZip('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml');
const PLAIN_ZIP = Buffer.from(zipSync({ 'readme.txt': new TextEncoder().encode('hello') }));

function multipart(fieldName: string, fileName: string, bytes: Buffer) {
  const boundary = '----cdms-test-boundary';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${fieldName}"; filename="${fileName}"\r\nContent-Type: application/pdf\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describeWithDatabase(
  'guidelines, attachments and task notices',
  (database) => {
    let app: App;
    let studyId: number;
    let otherStudyId: number;
    let siteId: (institutionNumber: string) => number;
    const session: Record<string, SignedIn> = {};
    const as = (who: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
      app.inject({
        method,
        url,
        headers: { ...(session[who]?.headers ?? {}), 'accept-language': 'en' },
        ...(payload ? { payload } : {}),
      });
    const upload = (who: string, name: string, bytes: Buffer, study = studyId) => {
      const body = multipart('file', name, bytes);
      return app.inject({
        method: 'POST',
        url: `/api/studies/${study}/attachments`,
        payload: body.payload,
        headers: { ...body.headers, ...(session[who]?.headers ?? {}), 'accept-language': 'ko' },
      });
    };
    const guideline = (overrides: object = {}) => ({
      guideType: 'protocol',
      title: '임상시험계획서',
      contentHtml: '<p>계획서 본문</p>',
      version: '1.0',
      effectiveDate: '2026-11-01',
      ...overrides,
    });

    beforeAll(async () => {
      app = await buildTestApp(database());
      await app.ready();
      for (const who of ['admin', 'pi', 'si', 'cra', 'dm', 'crc', 'crc3'])
        session[who] = await signIn(app, `${who}@demo.cdms`);
      ({ studyId, siteId } = await demoStudyIds(database().db));
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

    it('accepts attachments by their bytes and refuses a disguised file, a plain ZIP and an empty one', async () => {
      const pdf = await upload('cra', '계획서 v1.0.pdf', PDF);
      expect(pdf.statusCode).toBe(201);
      expect(pdf.json()).toMatchObject({
        fileName: '계획서 v1.0.pdf',
        contentType: 'application/pdf',
        size: PDF.length,
      });
      expect(pdf.json().sha256).toMatch(/^[0-9a-f]{64}$/);
      expect((await upload('cra', 'manual.docx', DOCX)).json().contentType).toBe(
        'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      );
      expect((await upload('cra', 'ranges.xlsx', XLSX)).json().contentType).toBe(
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      );
      expect((await upload('cra', 'pixel.png', PNG_1X1)).json().contentType).toBe('image/png');
      // The name says PDF; the bytes decide.
      for (const [name, bytes] of [
        ['protocol.pdf', PNG_1X1],
        ['protocol.pdf', EXE],
        ['manual.docx', PLAIN_ZIP],
        ['empty.pdf', Buffer.alloc(0)],
      ] as const) {
        const refused = await upload('cra', name, bytes);
        if (name === 'protocol.pdf' && bytes === PNG_1X1) {
          // A PNG named .pdf is still an accepted type: stored as what it is.
          expect(refused.statusCode).toBe(201);
          expect(refused.json().contentType).toBe('image/png');
          continue;
        }
        expect(refused.statusCode).toBe(415);
        expect(refused.json().error.code).toBe('attachment_type_not_allowed');
        expect(refused.json().error.message).toContain('PDF');
      }
      const names = await upload('cra', '../../etc/pass<wd>.pdf', PDF);
      expect(names.json().fileName).toBe('passwd.pdf');
    });

    it('refuses a file over the size limit with 413 and lets only writers upload', async () => {
      const big = await upload('dm', 'big.pdf', Buffer.concat([PDF, Buffer.alloc(21 * 1024 * 1024)]));
      expect(big.statusCode).toBe(413);
      expect(big.json().error.code).toBe('attachment_too_large');
      const large = await upload('dm', 'large.pdf', Buffer.concat([PDF, Buffer.alloc(8 * 1024 * 1024)]));
      expect(large.statusCode).toBe(201);
      expect((await upload('crc', 'x.pdf', PDF)).statusCode).toBe(403);
      expect((await upload('pi', 'x.pdf', PDF)).statusCode).toBe(403);
      expect((await upload('cra', 'x.pdf', PDF, 424242)).statusCode).toBe(404);
    });

    it('keeps drafts from readers, publishes, refuses edits of a published one and revises it', async () => {
      const file = (await upload('cra', 'protocol.pdf', PDF)).json();
      const created = await as('cra', 'POST', `/api/studies/${studyId}/guidelines`, {
        ...guideline(),
        attachmentIds: [file.id],
        alarmStart: '2026-01-01',
        alarmEnd: '2099-12-31',
      });
      expect(created.statusCode).toBe(201);
      const draft = created.json();
      expect(draft).toMatchObject({ state: 'draft', version: '1.0', attachmentCount: 1, alarming: false });
      // The page's buttons are the server's list of what the reader may do now.
      expect(draft.actions).toEqual(['edit', 'publish', 'delete']);
      // Readers do not see drafts: not in the list, not by id, not their files.
      expect((await as('crc', 'GET', `/api/studies/${studyId}/guidelines`)).json().total).toBe(0);
      expect((await as('crc', 'GET', `/api/studies/${studyId}/guidelines/${draft.id}`)).statusCode).toBe(404);
      expect((await as('crc', 'GET', `/api/studies/${studyId}/attachments/${file.id}`)).statusCode).toBe(404);
      expect((await as('dm', 'GET', `/api/studies/${studyId}/guidelines`)).json().total).toBe(1);
      // A draft is edited freely.
      const edited = await as('dm', 'PUT', `/api/studies/${studyId}/guidelines/${draft.id}`, {
        title: '계획서 (개정)',
      });
      expect(edited.statusCode).toBe(200);
      expect(edited.json().title).toBe('계획서 (개정)');
      // Readers may not write.
      expect(
        (await as('crc', 'POST', `/api/studies/${studyId}/guidelines/${draft.id}/publish`)).statusCode,
      ).toBe(403);
      expect((await as('pi', 'POST', `/api/studies/${studyId}/guidelines`, guideline())).statusCode).toBe(
        403,
      );

      const published = await as('cra', 'POST', `/api/studies/${studyId}/guidelines/${draft.id}/publish`);
      expect(published.statusCode).toBe(200);
      expect(published.json()).toMatchObject({
        state: 'published',
        alarming: true,
        actions: ['revise', 'retire'],
      });
      expect(
        (await as('crc', 'GET', `/api/studies/${studyId}/guidelines/${draft.id}`)).json().actions,
      ).toEqual([]);
      const readerList = (await as('crc', 'GET', `/api/studies/${studyId}/guidelines`)).json();
      expect(readerList.total).toBe(1);
      expect(readerList.reminders).toEqual([{ id: draft.id, title: '계획서 (개정)', version: '1.0' }]);
      expect(readerList.canWrite).toBe(false);

      // Published: no edit in place, no second publish.
      const refused = await as('cra', 'PUT', `/api/studies/${studyId}/guidelines/${draft.id}`, {
        title: 'x',
      });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error.code).toBe('guideline_not_draft');
      expect(
        (await as('cra', 'POST', `/api/studies/${studyId}/guidelines/${draft.id}/publish`)).statusCode,
      ).toBe(409);

      // A new version: a draft copy with its own copy of the files; publishing it retires the old one.
      expect(
        (
          await as('cra', 'POST', `/api/studies/${studyId}/guidelines/${draft.id}/revisions`, {
            version: '1.0',
          })
        ).statusCode,
      ).toBe(409);
      const revised = await as('cra', 'POST', `/api/studies/${studyId}/guidelines/${draft.id}/revisions`, {
        version: '2.0',
      });
      expect(revised.statusCode).toBe(201);
      const second = revised.json();
      expect(second).toMatchObject({
        state: 'draft',
        version: '2.0',
        supersedesId: draft.id,
        attachmentCount: 1,
      });
      expect(second.attachments[0].id).not.toBe(file.id);
      expect(
        (
          await as('cra', 'POST', `/api/studies/${studyId}/guidelines/${draft.id}/revisions`, {
            version: '3.0',
          })
        ).json().error.code,
      ).toBe('guideline_draft_exists');
      // While the next version is drafted, the published one offers retiring only, and names the draft.
      expect((await as('cra', 'GET', `/api/studies/${studyId}/guidelines/${draft.id}`)).json()).toMatchObject(
        {
          actions: ['retire'],
          openDraftId: second.id,
        },
      );
      expect(
        (await as('crc', 'GET', `/api/studies/${studyId}/guidelines`)).json().guidelines[0].version,
      ).toBe('1.0');
      expect(
        (await as('dm', 'POST', `/api/studies/${studyId}/guidelines/${second.id}/publish`)).statusCode,
      ).toBe(200);
      const old = (await as('dm', 'GET', `/api/studies/${studyId}/guidelines/${draft.id}`)).json();
      expect(old).toMatchObject({ state: 'retired', actions: [], openDraftId: null });
      const afterList = (await as('crc', 'GET', `/api/studies/${studyId}/guidelines`)).json();
      expect(afterList.guidelines.map((row: { version: string }) => row.version)).toEqual(['2.0']);
      expect((await as('crc', 'GET', `/api/studies/${studyId}/guidelines/${draft.id}`)).statusCode).toBe(404);
      expect(
        (await as('dm', 'POST', `/api/studies/${studyId}/guidelines/${second.id}/retire`)).statusCode,
      ).toBe(200);
      expect(
        (await as('dm', 'POST', `/api/studies/${studyId}/guidelines/${second.id}/retire`)).statusCode,
      ).toBe(409);

      const events = await database()
        .db.selectFrom('audit_events')
        .select('event_type')
        .where('entity_type', '=', 'guideline')
        .orderBy('id')
        .execute();
      expect(events.map((event) => event.event_type)).toEqual([
        'guideline.created',
        'guideline.updated',
        'guideline.published',
        'guideline.revised',
        'guideline.published',
        'guideline.retired',
        'guideline.retired',
      ]);
    });

    it('lets members download a published guideline file, audited, and nobody else', async () => {
      const file = (await upload('dm', '작성지침.pdf', PDF)).json();
      const created = (
        await as('dm', 'POST', `/api/studies/${studyId}/guidelines`, {
          ...guideline({ guideType: 'crf_guideline', title: 'CRF 작성 지침' }),
          attachmentIds: [file.id],
        })
      ).json();
      // Someone else's unsaved upload cannot be claimed.
      const stranger = (await upload('cra', 'other.pdf', PDF)).json();
      const stolen = await as('dm', 'PUT', `/api/studies/${studyId}/guidelines/${created.id}`, {
        attachmentIds: [file.id, stranger.id],
      });
      expect(stolen.statusCode).toBe(422);
      expect(stolen.json().error.code).toBe('attachment_unknown');
      await as('dm', 'POST', `/api/studies/${studyId}/guidelines/${created.id}/publish`);
      const download = await as('crc', 'GET', `/api/studies/${studyId}/attachments/${file.id}`);
      expect(download.statusCode).toBe(200);
      expect(download.headers['content-type']).toBe('application/pdf');
      expect(String(download.headers['content-disposition'])).toContain(
        `filename*=UTF-8''${encodeURIComponent('작성지침.pdf')}`,
      );
      expect(download.rawPayload.equals(PDF)).toBe(true);
      expect((await as('pi', 'GET', `/api/studies/${studyId}/attachments/${file.id}`)).statusCode).toBe(200);
      // Not through another study, not for a signed-out client.
      expect((await as('crc', 'GET', `/api/studies/${otherStudyId}/attachments/${file.id}`)).statusCode).toBe(
        404,
      );
      expect(
        (await app.inject({ method: 'GET', url: `/api/studies/${studyId}/attachments/${file.id}` }))
          .statusCode,
      ).toBe(401);
      const audited = await database()
        .db.selectFrom('audit_events')
        .select(['actor_label'])
        .where('event_type', '=', 'attachment.downloaded')
        .where('entity_id', '=', file.id)
        .orderBy('id')
        .execute();
      expect(audited.map((row) => row.actor_label)).toEqual(['crc@demo.cdms', 'pi@demo.cdms']);
    });

    it('discards a draft, audited with what it held and its files released, and never a published one', async () => {
      const file = (await upload('dm', 'manual.pdf', PDF)).json();
      const created = await as('dm', 'POST', `/api/studies/${studyId}/guidelines`, {
        ...guideline(),
        title: '버려질 초안',
        attachmentIds: [file.id],
      });
      expect(created.statusCode).toBe(201);
      const draft = created.json();
      expect((await as('crc', 'DELETE', `/api/studies/${studyId}/guidelines/${draft.id}`)).statusCode).toBe(
        403,
      );
      expect((await as('dm', 'DELETE', `/api/studies/${studyId}/guidelines/${draft.id}`)).statusCode).toBe(
        204,
      );
      expect((await as('dm', 'GET', `/api/studies/${studyId}/guidelines/${draft.id}`)).statusCode).toBe(404);
      expect((await as('dm', 'DELETE', `/api/studies/${studyId}/guidelines/${draft.id}`)).statusCode).toBe(
        404,
      );
      const owner = await database()
        .db.selectFrom('attachments')
        .select(['owner_kind', 'owner_id'])
        .where('id', '=', file.id)
        .executeTakeFirstOrThrow();
      expect(owner).toEqual({ owner_kind: null, owner_id: null });
      const record = await database()
        .db.selectFrom('audit_events')
        .select(['event_type', 'before'])
        .where('entity_type', '=', 'guideline')
        .where('entity_id', '=', String(draft.id))
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      expect(record.event_type).toBe('guideline.deleted');
      expect(record.before).toMatchObject({ title: '버려질 초안', state: 'draft', attachmentIds: [file.id] });

      const kept = (await as('dm', 'POST', `/api/studies/${studyId}/guidelines`, guideline())).json();
      expect(
        (await as('dm', 'POST', `/api/studies/${studyId}/guidelines/${kept.id}/publish`)).statusCode,
      ).toBe(200);
      const refused = await as('dm', 'DELETE', `/api/studies/${studyId}/guidelines/${kept.id}`);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error.code).toBe('guideline_not_draft');
    });

    it('refuses an alarm period with one date or a start after the end', async () => {
      for (const period of [
        { alarmStart: '2026-12-01', alarmEnd: null },
        { alarmStart: '2026-12-02', alarmEnd: '2026-12-01' },
      ]) {
        const refused = await as('cra', 'POST', `/api/studies/${studyId}/guidelines`, guideline(period));
        expect(refused.statusCode).toBe(422);
        expect(refused.json().error.code).toBe('alarm_period_invalid');
      }
    });

    it('sends a task notice to the roles and sites it names, now or when its period starts', async () => {
      const db = database().db;
      const file = (await upload('dm', '공지.pdf', PDF)).json();
      // SMS needs a phone number (without one the message is recorded as not sent: the notice failed).
      await db
        .updateTable('users')
        .set({ contact: '010-1234-5678' })
        .where('email', '=', 'crc@demo.cdms')
        .execute();
      const sent = await as('dm', 'POST', `/api/studies/${studyId}/task-notices`, {
        alarmType: 'data_entry',
        title: '데이터 입력 마감 안내',
        content: '이번 주 금요일까지 방문 2의 입력을 마쳐 주세요.',
        roles: ['CRC'],
        siteIds: [siteId('02')],
        periodStart: '2026-01-01',
        periodEnd: '2099-12-31',
        email: true,
        sms: true,
        attachmentId: file.id,
      });
      expect(sent.statusCode).toBe(201);
      const notice = sent.json();
      expect(notice).toMatchObject({ state: 'queued', messages: 2, attachment: { id: file.id } });
      const rows = await db
        .selectFrom('notifications')
        .innerJoin('users', 'users.id', 'notifications.recipient_user_id')
        .select(['users.email', 'notifications.channel', 'notifications.event_type', 'notifications.subject'])
        .where('dedupe_key', '=', `task_notice:${notice.id}`)
        .orderBy('channel')
        .execute();
      // The CRC of site 02 only (not site 03's), by e-mail and SMS.
      expect(rows.map((row) => [row.email, row.channel, row.event_type])).toEqual([
        ['crc@demo.cdms', 'email', 'task_notice'],
        ['crc@demo.cdms', 'sms', 'task_notice'],
      ]);
      expect(rows[0]?.subject).toContain('데이터 입력 마감 안내');
      // Every message delivered → sent.
      await db
        .updateTable('notifications')
        .set({ status: 'sent' })
        .where('dedupe_key', '=', `task_notice:${notice.id}`)
        .execute();
      const listed = (await as('crc', 'GET', `/api/studies/${studyId}/task-notices`)).json();
      expect(listed.taskNotices[0]).toMatchObject({ id: notice.id, state: 'sent' });
      expect(listed.canWrite).toBe(false);
      // Other members read only the notices addressed to them: not site 03's coordinator, not an investigator.
      for (const who of ['crc3', 'pi', 'si']) {
        const theirs = (await as(who, 'GET', `/api/studies/${studyId}/task-notices`)).json();
        expect(theirs.taskNotices.map((row: { id: number }) => row.id)).not.toContain(notice.id);
      }
      // A writer reads every one.
      expect(
        (await as('cra', 'GET', `/api/studies/${studyId}/task-notices`))
          .json()
          .taskNotices.map((row: { id: number }) => row.id),
      ).toContain(notice.id);
      await db
        .updateTable('notifications')
        .set({ status: 'failed' })
        .where('dedupe_key', '=', `task_notice:${notice.id}`)
        .where('channel', '=', 'sms')
        .execute();
      // The e-mail delivered, the SMS failed: partly sent, one of two.
      expect(
        (await as('dm', 'GET', `/api/studies/${studyId}/task-notices`)).json().taskNotices[0],
      ).toMatchObject({
        state: 'partly_sent',
        messages: 2,
        delivered: 1,
      });
      await db
        .updateTable('notifications')
        .set({ status: 'not_sent' })
        .where('dedupe_key', '=', `task_notice:${notice.id}`)
        .where('channel', '=', 'email')
        .execute();
      expect(
        (await as('dm', 'GET', `/api/studies/${studyId}/task-notices`)).json().taskNotices[0],
      ).toMatchObject({
        state: 'failed',
        delivered: 0,
      });
      // The attachment is for every member.
      expect((await as('crc3', 'GET', `/api/studies/${studyId}/attachments/${file.id}`)).statusCode).toBe(
        200,
      );

      // A site alone: every role covering it (DM and ADMIN cover all sites); a future period waits.
      const later = (
        await as('cra', 'POST', `/api/studies/${studyId}/task-notices`, {
          alarmType: 'schedule',
          title: '모니터링 방문 일정',
          content: '다음 달 방문합니다.',
          siteIds: [siteId('01')],
          periodStart: '2099-01-01',
          periodEnd: '2099-01-31',
          email: true,
          sms: false,
        })
      ).json();
      expect(later).toMatchObject({ state: 'scheduled', messages: null });
      expect(await sendDueTaskNotices(db, '2098-12-31')).toBe(0);
      // Three server processes' schedulers at once (on PostgreSQL, three connections): one sends it.
      const sentAtOnce = await Promise.all([0, 1, 2].map(() => sendDueTaskNotices(db, '2099-01-01')));
      expect(sentAtOnce.reduce((sum, count) => sum + count, 0)).toBe(1);
      expect(await sendDueTaskNotices(db, '2099-01-02')).toBe(0);
      const recipients = await db
        .selectFrom('notifications')
        .innerJoin('users', 'users.id', 'notifications.recipient_user_id')
        .select('users.email')
        .where('dedupe_key', '=', `task_notice:${later.id}`)
        .orderBy('users.email')
        .execute();
      expect(recipients.map((row) => row.email)).toEqual([
        'admin@demo.cdms',
        'cra@demo.cdms',
        'dm@demo.cdms',
        'pi@demo.cdms',
        'si@demo.cdms',
      ]);
    });

    it('refuses task notices from readers, without a channel or audience, and with another study’s site', async () => {
      const body = {
        alarmType: 'general',
        title: '안내',
        content: '내용',
        roles: ['PI'],
        periodStart: '2026-01-01',
        periodEnd: '2026-01-02',
        email: true,
        sms: false,
      };
      expect((await as('crc', 'POST', `/api/studies/${studyId}/task-notices`, body)).statusCode).toBe(403);
      expect((await as('pi', 'POST', `/api/studies/${studyId}/task-notices`, body)).statusCode).toBe(403);
      expect(
        (await as('dm', 'POST', `/api/studies/${studyId}/task-notices`, { ...body, email: false }))
          .statusCode,
      ).toBe(400);
      expect(
        (await as('dm', 'POST', `/api/studies/${studyId}/task-notices`, { ...body, roles: [] })).statusCode,
      ).toBe(400);
      const foreignSite = await database()
        .db.selectFrom('sites')
        .select('id')
        .where('study_id', '=', otherStudyId)
        .executeTakeFirstOrThrow();
      const refused = await as('dm', 'POST', `/api/studies/${studyId}/task-notices`, {
        ...body,
        siteIds: [foreignSite.id],
      });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().error.code).toBe('unknown_site');
    });
  },
  { seed: 'demo' },
);
