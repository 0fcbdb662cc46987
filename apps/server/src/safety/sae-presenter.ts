import {
  emptySaeContent,
  type SaeContent,
  type SaeReport,
  type SaeReportSummary,
  type SaeVersion,
  saeContentSchema,
} from '@cdms/contract';
import type { Kysely, Transaction } from 'kysely';
import { can } from '../auth/permissions.ts';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import { isOverdue } from '../sae-state/sae-clock.ts';

type Executor = Kysely<Database> | Transaction<Database>;

/** The columns of a report row the summary needs. */
export interface SaeSummaryRow {
  id: number;
  site_id: number;
  site_name: string;
  subject_id: number;
  screening_number: string;
  visit_key: string;
  form_key: string;
  event_number: number;
  term: string;
  status: 'draft' | 'submitted' | 'acknowledged';
  awareness_at: Date;
  due_at: Date;
  current_version: number;
  row_version: number;
  first_submitted_at: Date | null;
}

export function presentSaeSummary(row: SaeSummaryRow, now: Date): SaeReportSummary {
  return {
    id: row.id,
    siteId: row.site_id,
    site: row.site_name,
    subjectId: row.subject_id,
    screeningNumber: row.screening_number,
    visitKey: row.visit_key,
    formKey: row.form_key,
    eventNumber: row.event_number,
    term: row.term,
    status: row.status,
    awarenessAt: row.awareness_at.toISOString(),
    dueAt: row.due_at.toISOString(),
    overdue: isOverdue(row, now),
    currentVersion: row.current_version,
    rowVersion: row.row_version,
    firstSubmittedAt: row.first_submitted_at?.toISOString() ?? null,
  };
}

/** Stored content read back through its schema (a stored version always passed it). */
export function contentOf(stored: unknown): SaeContent {
  const parsed = saeContentSchema.safeParse(stored);
  return parsed.success ? parsed.data : emptySaeContent;
}

/** Every version of a report, oldest first, with the names of who saved, signed, acknowledged. */
export async function saeVersionsOf(db: Executor, reportId: number): Promise<SaeVersion[]> {
  const rows = await db
    .selectFrom('sae_report_versions as v')
    .leftJoin('users as saver', 'saver.id', 'v.saved_by')
    .select([
      'v.version',
      'v.content',
      'v.saved_at',
      'saver.name as saved_name',
      'v.submitted_at',
      'v.submitted_name',
      'v.signature_meaning',
      'v.acknowledged_at',
      'v.acknowledged_name',
    ])
    .where('v.report_id', '=', reportId)
    .orderBy('v.version')
    .execute();
  return rows.map((row) => ({
    version: row.version,
    kind: row.version === 1 ? 'initial' : 'followUp',
    content: contentOf(row.content),
    savedAt: row.saved_at.toISOString(),
    savedBy: row.saved_name,
    submittedAt: row.submitted_at?.toISOString() ?? null,
    submittedBy: row.submitted_name,
    signatureMeaning: (row.signature_meaning as { ko: string; en: string } | null) ?? null,
    acknowledgedAt: row.acknowledged_at?.toISOString() ?? null,
    acknowledgedBy: row.acknowledged_name,
  }));
}

/** The whole report as the caller sees it, with what they may do next. */
export async function presentSaeReport(
  db: Executor,
  principal: Principal,
  row: SaeSummaryRow & { study_id: number },
  now: Date = new Date(),
): Promise<SaeReport> {
  const versions = await saeVersionsOf(db, row.id);
  const scope = { studyId: row.study_id, siteId: row.site_id };
  const current = versions.find((version) => version.version === row.current_version);
  const draft = current !== undefined && current.submittedAt === null;
  return {
    ...presentSaeSummary(row, now),
    versions,
    canEdit: draft && can(principal, 'sae.report', scope),
    canSubmit: draft && can(principal, 'sae.submit', scope),
    canFollowUp: !draft && can(principal, 'sae.report', scope),
    canAcknowledge:
      current !== undefined &&
      current.submittedAt !== null &&
      current.acknowledgedAt === null &&
      can(principal, 'sae.acknowledge', scope),
  };
}
