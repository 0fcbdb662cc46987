import { csvField } from '../subjects/subject-export.ts';
import { CODEBOOK_NAME, codebookHeader, codebookRows } from './codebook.ts';
import { formTablePages } from './load-form-table-pages.ts';
import { rowCells, type TableCell } from './table-cells.ts';
import { headerOf } from './table-layout.ts';
import { type FormTablesWriter, loadTablesContext } from './tables-context.ts';
import { zipStream } from './zip-stream.ts';

/**
 * Per-form tables as CSV files in one ZIP, streamed: `codebook.csv` first, then one `<table>.csv`
 * per table (see table-layout.ts). Each CSV is UTF-8 with a byte-order mark (so Excel reads Korean),
 * CRLF line ends, RFC 4180 quoting and the formula guard of every CSV the server writes.
 * A failure of the database mid-way makes the iterable throw: the caller discards what it wrote.
 */

const line = (cells: readonly TableCell[]) => `${cells.map(csvField).join(',')}\r\n`;

export const formTablesCsvZip: FormTablesWriter = async function* (db, options, onProgress, pageSize = 500) {
  const masked = options.maskPersonalData ?? false;
  const context = await loadTablesContext(db, options, pageSize);
  let done = 0;
  async function* tableCsv(table: (typeof context.tables)[number]) {
    yield `\uFEFF${line(headerOf(table, options.labels !== null))}`;
    for await (const page of formTablePages(db, options.scope, table, context)) {
      if (page.rows.length > 0)
        yield page.rows.map((row) => line(rowCells(table, row, options.labels))).join('');
      done += page.values;
      onProgress?.({ values: done });
    }
  }
  function* entries() {
    yield {
      name: `${CODEBOOK_NAME}.csv`,
      content: [
        `\uFEFF${line(codebookHeader(masked))}`,
        codebookRows(context.tables, masked).map(line).join(''),
      ],
    };
    for (const table of context.tables) yield { name: `${table.name}.csv`, content: tableCsv(table) };
  }
  yield* zipStream(entries());
};
