import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { demoStudyIds } from '../../test/test-app.ts';
import { describeWithDatabase } from '../../test/test-database.ts';
import { inTransaction } from '../db/in-transaction.ts';
import {
  claimNotifications,
  deliverNotification,
  MAX_ATTEMPTS,
  releaseNotifications,
  retryDelayMs,
} from './deliver-notifications.ts';
import { enqueueNotification, type NotificationRequest } from './enqueue-notification.ts';
import type { NotificationMessage } from './notification-events.ts';
import { startNotificationWorker } from './notification-worker.ts';
import { membersAtSite } from './recipients.ts';
import { logOnlyEmailSender, logOnlySmsSender, smtpEmailSender } from './senders.ts';

/**
 * The outbox (issue 18): rows written in the event's transaction, delivered by a worker through a real
 * SMTP server started here (`smtp-server`), read back with `mailparser`.
 */

const message: NotificationMessage = {
  subject: { ko: '[CDMS] 새 쿼리가 발행되었습니다', en: '[CDMS] A query was opened' },
  body: { ko: 'S02-0001 V1 활력 징후에 쿼리가 있습니다.', en: 'S02-0001 V1 vital signs has a query.' },
};

/** A local SMTP server that keeps what it receives; `refuseNext` answers the next message with 451. */
function startSmtp() {
  const received: ParsedMail[] = [];
  let refuseNext = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      if (refuseNext > 0) {
        refuseNext -= 1;
        stream.resume();
        stream.on('end', () => {
          const error = Object.assign(new Error('mailbox busy, try later'), { responseCode: 451 });
          callback(error);
        });
        return;
      }
      simpleParser(stream)
        .then((mail) => {
          received.push(mail);
          callback();
        })
        .catch(callback);
    },
  });
  return {
    received,
    refuse: (count: number) => {
      refuseNext = count;
    },
    listen: () =>
      new Promise<string>((resolve) =>
        server.listen(0, '127.0.0.1', () => {
          resolve(`smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`);
        }),
      ),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describeWithDatabase(
  'notifications outbox',
  (database) => {
    const smtp = startSmtp();
    let smtpUrl: string;
    let studyId: number;
    let site01: number;
    let site02: number;
    const userId = async (email: string) =>
      (
        await database()
          .db.selectFrom('users')
          .select('id')
          .where('email', '=', email)
          .executeTakeFirstOrThrow()
      ).id;
    const enqueue = (request: Partial<NotificationRequest> & Pick<NotificationRequest, 'recipientUserIds'>) =>
      inTransaction(database().db, (trx) =>
        enqueueNotification(trx, {
          eventType: 'query_opened',
          studyId,
          siteId: site02,
          message,
          ...request,
        }),
      );
    const rows = () => database().db.selectFrom('notifications').selectAll().orderBy('id').execute();
    const senders = () => ({
      email: smtpEmailSender(smtpUrl, 'CDMS <no-reply@cdms.test>'),
      sms: logOnlySmsSender(() => undefined),
    });
    /** Delivers everything due now, as one worker pass would. */
    async function deliverDue() {
      const using = senders();
      for (const row of await claimNotifications(database().db, 100))
        await deliverNotification(database().db, row, using);
      using.email.close?.();
    }

    beforeAll(async () => {
      smtpUrl = await smtp.listen();
      const demo = await demoStudyIds(database().db);
      studyId = demo.studyId;
      site01 = demo.siteId('01');
      site02 = demo.siteId('02');
    });
    afterAll(async () => {
      await smtp.close();
    });
    beforeEach(async () => {
      await database().db.deleteFrom('notifications').execute();
      await database().db.deleteFrom('notification_preferences').execute();
      smtp.received.length = 0;
    });

    it('finds the members covering a site: its own site roles, and DM and ADMIN everywhere', async () => {
      const staff02 = await membersAtSite(database().db, studyId, site02, ['PI', 'SI', 'CRC']);
      expect(staff02).toEqual([await userId('crc@demo.cdms')]);
      const staff01 = await membersAtSite(database().db, studyId, site01, ['PI', 'SI', 'CRC']);
      expect(staff01.sort()).toEqual([await userId('pi@demo.cdms'), await userId('si@demo.cdms')].sort());
      const monitors02 = await membersAtSite(database().db, studyId, site02, ['CRA', 'DM']);
      expect(monitors02.sort()).toEqual([await userId('cra@demo.cdms'), await userId('dm@demo.cdms')].sort());
    });

    it('delivers an e-mail through SMTP: Korean subject, the right recipient, marked sent', async () => {
      const crc = await userId('crc@demo.cdms');
      expect(await enqueue({ recipientUserIds: [crc] })).toBe(1);
      await deliverDue();
      expect(smtp.received).toHaveLength(1);
      const mail = smtp.received[0] as ParsedMail;
      expect(mail.subject).toBe(message.subject.ko);
      expect(mail.text?.trim()).toBe(message.body.ko);
      expect(mail.to && 'value' in mail.to ? mail.to.value.map((to) => to.address) : []).toEqual([
        'crc@demo.cdms',
      ]);
      expect(await rows()).toEqual([
        expect.objectContaining({ status: 'sent', attempts: 1, recipient_user_id: crc, last_error: null }),
      ]);
      expect((await rows())[0]?.sent_at).toBeInstanceOf(Date);
    });

    it('writes nothing when the event rolls back', async () => {
      const crc = await userId('crc@demo.cdms');
      await expect(
        inTransaction(database().db, async (trx) => {
          await enqueueNotification(trx, {
            eventType: 'query_opened',
            studyId,
            siteId: site02,
            recipientUserIds: [crc],
            message,
          });
          throw new Error('the event failed');
        }),
      ).rejects.toThrow('the event failed');
      expect(await rows()).toEqual([]);
    });

    it('retries after a refusal with a growing wait, and marks it failed after the last try', async () => {
      const crc = await userId('crc@demo.cdms');
      await enqueue({ recipientUserIds: [crc] });
      smtp.refuse(1);
      const before = Date.now();
      await deliverDue();
      const [retry] = await rows();
      expect(retry).toMatchObject({ status: 'queued', attempts: 1 });
      expect(retry?.last_error).toContain('mailbox busy');
      expect(retry?.next_attempt_at.getTime()).toBeGreaterThanOrEqual(before + retryDelayMs(1));
      // Not due yet: nothing is claimed.
      expect(await claimNotifications(database().db, 10)).toEqual([]);
      // Its time comes: the second try goes through.
      await database()
        .db.updateTable('notifications')
        .set({ next_attempt_at: new Date(0) })
        .execute();
      await deliverDue();
      expect(await rows()).toEqual([expect.objectContaining({ status: 'sent', attempts: 2 })]);
      expect(smtp.received).toHaveLength(1);

      // A message refused every time: failed after MAX_ATTEMPTS tries, with the last error kept.
      await database().db.deleteFrom('notifications').execute();
      await enqueue({ recipientUserIds: [crc] });
      smtp.refuse(MAX_ATTEMPTS);
      for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
        await database()
          .db.updateTable('notifications')
          .set({ next_attempt_at: new Date(0) })
          .execute();
        await deliverDue();
      }
      expect(await rows()).toEqual([expect.objectContaining({ status: 'failed', attempts: MAX_ATTEMPTS })]);
      expect(retryDelayMs(1)).toBeLessThan(retryDelayMs(2));
    });

    it('two workers claiming at once each take different messages: every e-mail leaves once', async () => {
      const staff = [
        await userId('crc@demo.cdms'),
        await userId('dm@demo.cdms'),
        await userId('cra@demo.cdms'),
      ];
      for (let index = 0; index < 10; index += 1)
        await enqueue({ recipientUserIds: staff, dedupeKey: `two-workers-${index}` });
      expect(await rows()).toHaveLength(30);
      const first = startNotificationWorker(database().db, { ...senders(), pollMs: 20, batch: 4 });
      const second = startNotificationWorker(database().db, { ...senders(), pollMs: 20, batch: 4 });
      await vi.waitFor(
        async () => {
          expect((await rows()).every((row) => row.status === 'sent')).toBe(true);
        },
        { timeout: 20_000, interval: 50 },
      );
      await Promise.all([first.stop(), second.stop()]);
      expect(smtp.received).toHaveLength(30);
      expect((await rows()).every((row) => row.attempts === 1)).toBe(true);
    });

    it('without SMTP: logged and marked "not sent: no SMTP configured", never dropped', async () => {
      const log = vi.fn();
      await enqueue({ recipientUserIds: [await userId('crc@demo.cdms')] });
      const [row] = await claimNotifications(database().db, 10);
      await deliverNotification(database().db, row as NonNullable<typeof row>, {
        email: logOnlyEmailSender(log),
        sms: logOnlySmsSender(log),
      });
      expect(await rows()).toEqual([
        expect.objectContaining({ status: 'not_sent', last_error_code: 'no_smtp', last_error: null }),
      ]);
      expect(log).toHaveBeenCalledWith('e-mail not sent: no SMTP configured', {
        to: 'crc@demo.cdms',
        subject: message.subject.ko,
      });
    });

    it("keeps to each user's choice of e-mails, writes a reminder once per key, and says why an SMS cannot go", async () => {
      const crc = await userId('crc@demo.cdms');
      const dm = await userId('dm@demo.cdms');
      await database()
        .db.insertInto('notification_preferences')
        .values({ user_id: dm, event_type: 'query_opened', email: false })
        .execute();
      expect(await enqueue({ recipientUserIds: [crc, dm] })).toBe(1);
      // Other event types still reach the DM.
      expect(
        await enqueue({ eventType: 'visit_overdue', recipientUserIds: [dm], dedupeKey: 'overdue-1' }),
      ).toBe(1);
      expect(
        await enqueue({ eventType: 'visit_overdue', recipientUserIds: [dm], dedupeKey: 'overdue-1' }),
      ).toBe(0);
      // A task notice by SMS: the CRC without a phone number is recorded as not sent, with the reason.
      await database().db.updateTable('users').set({ contact: '' }).where('id', '=', crc).execute();
      await enqueue({ eventType: 'task_notice', recipientUserIds: [crc], channels: ['sms'] });
      const sms = (await rows()).filter((row) => row.channel === 'sms');
      expect(sms).toEqual([expect.objectContaining({ status: 'not_sent', recipient_address: '' })]);
      // Stored as a code, each reader reading it in their language (the alarm log).
      expect(sms[0]?.last_error_code).toBe('no_phone_number');
      // Two people without a number, one occasion: each gets their own "not sent" row (the empty
      // address is no identity).
      await database().db.updateTable('users').set({ contact: '' }).where('id', 'in', [crc, dm]).execute();
      expect(
        await enqueue({
          eventType: 'task_notice',
          recipientUserIds: [crc, dm],
          channels: ['sms'],
          dedupeKey: 'notice-x',
        }),
      ).toBe(2);
      await database().db.deleteFrom('notifications').where('dedupe_key', '=', 'notice-x').execute();
      // With a number, the default (log-only) sender marks it not sent: no gateway.
      await database()
        .db.updateTable('users')
        .set({ contact: '010-1234-5678' })
        .where('id', '=', crc)
        .execute();
      await enqueue({ eventType: 'task_notice', recipientUserIds: [crc], channels: ['sms'] });
      await deliverDue();
      expect(
        (await rows()).filter((row) => row.channel === 'sms').map((row) => row.last_error_code),
      ).toContain('no_sms_gateway');
    });

    it('a stopping worker puts what it has not tried back in the queue', async () => {
      await enqueue({ recipientUserIds: [await userId('crc@demo.cdms')] });
      const claimed = await claimNotifications(database().db, 10);
      expect(claimed).toHaveLength(1);
      await releaseNotifications(database().db, claimed);
      expect(await rows()).toEqual([
        expect.objectContaining({ status: 'queued', attempts: 0, claimed_by: null }),
      ]);
    });
  },
  { seed: 'demo' },
);

describe('retryDelayMs', () => {
  it('waits 30 s, then four times longer each try', () => {
    expect([1, 2, 3, 4].map(retryDelayMs)).toEqual([30_000, 120_000, 480_000, 1_920_000]);
  });
});
