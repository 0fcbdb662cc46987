import fs from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Database } from '../db/schema.ts';
import { currentStudyDefinition } from '../studies/study-definitions.ts';
import { formTablesCsvZip } from './form-tables-csv-zip.ts';
import type { FormTablesOptions, FormTablesScope } from './form-tables-scope.ts';
import { formTablesXlsx } from './form-tables-xlsx.ts';
import { formTablesOf } from './table-layout.ts';

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
}

/** The command's input names no study, site or form of the study: said plainly, nothing written. */
export class TablesScopeError extends Error {}

export async function exportTablesToFile(
  db: Kysely<Database>,
  actor: AuditActor,
  input: ExportTablesToFileInput,
) {
  const byId = /^[1-9]\d{0,9}$/.test(input.study) ? Number(input.study) : undefined;
  const study = await db
    .selectFrom('studies')
    .select(['id', 'code'])
    .where((eb) =>
      byId !== undefined
        ? eb.or([eb('id', '=', byId), eb('code', '=', input.study)])
        : eb('code', '=', input.study),
    )
    .executeTakeFirst();
  if (!study) throw new TablesScopeError(`There is no study ${input.study}.`);
  const scope: FormTablesScope = { studyId: study.id };
  if (input.site !== undefined) {
    const siteRef = input.site;
    const site = await db
      .selectFrom('sites')
      .select('id')
      .where('study_id', '=', study.id)
      .where((eb) =>
        eb.or([eb('code', '=', siteRef), eb('institution_number', '=', siteRef.padStart(2, '0'))]),
      )
      .executeTakeFirst();
    if (!site) throw new TablesScopeError(`Study ${study.code} has no site ${input.site}.`);
    scope.siteIds = [site.id];
  }
  const current = await currentStudyDefinition(db, study.id);
  if (!current) throw new TablesScopeError(`Study ${study.code} has no definition.`);
  if (input.forms !== undefined) {
    const known = new Set(current.definition.forms.map((form) => form.key));
    const unknown = input.forms.filter((key) => !known.has(key));
    if (unknown.length > 0)
      throw new TablesScopeError(`Study ${study.code} has no form ${unknown.join(', ')}.`);
    scope.formKeys = input.forms;
  }

  let values = 0;
  const options: FormTablesOptions = { scope, labels: input.labels };
  const onProgress = (done: { values: number }) => {
    values = done.values;
  };
  const chunks =
    input.format === 'csv'
      ? formTablesCsvZip(db, options, onProgress)
      : formTablesXlsx(db, options, onProgress);
  const partial = `${input.out}.partial`;
  try {
    await pipeline(Readable.from(chunks), fs.createWriteStream(partial));
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw error;
  }
  const tables = formTablesOf(current.definition, scope.formKeys).length;
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
      forms: scope.formKeys ?? null,
      tables,
      values,
    },
  });
  fs.renameSync(partial, input.out);
  return { studyCode: study.code, tables, values };
}
