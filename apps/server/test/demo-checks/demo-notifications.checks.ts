import type { AddressInfo } from 'node:net';
import { todayInKorea } from '@cdms/contract';
import { SMTPServer } from 'smtp-server';
import { expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/database.ts';
import { claimNotifications, deliverNotification } from '../../src/notifications/deliver-notifications.ts';
import { remindOverdueVisits } from '../../src/notifications/remind-overdue-visits.ts';
import { logOnlySmsSender, smtpEmailSender } from '../../src/notifications/senders.ts';
import { demoNewcomer } from '../../src/seed/demo-training.ts';

/**
 * Issue 18 over the living demo (run by test/living-demo.test.ts, last: the reminder writes to the
 * outbox, which no other check reads): the demo's manual queries told their sites' staff, and the
 * daily reminder lists each site's overdue visits once — both against counts worked out here from
 * the tables in plain TypeScript.
 */
export function demoNotificationChecks(database: () => DatabaseHandle): void {
  /**
   * The active PI, SI and CRC members covering each site (DM and ADMIN are not site staff);
   * `withNewcomer: false` leaves out the coordinator who joined last (issue 51, demo-training.ts),
   * after every query was opened.
   */
  async function siteStaff({ withNewcomer = true } = {}): Promise<Map<number, Set<number>>> {
    const rows = await database()
      .db.selectFrom('memberships as m')
      .innerJoin('membership_sites as ms', 'ms.membership_id', 'm.id')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select(['ms.site_id', 'u.id'])
      .where('m.role', 'in', ['PI', 'SI', 'CRC'])
      .where('u.active', '=', true)
      .$if(!withNewcomer, (query) => query.where('u.email', '!=', demoNewcomer.email))
      .execute();
    const staff = new Map<number, Set<number>>();
    for (const row of rows) staff.set(row.site_id, (staff.get(row.site_id) ?? new Set()).add(row.id));
    return staff;
  }

  it('writes no delivery state by hand: every e-mail waits in the outbox for the worker, none claims a mail server', async () => {
    // Issue 43 item 9: the demo once marked its e-mails "sent" and "421 …" although no mail server had
    // seen them. An e-mail is queued until the worker hands it to a sender; a server built over this copy
    // by another check may have done so already, with no SMTP configured: "not sent", and why.
    const emails = await database()
      .db.selectFrom('notifications')
      .select(['status', 'attempts', 'last_error', 'last_error_code'])
      .where('channel', '=', 'email')
      .execute();
    expect(emails.length).toBeGreaterThan(0);
    for (const email of emails) {
      if (email.status === 'queued')
        expect(email).toEqual({ status: 'queued', attempts: 0, last_error: null, last_error_code: null });
      // CDMS's own reason is kept as a code, rendered in the alarm log's reader's language.
      else
        expect(email).toEqual({
          status: 'not_sent',
          attempts: 1,
          last_error: null,
          last_error_code: 'no_smtp',
        });
    }
    // Text messages to people without a phone number: recorded, with the reason, never dropped.
    const texts = await database()
      .db.selectFrom('notifications')
      .select(['status', 'last_error', 'last_error_code'])
      .where('channel', '=', 'sms')
      .execute();
    expect(
      texts.some(
        (text) => text.status === 'not_sent' && (text.last_error_code ?? text.last_error ?? '') !== '',
      ),
    ).toBe(true);
  });

  it("told each manual query's site staff that it was opened", async () => {
    const db = database().db;
    const staff = await siteStaff({ withNewcomer: false });
    const manual = await db
      .selectFrom('queries')
      .select(['site_id', 'opened_by'])
      .where('kind', '=', 'manual')
      .execute();
    expect(manual.length).toBeGreaterThan(0);
    const expected = manual.reduce(
      (sum, query) =>
        sum + [...(staff.get(query.site_id) ?? [])].filter((userId) => userId !== query.opened_by).length,
      0,
    );
    const written = await db
      .selectFrom('notifications')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('event_type', '=', 'query_opened')
      .executeTakeFirstOrThrow();
    expect(Number(written.count)).toBe(expected);
  });

  it("reminds each site's staff of its overdue visits once a day", async () => {
    const db = database().db;
    const today = todayInKorea();
    const windows = await db
      .selectFrom('subject_visit_windows')
      .select(['site_id', 'subject_status', 'actual_date', 'latest_date'])
      .execute();
    const overdueBySite = new Map<number, number>();
    for (const window of windows)
      if (window.subject_status === 'ongoing' && window.actual_date === null && window.latest_date < today)
        overdueBySite.set(window.site_id, (overdueBySite.get(window.site_id) ?? 0) + 1);
    expect(overdueBySite.size).toBeGreaterThan(0);
    const staff = await siteStaff();
    const expected = [...overdueBySite.keys()].reduce(
      (sum, siteId) => sum + (staff.get(siteId)?.size ?? 0),
      0,
    );

    // A server built over the same demo database (another check's) may have sent today's already.
    const before = await db
      .selectFrom('notifications')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('event_type', '=', 'visit_overdue')
      .executeTakeFirstOrThrow();
    expect(await remindOverdueVisits(db, today)).toBe(expected - Number(before.count));
    const reminders = await db
      .selectFrom('notifications')
      .select(['site_id', 'subject', 'body'])
      .where('event_type', '=', 'visit_overdue')
      .execute();
    expect(reminders).toHaveLength(expected);
    for (const reminder of reminders) {
      const count = overdueBySite.get(reminder.site_id ?? -1);
      expect(reminder.subject).toContain(` ${count}`);
      expect(reminder.subject).toContain(today);
    }
    // Again the same day (a restart, another process): nothing new.
    expect(await remindOverdueVisits(db, today)).toBe(0);
  });

  it('delivers the waiting e-mails through the same outbox to a real local SMTP server, which receives each', async () => {
    const db = database().db;
    // Another check's server may have handed the demo's e-mails to its worker already (no mail server:
    // "not sent"), so a reminder raised now through the same command — tomorrow's, a day no one has
    // reminded of yet — makes sure there is mail to deliver; whatever else still waits goes with it.
    const tomorrow = new Date(Date.parse(`${todayInKorea()}T00:00:00Z`) + 86_400_000)
      .toISOString()
      .slice(0, 10);
    expect(await remindOverdueVisits(db, tomorrow)).toBeGreaterThan(0);
    const received: string[] = [];
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, session, callback) {
        stream.resume();
        stream.on('end', () => {
          received.push(...session.envelope.rcptTo.map((recipient) => recipient.address));
          callback();
        });
      },
    });
    const url = await new Promise<string>((resolve) =>
      server.listen(0, '127.0.0.1', () =>
        resolve(`smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`),
      ),
    );
    try {
      const senders = {
        email: smtpEmailSender(url, 'CDMS <no-reply@localhost>'),
        sms: logOnlySmsSender(() => {}),
      };
      const delivered: string[] = [];
      for (;;) {
        const claimed = await claimNotifications(db, 50);
        if (claimed.length === 0) break;
        for (const row of claimed)
          if ((await deliverNotification(db, row, senders)) === 'sent') delivered.push(row.recipient_address);
      }
      expect(delivered.length).toBeGreaterThan(0);
      expect(received.sort()).toEqual(delivered.sort());
      const left = await db
        .selectFrom('notifications')
        .select('id')
        .where('channel', '=', 'email')
        .where('status', 'in', ['queued', 'sending', 'failed'])
        .execute();
      expect(left).toEqual([]);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
}
