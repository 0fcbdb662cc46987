import type { AlarmLogResponse } from '@cdms/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, demoStudyIds, type SignedIn, signIn } from '../../test/test-app.ts';
import { describeWithDatabase } from '../../test/test-database.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { App } from '../http/types.ts';
import { deliverNotification } from '../notifications/deliver-notifications.ts';
import { enqueueNotification } from '../notifications/enqueue-notification.ts';
import type { NotificationEventType } from '../notifications/notification-events.ts';
import { logOnlyEmailSender, logOnlySmsSender } from '../notifications/senders.ts';

/**
 * The alarm log over notifications this test raises through the outbox (issue 18 item 4): who sees
 * which rows (CRA its sites and the study-wide ones, DM all, site staff none), every filter, paging,
 * the status a row is shown with, and the audited download.
 */
describeWithDatabase(
  'the alarm log',
  (database) => {
    let app: App;
    let studyId: number;
    let site: (institution: string) => number;
    const session: Record<string, SignedIn> = {};
    const userId = async (email: string) =>
      (
        await database()
          .db.selectFrom('users')
          .select('id')
          .where('email', '=', email)
          .executeTakeFirstOrThrow()
      ).id;
    const get = (who: string, url: string, language: 'ko' | 'en' = 'en') =>
      app.inject({
        method: 'GET',
        url,
        headers: { ...(session[who]?.headers ?? {}), 'accept-language': language },
      });
    const log = async (who: string, query = ''): Promise<AlarmLogResponse> => {
      const response = await get(who, `/api/studies/${studyId}/alarm-log${query}`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json();
    };
    const raise = (
      eventType: NotificationEventType,
      siteId: number | null,
      recipients: number[],
      channels?: ('email' | 'sms')[],
    ) =>
      inTransaction(database().db, (trx) =>
        enqueueNotification(trx, {
          eventType,
          studyId,
          siteId,
          recipientUserIds: recipients,
          ...(channels ? { channels } : {}),
          message: {
            subject: { ko: `[CDMS] ${eventType}`, en: `[CDMS] ${eventType} (en)` },
            body: { ko: '본문', en: 'Body' },
          },
        }),
      );

    beforeAll(async () => {
      app = await buildTestApp(database(), {}, { notificationWorker: false });
      await app.ready();
      ({ studyId, siteId: site } = await demoStudyIds(database().db));
      for (const who of ['cra', 'dm', 'crc', 'pi', 'admin'])
        session[who] = await signIn(app, `${who}@demo.cdms`);
      await database().db.deleteFrom('notifications').execute();
      const crc = await userId('crc@demo.cdms');
      const pi = await userId('pi@demo.cdms');
      const crc3 = await userId('crc3@demo.cdms');
      const cra = await userId('cra@demo.cdms');
      // Site 01: a query opened for the PI (e-mail and SMS: the demo PI has a phone number or not).
      await raise('query_opened', site('01'), [pi]);
      // Site 02: an answered query for the CRA, then a task notice to the CRC by e-mail and SMS.
      await raise('query_answered', site('02'), [cra]);
      await raise('task_notice', site('02'), [crc], ['email', 'sms']);
      // Site 03 (not the CRA's): an overdue visit.
      await raise('visit_overdue', site('03'), [crc3]);
      // The whole study: a freeze.
      await raise('site_hold', null, [pi, crc, crc3]);
      // Delivery outcomes, as the worker would leave them.
      const db = database().db;
      const rows = await db
        .selectFrom('notifications')
        .select(['id', 'event_type', 'channel'])
        .orderBy('id')
        .execute();
      const idOf = (event: string, channel = 'email') =>
        rows.find((row) => row.event_type === event && row.channel === channel)?.id as number;
      await db
        .updateTable('notifications')
        .set({ status: 'sent', sent_at: new Date(), attempts: 1 })
        .where('id', '=', idOf('query_opened'))
        .execute();
      await db
        .updateTable('notifications')
        .set({ status: 'failed', attempts: 5, last_error: '550 mailbox unavailable' })
        .where('id', '=', idOf('query_answered'))
        .execute();
      await db
        .updateTable('notifications')
        .set({ status: 'sending' })
        .where('id', '=', idOf('visit_overdue'))
        .execute();
    });
    afterAll(async () => {
      await app?.close();
    });

    it('shows the DM every row, newest first, with recipient, site and status', async () => {
      const all = await log('dm', '?size=100');
      const stored = await database()
        .db.selectFrom('notifications')
        .select('id')
        .where('study_id', '=', studyId)
        .execute();
      expect(all.total).toBe(stored.length);
      expect(all.entries.map((entry) => entry.id)).toEqual(
        stored.map((row) => Number(row.id)).sort((a, b) => b - a),
      );
      const failed = all.entries.find((entry) => entry.eventType === 'query_answered');
      expect(failed).toMatchObject({
        status: 'failed',
        error: '550 mailbox unavailable',
        attempts: 5,
        siteId: site('02'),
        recipientName: '최모니',
      });
      // Handed to the mail server but not confirmed: still queued for the reader.
      expect(all.entries.find((entry) => entry.eventType === 'visit_overdue')?.status).toBe('queued');
      expect(all.entries.find((entry) => entry.eventType === 'query_opened')).toMatchObject({
        status: 'sent',
        siteId: site('01'),
      });
      expect(
        all.entries
          .filter((entry) => entry.eventType === 'site_hold')
          .every((entry) => entry.siteId === null),
      ).toBe(true);
    });

    it('shows a CRA the rows of its sites and those about the whole study, never another site', async () => {
      const dm = await log('dm', '?size=100');
      const cra = await log('cra', '?size=100');
      const expected = dm.entries.filter(
        (entry) => entry.siteId === null || [site('01'), site('02')].includes(entry.siteId),
      );
      expect(cra.entries).toEqual(expected);
      expect(cra.total).toBe(expected.length);
      expect(cra.entries.some((entry) => entry.eventType === 'visit_overdue')).toBe(false);
      // Asking for another site's rows gives none, not an error that would reveal anything.
      expect((await log('cra', `?siteId=${site('03')}`)).total).toBe(0);
    });

    it('filters by event, channel, status, site, recipient and day, and pages', async () => {
      const all = (await log('dm', '?size=100')).entries;
      const count = (predicate: (entry: (typeof all)[number]) => boolean) => all.filter(predicate).length;
      expect((await log('dm', '?eventType=task_notice')).total).toBe(
        count((e) => e.eventType === 'task_notice'),
      );
      expect((await log('dm', '?channel=sms')).total).toBe(count((e) => e.channel === 'sms'));
      expect((await log('dm', '?status=queued')).total).toBe(count((e) => e.status === 'queued'));
      expect((await log('dm', '?status=failed')).total).toBe(1);
      expect((await log('dm', `?siteId=${site('02')}`)).total).toBe(count((e) => e.siteId === site('02')));
      expect((await log('dm', '?recipient=%EB%B0%95%EC%BD%94%EB%94%94')).total).toBe(
        count((e) => e.recipientName === '박코디'),
      );
      expect((await log('dm', '?recipient=CRC3@DEMO')).total).toBe(
        count((e) => e.recipientAddress === 'crc3@demo.cdms'),
      );
      const today = new Date(Date.now() + 9 * 3600_000).toISOString().slice(0, 10);
      expect((await log('dm', `?from=${today}&to=${today}`)).total).toBe(all.length);
      expect((await log('dm', '?to=2020-01-01')).total).toBe(0);
      const first = await log('dm', '?size=20&page=1');
      expect(first.entries).toEqual(all.slice(0, 20));
      const beyond = await log('dm', '?size=20&page=99');
      expect(beyond.entries).toEqual([]);
      expect(beyond.total).toBe(all.length);
    });

    it('refuses site staff, other studies and bad filters with a 4xx', async () => {
      for (const who of ['crc', 'pi']) {
        const response = await get(who, `/api/studies/${studyId}/alarm-log`);
        expect(response.statusCode).toBe(403);
        expect(response.json().error.code).toBe('forbidden');
      }
      expect((await get('cra', '/api/studies/999999/alarm-log')).statusCode).toBe(404);
      const backwards = await get('dm', `/api/studies/${studyId}/alarm-log?from=2026-02-01&to=2026-01-01`);
      expect(backwards.statusCode).toBe(400);
      expect((await get('dm', `/api/studies/${studyId}/alarm-log?status=delivered`)).statusCode).toBe(400);
      expect((await get('dm', `/api/studies/${studyId}/alarm-log?size=7`)).statusCode).toBe(400);
      expect((await get('crc', `/api/studies/${studyId}/alarm-log/download?format=csv`)).statusCode).toBe(
        403,
      );
    });

    it('downloads the filtered log as CSV in the reader’s language and audits it', async () => {
      const response = await get(
        'cra',
        `/api/studies/${studyId}/alarm-log/download?format=csv&channel=email`,
      );
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['content-disposition']).toContain('alarm_log');
      const lines = response.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split(/\r?\n/);
      expect(lines[0]).toContain('Raised at');
      const expected = (await log('cra', '?channel=email&size=100')).entries;
      expect(lines.length - 1).toBe(expected.length);
      expect(lines[1]).toContain(expected[0]?.recipientAddress);
      expect(response.body).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2} KST/);
      const audit = await database()
        .db.selectFrom('audit_events')
        .select(['event_type', 'after'])
        .where('event_type', '=', 'alarm_log.exported')
        .execute();
      expect(audit).toHaveLength(1);
      expect(audit[0]?.after).toMatchObject({ format: 'csv', filter: { channel: 'email' } });
      const xlsx = await get('dm', `/api/studies/${studyId}/alarm-log/download?format=xlsx`);
      expect(xlsx.statusCode).toBe(200);
      expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
    });

    it("shows each row's subject and CDMS's own reasons in the reader's language, whoever received it", async () => {
      // The recipients read Korean (the demo's default); the SMS to a user without a phone number
      // and an e-mail the server could not send without SMTP are CDMS's own reasons.
      const db = database().db;
      const locales = await db
        .selectFrom('users')
        .select('locale')
        .where('id', 'in', [await userId('crc@demo.cdms')])
        .execute();
      expect(locales.map((row) => row.locale)).toEqual(['ko']);
      const { contact } = await db
        .selectFrom('users')
        .select('contact')
        .where('email', '=', 'crc@demo.cdms')
        .executeTakeFirstOrThrow();
      await db.updateTable('users').set({ contact: '' }).where('email', '=', 'crc@demo.cdms').execute();
      await raise('task_notice', site('02'), [await userId('crc@demo.cdms')], ['sms']);
      await db.updateTable('users').set({ contact }).where('email', '=', 'crc@demo.cdms').execute();
      const [noSmtp] = await db
        .selectFrom('notifications')
        .select('id')
        .where('event_type', '=', 'site_hold')
        .orderBy('id')
        .limit(1)
        .execute();
      const stored = await db
        .selectFrom('notifications')
        .select(['id', 'subject'])
        .where('id', '=', noSmtp?.id ?? 0)
        .executeTakeFirstOrThrow();
      expect(stored.subject).toBe('[CDMS] site_hold');
      const claimed = await db
        .updateTable('notifications')
        .set({ status: 'sending', claimed_by: 'test', attempts: 1 })
        .where('id', '=', stored.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      await deliverNotification(db, claimed, {
        email: logOnlyEmailSender(() => undefined),
        sms: logOnlySmsSender(() => undefined),
      });

      const read = async (language: 'ko' | 'en') => {
        const response = await get('dm', `/api/studies/${studyId}/alarm-log?size=100`, language);
        expect(response.statusCode).toBe(200);
        const entries = (response.json() as AlarmLogResponse).entries;
        return {
          noPhone: entries.find(
            (entry) =>
              entry.channel === 'sms' &&
              entry.status === 'not_sent' &&
              entry.eventType === 'task_notice' &&
              entry.recipientName === '박코디',
          ),
          noSmtp: entries.find((entry) => entry.id === stored.id),
        };
      };
      const english = await read('en');
      expect(english.noPhone).toMatchObject({
        subject: '[CDMS] task_notice (en)',
        error: 'No phone number on record.',
      });
      expect(english.noSmtp).toMatchObject({
        subject: '[CDMS] site_hold (en)',
        status: 'not_sent',
        error: 'Not sent: no SMTP server is configured.',
      });
      const korean = await read('ko');
      expect(korean.noPhone).toMatchObject({
        subject: '[CDMS] task_notice',
        error: '연락처(전화번호)가 없습니다.',
      });
      expect(korean.noSmtp?.error).toBe('메일 서버(SMTP)가 설정되지 않아 보내지 않았습니다.');
      // The English download says the same (this test runs after the one counting download audits).
      const csv = await get(
        'dm',
        `/api/studies/${studyId}/alarm-log/download?format=csv&eventType=task_notice`,
        'en',
      );
      expect(csv.body).toContain('[CDMS] task_notice (en)');
      expect(csv.body).toContain('No phone number on record.');
      expect(csv.body).not.toContain('연락처');
      // Put back as the other tests expect it.
      await db
        .deleteFrom('notifications')
        .where('event_type', '=', 'task_notice')
        .where('recipient_address', '=', '')
        .execute();
      await db
        .updateTable('notifications')
        .set({ status: 'queued', claimed_by: null, attempts: 0, last_error_code: null })
        .where('id', '=', stored.id)
        .execute();
    });
  },
  { seed: 'demo' },
);
