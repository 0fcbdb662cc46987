import { emptySaeContent } from '@cdms/contract';
import type { FormValues, JsonValue } from '@cdms/study';
import type { AfterChange } from '../after-change/form-change.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { dueAtOf } from './sae-clock.ts';
import { notifySaeStarted } from './sae-notifications.ts';

type Row = { [item: string]: JsonValue };

/** The rows of the group on a form's values (objects only, as stored). */
function rowsOf(values: FormValues, group: string): Row[] {
  const rows = (values as Record<string, JsonValue | undefined>)[group];
  return Array.isArray(rows)
    ? rows.map((row) => (row !== null && typeof row === 'object' && !Array.isArray(row) ? row : {}))
    : [];
}

/**
 * Issue 51 item 1: a save that answers an adverse event "serious" starts its SAE report, in the save's
 * transaction. The event is the row of the study's `adverseEvents` role group (`rows`) on the role's
 * form, by its 1-based position — the identity the adverse event listing shows (read-model/report-rows.ts).
 * One report per event (the unique key of `sae_reports`): saving the row again, or answering it serious
 * again after a "no", starts nothing new. The awareness time is the save's time; the site may correct
 * it (change-sae-awareness.ts). Each save also keeps the reports' event terms current.
 */
export const startSaeReportsAfterChange: AfterChange = async (change) => {
  const role = change.definition.roles?.adverseEvents;
  if (!role || change.visitKey !== role.visit || change.formKey !== role.form) return;
  const rows = rowsOf(change.after, role.rows);
  const { trx, subject } = change;
  const termOf = (row: Row) => {
    const term = role.term ? row[role.term] : undefined;
    return typeof term === 'string' ? term.slice(0, 500) : '';
  };

  const existing = await trx
    .selectFrom('sae_reports')
    .select(['id', 'event_number', 'term'])
    .where('subject_id', '=', subject.id)
    .where('visit_key', '=', change.visitKey)
    .where('form_key', '=', change.formKey)
    .execute();
  const byNumber = new Map(existing.map((report) => [report.event_number, report]));

  for (const [index, row] of rows.entries()) {
    const eventNumber = index + 1;
    const term = termOf(row);
    const report = byNumber.get(eventNumber);
    if (report) {
      if (report.term !== term)
        await trx.updateTable('sae_reports').set({ term }).where('id', '=', report.id).execute();
      continue;
    }
    if (row[role.serious] !== 'Y') continue;
    const awarenessAt = change.at;
    const dueAt = dueAtOf(awarenessAt);
    const started = await trx
      .insertInto('sae_reports')
      .values({
        study_id: subject.study_id,
        site_id: subject.site_id,
        subject_id: subject.id,
        visit_key: change.visitKey,
        form_key: change.formKey,
        event_number: eventNumber,
        term,
        awareness_at: awarenessAt,
        due_at: dueAt,
      })
      .onConflict((conflict) =>
        conflict.columns(['subject_id', 'visit_key', 'form_key', 'event_number']).doNothing(),
      )
      .returning('id')
      .executeTakeFirst();
    if (!started) continue;
    await trx
      .insertInto('sae_report_versions')
      .values({
        report_id: started.id,
        version: 1,
        content: JSON.stringify(emptySaeContent),
        saved_by: change.actor.userId,
        saved_at: awarenessAt,
      })
      .execute();
    await recordAudit(trx, change.actor, {
      type: 'sae.started',
      entityType: 'sae_report',
      entityId: started.id,
      studyId: subject.study_id,
      siteId: subject.site_id,
      subjectId: subject.id,
      after: {
        eventNumber,
        status: 'draft',
        awarenessAt: awarenessAt.toISOString(),
        dueAt: dueAt.toISOString(),
      },
    });
    await notifySaeStarted(
      trx,
      {
        reportId: started.id,
        studyId: subject.study_id,
        siteId: subject.site_id,
        screeningNumber: subject.screening_number,
        eventNumber,
        version: 1,
        dueAt,
      },
      change.actor.userId,
    );
  }
};
