/** Per-form tables (issue 16 "Data out", item 3): CSV files in a ZIP or one XLSX workbook, streamed. */
export { countFormTableValues } from './count-form-table-values.ts';
export {
  type ExportTablesToFileInput,
  exportTablesToFile,
  TABLES_FORMATS,
  type TablesFormat,
  TablesScopeError,
} from './export-tables-to-file.ts';
export { formTablesCsvZip } from './form-tables-csv-zip.ts';
export type { FormTablesOptions, FormTablesScope } from './form-tables-scope.ts';
export { formTablesXlsx } from './form-tables-xlsx.ts';
export type { FormTablesWriter, ProgressListener } from './tables-context.ts';
