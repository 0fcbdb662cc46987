import fs from 'node:fs';
import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Database } from '../db/schema.ts';
import {
  ExportScopeError,
  findSiteByRef,
  findStudyByRef,
  writePartialFile,
} from '../export-files/export-to-file.ts';
import { currentStudyDefinition } from '../studies/study-definitions.ts';
import { formTablesCsvZip } from './form-tables-csv-zip.ts';
import type { FormTablesOptions, FormTablesScope } from './form-tables-scope.ts';
import { formTablesXlsx } from './form-tables-xlsx.ts';
import { loadTablesContext } from './tables-context.ts';

/**
 * `export-tables`: a study's per-form tables streamed into a file (CSV files in a ZIP, or one XLSX
 * workbook), then audited. The bytes go to `<out>.partial` first and the file is renamed once
 * complete and audited, so a failed export never leaves a file that looks whole.
 */

export type TablesFormat = 'csv' | 'xlsx';
export const TABLES_FORMATS: readonly TablesFormat[] = ['csv', 'xlsx'];

export interface ExportTablesToFileInput {
  /** The study's id, or its code. */
  study: string;
  /** A site's code or institution number; every site when absent. */
  site?: string;
  /** Form keys; every form when absent. */
  forms?: string[];
  out: string;
  format: TablesFormat;
  labels: FormTablesOptions['labels'];
  /** As of the current version (when absent) or as entered: tables-context.ts. */
  valuesAsOf?: FormTablesOptions['valuesAsOf'];
}

/** The command's input names no study, site or form of the study (the exports' one error). */
export const TablesScopeError = ExportScopeError;

export async function exportTablesToFile(
  db: Kysely<Database>,
  actor: AuditActor,
  input: ExportTablesToFileInput,
) {
  const study = await findStudyByRef(db, input.study);
  const scope: FormTablesScope = { studyId: study.id };
  if (input.site !== undefined) scope.siteIds = [await findSiteByRef(db, study, input.site)];
  const current = await currentStudyDefinition(db, study.id);
  if (!current) throw new ExportScopeError(`Study ${study.code} has no definition.`);
  if (input.forms !== undefined) {
    const known = new Set(current.definition.forms.map((form) => form.key));
    const unknown = input.forms.filter((key) => !known.has(key));
    if (unknown.length > 0)
      throw new ExportScopeError(`Study ${study.code} has no form ${unknown.join(', ')}.`);
    scope.formKeys = input.forms;
  }

  let values = 0;
  const valuesAsOf = input.valuesAsOf ?? 'current';
  const options: FormTablesOptions = { scope, labels: input.labels, valuesAsOf };
  const onProgress = (done: { values: number }) => {
    values = done.values;
  };
  const chunks =
    input.format === 'csv'
      ? formTablesCsvZip(db, options, onProgress)
      : formTablesXlsx(db, options, onProgress);
  const partial = await writePartialFile(chunks, input.out);
  const tables = (await loadTablesContext(db, options, 0)).tables.length;
  await recordAudit(db, actor, {
    type: 'tables.exported',
    entityType: 'study',
    entityId: study.id,
    studyId: study.id,
    siteId: scope.siteIds?.[0] ?? null,
    after: {
      format: input.format,
      file: input.out,
      labels: input.labels,
      valuesAsOf,
      forms: scope.formKeys ?? null,
      tables,
      values,
    },
  });
  fs.renameSync(partial, input.out);
  return { studyCode: study.code, tables, values };
}
