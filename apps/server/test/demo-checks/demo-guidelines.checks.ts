import { createHash } from 'node:crypto';
import { todayInKorea } from '@cdms/contract';
import { expect, it } from 'vitest';
import { readAttachmentBytes } from '../../src/attachments/attachment-chunks.ts';
import { sniffAttachmentType } from '../../src/attachments/attachment-type.ts';
import type { DatabaseHandle } from '../../src/db/database.ts';
import { bufferSource } from '../../src/uploads/file-source.ts';

/**
 * Issue 18 over the living demo (run by test/living-demo.test.ts): the published protocol and CRF
 * completion guideline carry real PDFs, a lab manual is a draft, the protocol is in its alarm period,
 * and the data manager's task notice went to site 02's coordinators by e-mail and was delivered.
 */
export function demoGuidelineChecks(database: () => DatabaseHandle): void {
  it('has a published protocol and CRF guideline with PDF attachments, and a draft', async () => {
    const db = database().db;
    const guidelines = await db
      .selectFrom('guidelines')
      .select(['id', 'guide_type', 'state', 'alarm_start', 'alarm_end'])
      .orderBy('id')
      .execute();
    expect(guidelines.map((row) => [row.guide_type, row.state])).toEqual([
      ['protocol', 'published'],
      ['crf_guideline', 'published'],
      ['lab_manual', 'draft'],
    ]);
    const today = todayInKorea();
    const protocol = guidelines[0];
    expect(protocol?.alarm_start && protocol.alarm_start <= today).toBe(true);
    expect(protocol?.alarm_end && protocol.alarm_end >= today).toBe(true);
    for (const published of guidelines.filter((row) => row.state === 'published')) {
      const files = await db
        .selectFrom('attachments')
        .select(['content_type', 'sha256', 'size'])
        .where('owner_kind', '=', 'guideline')
        .where('owner_id', '=', published.id)
        .execute();
      expect(files).toHaveLength(1);
      const file = files[0];
      if (!file) continue;
      const bytes = await readAttachmentBytes(db, file.sha256);
      // A real PDF: its own bytes say so, it ends as a PDF does, and the stored facts match them.
      expect(await sniffAttachmentType(bufferSource(bytes))).toBe('application/pdf');
      expect(file.content_type).toBe('application/pdf');
      expect(bytes.subarray(-8).toString('latin1')).toContain('%%EOF');
      expect(file.size).toBe(bytes.length);
      expect(file.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    }
  });

  /** The outbox rows of a task notice, with the role and site their recipient holds. */
  async function rowsOf(noticeId: number, institution: string) {
    const db = database().db;
    return db
      .selectFrom('notifications')
      .innerJoin('users', 'users.id', 'notifications.recipient_user_id')
      .innerJoin('memberships', 'memberships.user_id', 'users.id')
      .innerJoin('membership_sites', 'membership_sites.membership_id', 'memberships.id')
      .innerJoin('sites', 'sites.id', 'membership_sites.site_id')
      .select([
        'notifications.channel',
        'notifications.status',
        'notifications.last_error_code',
        'memberships.role',
      ])
      .where('notifications.dedupe_key', '=', `task_notice:${noticeId}`)
      .where('sites.institution_number', '=', institution)
      .where('memberships.study_id', '=', db.selectFrom('task_notices').select('study_id').limit(1))
      .execute();
  }

  it("sent the data manager's task notice to site 02's coordinators by e-mail, delivered", async () => {
    const notices = await database()
      .db.selectFrom('task_notices')
      .select(['id', 'enqueued_at', 'recipient_count', 'sms'])
      .orderBy('id')
      .execute();
    expect(notices).toHaveLength(2);
    const notice = notices[0];
    expect(notice?.enqueued_at).not.toBeNull();
    const rows = await rowsOf(notice?.id ?? 0, '02');
    expect(rows.length).toBe(notice?.recipient_count);
    expect(rows.length).toBeGreaterThan(0);
    // Waiting for the worker, or handed to it without a mail server (another check's server): never a
    // state written by hand (issue 43 item 9).
    for (const row of rows) {
      expect(row).toMatchObject({ channel: 'email', role: 'CRC' });
      expect(['queued', 'not_sent']).toContain(row.status);
    }
  });

  it("sent the monitor's notice to site 01's investigators; the text messages, without phone numbers, not sent", async () => {
    const [, notice] = await database()
      .db.selectFrom('task_notices')
      .select(['id', 'recipient_count', 'sms'])
      .orderBy('id')
      .execute();
    expect(notice?.sms).toBe(true);
    const rows = await rowsOf(notice?.id ?? 0, '01');
    // Each investigator by e-mail and by text message.
    expect(rows.length).toBe(2 * (notice?.recipient_count ?? 0));
    expect(new Set(rows.map((row) => row.role))).toEqual(new Set(['PI', 'SI']));
    const texts = rows.filter((row) => row.channel === 'sms');
    expect(texts.length).toBe(rows.length / 2);
    for (const row of texts)
      expect(row).toMatchObject({ status: 'not_sent', last_error_code: expect.any(String) });
    // E-mails waiting for the worker, or handed to it without a mail server (another check's server).
    for (const row of rows.filter((entry) => entry.channel === 'email'))
      expect(['queued', 'not_sent']).toContain(row.status);
  });
}
