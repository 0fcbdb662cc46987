import type { TableCell } from './table-cells.ts';

/**
 * The SpreadsheetML parts of an XLSX workbook, written as text so a sheet can be streamed row by
 * row: strings are inline (`t="inlineStr"`), so there is no shared-strings table to hold until the
 * end. Text cells are never formulas in SpreadsheetML, so they keep their value as stored.
 */

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const RELATIONSHIPS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PACKAGE_RELATIONSHIPS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

/**
 * Text as SpreadsheetML carries it: markup escaped; characters XML 1.0 cannot hold (control
 * characters) and the carriage return (which XML readers turn into a line feed) written as Excel's
 * `_xHHHH_`, and a literal `_xHHHH_` protected as `_x005F_xHHHH_`,
 * so a value reads back exactly as stored.
 */
export function spreadsheetText(text: string): string {
  return text
    .replace(/_x[0-9A-Fa-f]{4}_/g, (match) => `_x005F${match}`)
    .replace(/[&<>"]/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[char] ?? char)
    .replace(
      // biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters to escape
      /[\u0000-\u0008\u000B-\u001F\uFFFE\uFFFF]/g,
      (char) => `_x${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}_`,
    );
}

/** A, B, … Z, AA, AB, … — a cell's column letters. */
export function columnName(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26))
    name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/** One row; style 1 is the bold header. */
export function rowXml(rowNumber: number, cells: readonly TableCell[], style?: 1): string {
  const styleAttribute = style ? ` s="${style}"` : '';
  const body = cells
    .map((cell, index) => {
      if (cell === null) return '';
      const ref = `${columnName(index)}${rowNumber}`;
      if (typeof cell === 'number') return `<c r="${ref}"${styleAttribute}><v>${cell}</v></c>`;
      return `<c r="${ref}"${styleAttribute} t="inlineStr"><is><t xml:space="preserve">${spreadsheetText(cell)}</t></is></c>`;
    })
    .join('');
  return `<row r="${rowNumber}">${body}</row>`;
}

/** A worksheet's text before its rows: the header row stays in view when scrolling. */
export const SHEET_START = `${DECLARATION}<worksheet xmlns="${MAIN}"><sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews><sheetData>`;
export const SHEET_END = '</sheetData></worksheet>';

/** Excel's rules for sheet names: at most 31 characters, unique whatever the case. */
export function sheetNames(names: readonly string[]): string[] {
  const taken = new Set<string>();
  return names.map((name) => {
    let candidate = name.slice(0, 31);
    for (let n = 2; taken.has(candidate.toLowerCase()); n += 1)
      candidate = `${name.slice(0, 31 - String(n).length - 1)}~${n}`;
    taken.add(candidate.toLowerCase());
    return candidate;
  });
}

export function contentTypesXml(sheetCount: number): string {
  const sheets = Array.from(
    { length: sheetCount },
    (_, index) =>
      `<Override PartName="/xl/worksheets/sheet${index + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`,
  ).join('');
  return `${DECLARATION}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>${sheets}</Types>`;
}

export const ROOT_RELATIONSHIPS_XML = `${DECLARATION}<Relationships xmlns="${PACKAGE_RELATIONSHIPS}"><Relationship Id="rId1" Type="${RELATIONSHIPS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`;

export function workbookXml(names: readonly string[]): string {
  const sheets = names
    .map(
      (name, index) =>
        `<sheet name="${spreadsheetText(name)}" sheetId="${index + 1}" r:id="rId${index + 1}"/>`,
    )
    .join('');
  return `${DECLARATION}<workbook xmlns="${MAIN}" xmlns:r="${RELATIONSHIPS}"><sheets>${sheets}</sheets></workbook>`;
}

export function workbookRelationshipsXml(sheetCount: number): string {
  const sheets = Array.from(
    { length: sheetCount },
    (_, index) =>
      `<Relationship Id="rId${index + 1}" Type="${RELATIONSHIPS}/worksheet" Target="worksheets/sheet${index + 1}.xml"/>`,
  ).join('');
  return `${DECLARATION}<Relationships xmlns="${PACKAGE_RELATIONSHIPS}">${sheets}<Relationship Id="rId${sheetCount + 1}" Type="${RELATIONSHIPS}/styles" Target="styles.xml"/></Relationships>`;
}

/** Two cell formats: normal, and bold for the header row. */
export const STYLES_XML = `${DECLARATION}<styleSheet xmlns="${MAIN}"><fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`;
