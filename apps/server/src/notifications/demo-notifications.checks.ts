import { todayInKorea } from '@cdms/contract';
import { expect, it } from 'vitest';
import type { DatabaseHandle } from '../db/database.ts';
import { remindOverdueVisits } from './remind-overdue-visits.ts';

/**
 * Issue 18 over the living demo (run by test/living-demo.test.ts, last: the reminder writes to the
 * outbox, which no other check reads): the demo's manual queries told their sites' staff, and the
 * daily reminder lists each site's overdue visits once — both against counts worked out here from
 * the tables in plain TypeScript.
 */
export function demoNotificationChecks(database: () => DatabaseHandle): void {
  /** The active PI, SI and CRC members covering each site (DM and ADMIN are not site staff). */
  async function siteStaff(): Promise<Map<number, Set<number>>> {
    const rows = await database()
      .db.selectFrom('memberships as m')
      .innerJoin('membership_sites as ms', 'ms.membership_id', 'm.id')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select(['ms.site_id', 'u.id'])
      .where('m.role', 'in', ['PI', 'SI', 'CRC'])
      .where('u.active', '=', true)
      .execute();
    const staff = new Map<number, Set<number>>();
    for (const row of rows) staff.set(row.site_id, (staff.get(row.site_id) ?? new Set()).add(row.id));
    return staff;
  }

  it('has a delivery history the alarm log shows: delivered, refused for good, awaiting a retry, not sent', async () => {
    const rows = await database()
      .db.selectFrom('notifications')
      .select(['status', 'attempts', 'last_error', 'last_error_code', 'sent_at', 'created_at'])
      .execute();
    const withStatus = (status: string) => rows.filter((row) => row.status === status);
    expect(withStatus('sent').length).toBeGreaterThan(0);
    expect(withStatus('sent').every((row) => row.sent_at !== null && row.sent_at >= row.created_at)).toBe(
      true,
    );
    expect(withStatus('failed')).toEqual([
      expect.objectContaining({ attempts: 5, last_error: expect.stringMatching(/^550 /) }),
    ]);
    expect(withStatus('queued').some((row) => row.attempts === 1 && row.last_error?.startsWith('421 '))).toBe(
      true,
    );
    // Text messages to people without a phone number: recorded, with the reason, never dropped.
    expect(withStatus('not_sent').length).toBeGreaterThan(0);
    // The reason is a code CDMS renders in the reader's language, or a server's answer.
    expect(withStatus('not_sent').every((row) => (row.last_error_code ?? row.last_error ?? '') !== '')).toBe(
      true,
    );
  });

  it("told each manual query's site staff that it was opened", async () => {
    const db = database().db;
    const staff = await siteStaff();
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
}
