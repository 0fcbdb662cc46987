import type {
  DataExport,
  DataExportFormat,
  DataExportLabels,
  DataExportScope,
  DataExportValuesAsOf,
} from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { Database, DataExportRow } from '../db/schema.ts';

/** What a job row keeps in `options`: the scope and the options asked for, as the request said. */
export interface StoredExportOptions {
  scope: DataExportScope;
  /** ODM only; the tables ignore it (they hold current values, not their history). */
  auditTrail: boolean;
  /** Table formats only; absent in jobs started before the tables were a format, and for codes only. */
  labels?: DataExportLabels;
  /** Absent in jobs started before amendments: they were in the current version's terms. */
  valuesAsOf?: DataExportValuesAsOf;
}

/** Job rows with their requester's name, newest first: the list and the single read share it. */
export function selectExports(db: Kysely<Database>, studyId: number) {
  return db
    .selectFrom('data_exports')
    .innerJoin('users', 'users.id', 'data_exports.requested_by')
    .selectAll('data_exports')
    .select('users.name as requested_by_name')
    .where('data_exports.study_id', '=', studyId);
}

export function toDataExport(row: DataExportRow & { requested_by_name: string }): DataExport {
  const options = row.options as StoredExportOptions;
  return {
    id: row.id,
    format: row.format as DataExportFormat,
    scope: options.scope,
    auditTrail: options.auditTrail,
    labels: options.labels ?? null,
    maskPersonalData: row.mask_personal_data,
    valuesAsOf: options.valuesAsOf ?? 'current',
    state: row.state,
    valuesTotal: row.values_total,
    valuesDone: row.values_done,
    subjectsDone: row.subjects_done,
    error: row.error,
    requestedBy: { id: row.requested_by, name: row.requested_by_name },
    createdAt: row.created_at.toISOString(),
    startedAt: row.started_at?.toISOString() ?? null,
    finishedAt: row.finished_at?.toISOString() ?? null,
    fileName: row.file_name,
    byteSize: row.byte_size === null ? null : Number(row.byte_size),
    sha256: row.sha256,
  };
}
