import { z } from 'zod';
import { bodyIdSchema, pagedShape, pageQueryShape } from './ids.ts';
import { subjectStatusSchema } from './subjects.ts';

/**
 * Data out (issue 16): export jobs of a study (DM, ADMIN). Starting an export queues a job; a runner
 * in one of the server processes streams the chosen format into the database, chunk by chunk, and
 * reports progress (item values done of the total). The finished file is downloaded from there.
 * A failed or cancelled export keeps no bytes: only a `done` export can be downloaded.
 *
 * Routes (all under /api/studies/:studyId/data-exports):
 *   POST /                     start (startDataExportRequestSchema) → 201 DataExport (queued; audited)
 *   GET  /                     the study's exports, newest first (dataExportsQuerySchema) → DataExportsResponse
 *   GET  /:exportId            one export and its progress → DataExport
 *   POST /:exportId/cancel     cancel a queued or running export → DataExport; finished → 409
 *                              `data_export_finished`
 *   GET  /:exportId/download   the file (Content-Disposition: attachment; audited); not done → 409
 *                              `data_export_not_ready`
 * A site or form the study does not have is a 422 `data_export_unknown_scope` (details `{ siteIds,
 * formKeys }`). Value labels asked of an ODM format are a 422 `data_export_labels_not_for_format`
 * (and values `entered` a 422 `data_export_as_entered_not_for_format`):
 * ODM carries its code lists itself, and silently dropping a choice would surprise the data manager.
 */

/** The formats a job can produce. A new format is one entry here and one in the server's registry. */
export const dataExportFormats = ['odm-1.3.2', 'odm-2.0', 'tables-csv', 'tables-xlsx'] as const;
export type DataExportFormat = (typeof dataExportFormats)[number];

/** The per-form table formats: a ZIP of CSVs with a codebook, or one XLSX workbook. */
export const dataExportTableFormats = [
  'tables-csv',
  'tables-xlsx',
] as const satisfies readonly DataExportFormat[];
export function isTableFormat(format: DataExportFormat): boolean {
  return (dataExportTableFormats as readonly DataExportFormat[]).includes(format);
}

/**
 * Which definition version the values are given in, when a study has published amendments:
 * - `current`: every value in the current version's terms — a subject still on an earlier version has
 *   its values moved as its migration would move them (renamed, re-coded, converted; retired ones left
 *   out), so one column means one thing for every subject;
 * - `entered`: every value as it was entered, in the terms of the version it was entered under — a
 *   change a migration made is shown as it was before it, retired values are back in their columns,
 *   and the tables have the forms and items of every version.
 * `entered` is for the table formats: an ODM file carries each value's history (what was entered,
 * and every change since) in its audit trail.
 */
export const dataExportValuesAsOf = ['current', 'entered'] as const;
export type DataExportValuesAsOf = (typeof dataExportValuesAsOf)[number];

/** The languages a table export can add value labels in (beside the codes). */
export const dataExportLabelLanguages = ['ko', 'en'] as const;
export type DataExportLabels = (typeof dataExportLabelLanguages)[number];

export const dataExportStates = ['queued', 'running', 'done', 'failed', 'cancelled'] as const;
export type DataExportState = (typeof dataExportStates)[number];

export const DATA_EXPORT_PAGE_SIZES = [10, 20, 50] as const;

const formKeySchema = z.string().min(1).max(100);

/** What to export: every subject and form of the study unless narrowed. An empty list is refused. */
export const dataExportScopeSchema = z.strictObject({
  siteIds: z.array(bodyIdSchema).min(1).max(500).optional(),
  statuses: z.array(subjectStatusSchema).min(1).max(5).optional(),
  formKeys: z.array(formKeySchema).min(1).max(500).optional(),
});
export type DataExportScope = z.infer<typeof dataExportScopeSchema>;

export const startDataExportRequestSchema = z.strictObject({
  format: z.enum(dataExportFormats),
  scope: dataExportScopeSchema,
  /**
   * With the audit trail of every value (who changed it to what, when and why). ODM only: the
   * tables hold current values, so the flag has no meaning for them (stored as sent, unused).
   */
  auditTrail: z.boolean(),
  /** Table formats only: a label column in this language after each coded item; codes only when absent. */
  labels: z.enum(dataExportLabelLanguages).optional(),
  /**
   * Withhold every value of the items the study definition flags as personal data (`personalData`):
   * ODM leaves their ItemData out; the tables keep their columns with blank cells, and the codebook
   * says so. Every format honours it.
   */
  maskPersonalData: z.boolean().default(false),
  /** `current` when absent; `entered` is for the table formats only (with ODM a 422 `data_export_as_entered_not_for_format`). */
  valuesAsOf: z.enum(dataExportValuesAsOf).optional(),
});
export type StartDataExportRequest = z.input<typeof startDataExportRequestSchema>;

export const dataExportSchema = z.object({
  id: z.number().int(),
  format: z.enum(dataExportFormats),
  scope: dataExportScopeSchema,
  auditTrail: z.boolean(),
  /** The table formats' label language; null for codes only (and for every ODM export). */
  labels: z.enum(dataExportLabelLanguages).nullable(),
  /** The personal-data items' values were withheld from the file. */
  maskPersonalData: z.boolean(),
  /** The version the table formats give the values in (`current` for every ODM export). */
  valuesAsOf: z.enum(dataExportValuesAsOf),
  state: z.enum(dataExportStates),
  /** Known once the job has counted what it will write. */
  valuesTotal: z.number().int().nullable(),
  valuesDone: z.number().int(),
  subjectsDone: z.number().int(),
  /** Why a failed export failed (for the data manager; no data in it). */
  error: z.string().nullable(),
  requestedBy: z.object({ id: z.number().int(), name: z.string() }),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  fileName: z.string().nullable(),
  byteSize: z.number().int().nullable(),
  sha256: z.string().nullable(),
});
export type DataExport = z.infer<typeof dataExportSchema>;

export const dataExportsQuerySchema = z.object({
  ...pageQueryShape(DATA_EXPORT_PAGE_SIZES, 10),
});
export type DataExportsQuery = z.input<typeof dataExportsQuerySchema>;

export const dataExportsResponseSchema = z.object({
  exports: z.array(dataExportSchema),
  ...pagedShape,
});
export type DataExportsResponse = z.infer<typeof dataExportsResponseSchema>;
