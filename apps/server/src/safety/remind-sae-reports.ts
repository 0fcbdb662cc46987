import type { Kysely } from 'kysely';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { SAE_REMINDER_HOURS_LEFT } from '../sae-state/sae-clock.ts';
import { notifySaeReminder } from '../sae-state/sae-notifications.ts';

/**
 * The SAE clock's reminders to the site (PI, SI, CRC) of each report not yet submitted: one when 12
 * hours or less are left, one once it is overdue. Each is written once per report and kind (the
 * notification's dedupe key), so running this every few minutes, from any number of processes, sends
 * each reminder once. A report whose clock started with less than 12 hours left (an awareness time
 * corrected into the past) gets the 12-hour reminder at once. Returns the messages written.
 */
export async function remindSaeReports(db: Kysely<Database>, now: Date = new Date()): Promise<number> {
  const soon = new Date(now.getTime() + SAE_REMINDER_HOURS_LEFT * 3_600_000);
  const due = await db
    .selectFrom('sae_reports as r')
    .innerJoin('subjects as s', 's.id', 'r.subject_id')
    .innerJoin('studies as st', 'st.id', 'r.study_id')
    .select([
      'r.id',
      'r.study_id',
      'r.site_id',
      'r.event_number',
      'r.due_at',
      'r.current_version',
      's.screening_number',
    ])
    .where('r.first_submitted_at', 'is', null)
    .where('r.due_at', '<=', soon)
    .where('s.deleted_at', 'is', null)
    .where('st.status', '=', 'active')
    .orderBy('r.due_at')
    .execute();
  let written = 0;
  for (const report of due) {
    const notice = {
      reportId: report.id,
      studyId: report.study_id,
      siteId: report.site_id,
      screeningNumber: report.screening_number,
      eventNumber: report.event_number,
      version: report.current_version,
      dueAt: report.due_at,
    };
    written += await inTransaction(db, async (trx) => {
      const kind = report.due_at.getTime() <= now.getTime() ? 'overdue' : 'twelveHoursLeft';
      // An overdue report that never got its 12-hour reminder gets only the overdue one.
      return notifySaeReminder(trx, notice, kind);
    });
  }
  return written;
}

/** Runs the reminders shortly after start and then every five minutes (unref'd timers). */
export function scheduleSaeReminders(
  db: Kysely<Database>,
  onError: (error: unknown) => void,
): { stop(): void } {
  const run = () => {
    remindSaeReports(db).catch(onError);
  };
  const first = setTimeout(run, 7_000);
  const every = setInterval(run, 5 * 60_000);
  first.unref();
  every.unref();
  return {
    stop: () => {
      clearTimeout(first);
      clearInterval(every);
    },
  };
}
