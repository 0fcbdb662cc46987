import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { currentStudyDefinition } from '../studies/study-definitions.ts';
import type { FormTablesOptions, FormTablesScope } from './form-tables-scope.ts';
import type { PageContext } from './load-form-table-pages.ts';
import { loadSiteCodes } from './load-form-table-pages.ts';
import { type FormTable, formTablesOf } from './table-layout.ts';

/** Told after each page: the stored values written so far (the total is countFormTableValues). */
export type ProgressListener = (done: { values: number }) => void;

/**
 * A writer of the per-form tables (CSV files in a ZIP, one XLSX workbook): the file's bytes as they
 * are made, page by page. The data export and the CLI choose one by format, so both take these.
 */
export type FormTablesWriter = (
  db: Kysely<Database>,
  options: FormTablesOptions,
  onProgress?: ProgressListener,
  pageSize?: number,
) => AsyncGenerator<Uint8Array>;

export interface TablesContext extends PageContext {
  tables: FormTable[];
}

/** What every table of an export needs before its rows: the current definition, its tables, the sites. */
export async function loadTablesContext(
  db: Kysely<Database>,
  scope: FormTablesScope,
  pageSize: number,
  maskPersonalData = false,
): Promise<TablesContext> {
  const current = await currentStudyDefinition(db, scope.studyId);
  if (!current) throw new Error(`The study ${scope.studyId} has no definition.`);
  return {
    definition: current.definition,
    tables: formTablesOf(current.definition, scope.formKeys, maskPersonalData),
    siteCodes: await loadSiteCodes(db, scope.studyId),
    pageSize,
  };
}
