import { CODEBOOK_NAME, codebookHeader, codebookRows } from './codebook.ts';
import { formTablePages } from './load-form-table-pages.ts';
import {
  contentTypesXml,
  ROOT_RELATIONSHIPS_XML,
  rowXml,
  SHEET_END,
  SHEET_START,
  STYLES_XML,
  sheetNames,
  workbookRelationshipsXml,
  workbookXml,
} from './spreadsheet-xml.ts';
import { rowCells } from './table-cells.ts';
import { headerOf } from './table-layout.ts';
import { type ExportTable, type FormTablesWriter, loadTablesContext } from './tables-context.ts';
import { zipStream } from './zip-stream.ts';

/**
 * Per-form tables as one XLSX workbook, streamed: the sheet "codebook" first, then one sheet per
 * table (see table-layout.ts), each written page by page into the ZIP that an XLSX file is. The
 * workbook's parts that list the sheets are written first — the tables are known from the
 * definition before any row is read. A failure mid-way makes the iterable throw.
 * (A sheet holds at most 1,048,576 rows in Excel; larger tables are for the CSV export.)
 */
export const formTablesXlsx: FormTablesWriter = async function* (db, options, onProgress, pageSize = 500) {
  const masked = options.maskPersonalData ?? false;
  const context = await loadTablesContext(db, options, pageSize);
  const names = sheetNames([CODEBOOK_NAME, ...context.tables.map((table) => table.name)]);
  let done = 0;

  function* codebookSheet() {
    yield SHEET_START + rowXml(1, codebookHeader(masked), 1);
    yield codebookRows(context.tables, masked)
      .map((cells, index) => rowXml(index + 2, cells))
      .join('');
    yield SHEET_END;
  }
  async function* tableSheet(table: ExportTable) {
    yield SHEET_START + rowXml(1, headerOf(table, options.labels !== null), 1);
    let rowNumber = 1;
    for await (const page of formTablePages(db, options.scope, table, context)) {
      if (page.rows.length > 0)
        yield page.rows
          .map((row) => {
            rowNumber += 1;
            return rowXml(rowNumber, rowCells(table, row, options.labels));
          })
          .join('');
      done += page.values;
      onProgress?.({ values: done });
    }
    yield SHEET_END;
  }
  function* entries() {
    yield { name: '[Content_Types].xml', content: [contentTypesXml(names.length)] };
    yield { name: '_rels/.rels', content: [ROOT_RELATIONSHIPS_XML] };
    yield { name: 'xl/workbook.xml', content: [workbookXml(names)] };
    yield { name: 'xl/_rels/workbook.xml.rels', content: [workbookRelationshipsXml(names.length)] };
    yield { name: 'xl/styles.xml', content: [STYLES_XML] };
    yield { name: 'xl/worksheets/sheet1.xml', content: codebookSheet() };
    for (const [index, table] of context.tables.entries())
      yield { name: `xl/worksheets/sheet${index + 2}.xml`, content: tableSheet(table) };
  }
  yield* zipStream(entries());
};
