import type { DataExportValuesAsOf } from '@cdms/contract';
import type { StudyDefinition } from '@cdms/study';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { type AmendmentChain, loadAmendmentChain, storedKeysLeadingTo } from '../studies/amendment-chain.ts';
import { currentStudyDefinition } from '../studies/study-definitions.ts';
import type { FormTablesOptions, FormTablesScope } from './form-tables-scope.ts';
import { type FormTable, formTablesOf, storedKeysOf } from './table-layout.ts';

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

/** A table with the stored keys it reads: its form's and items' keys under every version it shows. */
export interface ExportTable extends FormTable {
  reads: { formKeys: string[]; itemKeys: string[] };
}

export interface TablesContext {
  /** The current version: its visit order sorts the rows. */
  definition: StudyDefinition;
  siteCodes: Map<number, string>;
  pageSize: number;
  valuesAsOf: DataExportValuesAsOf;
  /** The published amendments: how a subject on an earlier version moves to the current one. */
  chain: AmendmentChain;
  tables: ExportTable[];
}

/**
 * What every table of an export needs before its rows: the current definition and the published
 * amendments, the tables with the keys they read, the sites.
 * - As of the current version, the tables are the current version's; each also reads the keys
 *   the amendments renamed into its form and items, so a subject still on an earlier version is
 *   found and moved (load-form-table-pages.ts).
 * - As entered, the tables are those of every version the subjects can be on (current first, then
 *   the earlier ones, newest first): an item an amendment retired or renamed away keeps its column,
 *   and a coded item's codebook has the codes of every version.
 */
export async function loadTablesContext(
  db: Kysely<Database>,
  options: Pick<FormTablesOptions, 'scope' | 'maskPersonalData' | 'valuesAsOf'>,
  pageSize: number,
): Promise<TablesContext> {
  const scope: FormTablesScope = options.scope;
  const masked = options.maskPersonalData ?? false;
  const valuesAsOf = options.valuesAsOf ?? 'current';
  const current = await currentStudyDefinition(db, scope.studyId);
  if (!current) throw new Error(`The study ${scope.studyId} has no definition.`);
  const chain = await loadAmendmentChain(db, scope.studyId, current.version);
  let tables: ExportTable[];
  if (valuesAsOf === 'current') {
    tables = formTablesOf(current.definition, scope.formKeys, masked).map((table) => ({
      ...table,
      reads: storedKeysLeadingTo(chain, table.formKey, storedKeysOf(table)),
    }));
  } else {
    const earlier = [...chain.amendments].reverse().map((amendment) => amendment.from.definition);
    tables = tablesOfEveryVersion([current.definition, ...earlier], scope.formKeys, masked).map((table) => ({
      ...table,
      reads: { formKeys: [table.formKey], itemKeys: storedKeysOf(table) },
    }));
  }
  return {
    definition: current.definition,
    siteCodes: await loadSiteCodes(db, scope.studyId),
    pageSize,
    valuesAsOf,
    chain,
    tables,
  };
}

/** The study's site codes by id (a study has tens of sites, not thousands). */
async function loadSiteCodes(db: Kysely<Database>, studyId: number): Promise<Map<number, string>> {
  const sites = await db.selectFrom('sites').select(['id', 'code']).where('study_id', '=', studyId).execute();
  return new Map(sites.map((site) => [site.id, site.code]));
}

/**
 * The tables of several versions of one study merged by name, newest version first: a table, a
 * column or a code an earlier version has and a later one lacks is added after the later one's.
 * A column is masked when any version flags its item as personal data.
 */
export function tablesOfEveryVersion(
  definitions: readonly StudyDefinition[],
  formKeys: readonly string[] | undefined,
  maskPersonalData: boolean,
): FormTable[] {
  const merged = new Map<string, FormTable>();
  for (const definition of definitions) {
    for (const table of formTablesOf(definition, formKeys, maskPersonalData)) {
      const known = merged.get(table.name);
      if (!known) {
        merged.set(table.name, table);
        continue;
      }
      for (const column of table.columns) {
        const index = known.columns.findIndex((candidate) => candidate.item.key === column.item.key);
        const same = known.columns[index];
        if (!same) {
          known.columns.push(column);
          continue;
        }
        const earlierCodes = (column.codes ?? []).filter(
          (code) => !(same.codes ?? []).some((candidate) => candidate.code === code.code),
        );
        known.columns[index] = {
          ...same,
          codes: same.codes && earlierCodes.length > 0 ? [...same.codes, ...earlierCodes] : same.codes,
          masked: same.masked || column.masked,
        };
      }
    }
  }
  return [...merged.values()];
}
