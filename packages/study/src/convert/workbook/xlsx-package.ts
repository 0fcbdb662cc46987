import { strToU8, zipSync } from 'fflate';

/** The entries' modification time: a fixed day early in 1980, the zip format's first year, in any time zone. */
const ZIP_TIME = new Date(Date.UTC(1980, 0, 2));

/**
 * A minimal SpreadsheetML (XLSX) package written by hand: the parts Excel and LibreOffice need and no
 * more. Strings are inline (`t="inlineStr"`), so there is no shared-string table to keep in step; the
 * first row of each sheet is a bold header frozen in place.
 */

/** The media type of an XLSX file, for a download or an upload's check. */
export const XLSX_MEDIA_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** What a cell holds: text, a number or a boolean; undefined leaves the cell out. */
export type CellValue = string | number | boolean;

export interface SheetToWrite {
  /** At most 31 characters, none of : \ / ? * [ ] (Excel's rule for sheet names). */
  name: string;
  /** The header row (bold, frozen); null for a sheet of plain text such as the README. */
  header: string[] | null;
  rows: (CellValue | undefined)[][];
  /** Column widths in characters, by column; missing ones are left to the application. */
  widths?: number[];
}

/** "A" for 0, "Z" for 25, "AA" for 26… */
export function columnLetter(index: number): string {
  let letters = '';
  let rest = index + 1;
  while (rest > 0) {
    const digit = (rest - 1) % 26;
    letters = String.fromCharCode(65 + digit) + letters;
    rest = Math.floor((rest - 1) / 26);
  }
  return letters;
}

/**
 * Characters XML 1.0 cannot carry (most control characters, lone surrogates, U+FFFE and U+FFFF) and the
 * carriage return (which XML readers fold into a line feed) are written the way Excel writes them: as
 * `_xHHHH_`. A literal `_xHHHH_` in the text is escaped as `_x005F_xHHHH_` so that it reads back as typed.
 */
const LITERAL_ESCAPE = /_x[0-9A-Fa-f]{4}_/g;

/** Whether XML 1.0 carries the UTF-16 unit at `index` as it is (a surrogate only as part of a pair). */
function carriedByXml(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  if (code === 0x09 || code === 0x0a) return true;
  if (code < 0x20 || code === 0xfffe || code === 0xffff) return false;
  if (code >= 0xd800 && code <= 0xdbff) {
    const next = text.charCodeAt(index + 1);
    return next >= 0xdc00 && next <= 0xdfff;
  }
  if (code >= 0xdc00 && code <= 0xdfff) {
    const previous = text.charCodeAt(index - 1);
    return previous >= 0xd800 && previous <= 0xdbff;
  }
  return true;
}

export function escapeCellText(text: string): string {
  const escaped = text.replace(LITERAL_ESCAPE, (literal) => `_x005F${literal}`);
  let out = '';
  let from = 0;
  for (let index = 0; index < escaped.length; index += 1) {
    if (carriedByXml(escaped, index)) continue;
    const hex = escaped.charCodeAt(index).toString(16).toUpperCase().padStart(4, '0');
    out += `${escaped.slice(from, index)}_x${hex}_`;
    from = index + 1;
  }
  return from === 0 ? escaped : out + escaped.slice(from);
}

/** The reverse of `escapeCellText`, applied to every string read from a sheet. */
export function unescapeCellText(text: string): string {
  if (!text.includes('_x')) return text;
  return text.replace(LITERAL_ESCAPE, (sequence) =>
    String.fromCharCode(Number.parseInt(sequence.slice(2, 6), 16)),
  );
}

/** Text for an XML element or a double-quoted attribute. */
export function xmlEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const XML_HEADER = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PACKAGE_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';

function cellXml(reference: string, value: CellValue, style: number): string {
  const styleAttribute = style === 0 ? '' : ` s="${style}"`;
  if (typeof value === 'number') return `<c r="${reference}"${styleAttribute}><v>${String(value)}</v></c>`;
  if (typeof value === 'boolean')
    return `<c r="${reference}"${styleAttribute} t="b"><v>${value ? 1 : 0}</v></c>`;
  const text = xmlEscape(escapeCellText(value));
  return `<c r="${reference}"${styleAttribute} t="inlineStr"><is><t xml:space="preserve">${text}</t></is></c>`;
}

function rowXml(rowNumber: number, cells: (CellValue | undefined)[], style: number): string {
  const parts: string[] = [];
  cells.forEach((value, index) => {
    if (value === undefined || value === '') return;
    parts.push(cellXml(`${columnLetter(index)}${rowNumber}`, value, style));
  });
  return `<row r="${rowNumber}">${parts.join('')}</row>`;
}

function worksheetXml(sheet: SheetToWrite): string {
  const rows: string[] = [];
  const BOLD = 1;
  if (sheet.header) rows.push(rowXml(1, sheet.header, BOLD));
  const first = sheet.header ? 2 : 1;
  sheet.rows.forEach((row, index) => {
    rows.push(rowXml(first + index, row, 0));
  });
  // The header stays in view while the user scrolls (a frozen pane below row 1).
  const view = sheet.header
    ? '<sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/><selection pane="bottomLeft"/></sheetView>'
    : '<sheetView workbookViewId="0"/>';
  const widths = (sheet.widths ?? [])
    .map((width, index) => `<col min="${index + 1}" max="${index + 1}" width="${width}" customWidth="1"/>`)
    .join('');
  return (
    `${XML_HEADER}<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}">` +
    `<sheetViews>${view}</sheetViews><sheetFormatPr defaultRowHeight="15"/>` +
    (widths ? `<cols>${widths}</cols>` : '') +
    `<sheetData>${rows.join('')}</sheetData></worksheet>`
  );
}

/** Two cell formats: 0 the default, 1 bold (the header row). */
const STYLES_XML =
  `${XML_HEADER}<styleSheet xmlns="${MAIN_NS}">` +
  '<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts>' +
  '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
  '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
  '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
  '<cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
  '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs>' +
  '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
  '</styleSheet>';

/** The XLSX bytes of the sheets, in order. */
export function writeXlsx(sheets: SheetToWrite[]): Uint8Array {
  const sheetParts = sheets.map((_, index) => `worksheets/sheet${index + 1}.xml`);
  const contentTypes =
    `${XML_HEADER}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
    '<Default Extension="xml" ContentType="application/xml"/>' +
    '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
    '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
    sheetParts
      .map(
        (part) =>
          `<Override PartName="/xl/${part}" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`,
      )
      .join('') +
    '</Types>';
  const packageRels =
    `${XML_HEADER}<Relationships xmlns="${PACKAGE_REL_NS}">` +
    `<Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`;
  const workbook =
    `${XML_HEADER}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><bookViews><workbookView/></bookViews><sheets>` +
    sheets
      .map(
        (sheet, index) =>
          `<sheet name="${xmlEscape(sheet.name)}" sheetId="${index + 1}" r:id="rId${index + 1}"/>`,
      )
      .join('') +
    '</sheets></workbook>';
  const workbookRels =
    `${XML_HEADER}<Relationships xmlns="${PACKAGE_REL_NS}">` +
    sheetParts
      .map(
        (part, index) => `<Relationship Id="rId${index + 1}" Type="${REL_NS}/worksheet" Target="${part}"/>`,
      )
      .join('') +
    `<Relationship Id="rId${sheets.length + 1}" Type="${REL_NS}/styles" Target="styles.xml"/></Relationships>`;

  const files: Record<string, Uint8Array> = {
    '[Content_Types].xml': strToU8(contentTypes),
    '_rels/.rels': strToU8(packageRels),
    'xl/workbook.xml': strToU8(workbook),
    'xl/_rels/workbook.xml.rels': strToU8(workbookRels),
    'xl/styles.xml': strToU8(STYLES_XML),
  };
  sheets.forEach((sheet, index) => {
    files[`xl/${sheetParts[index]}`] = strToU8(worksheetXml(sheet));
  });
  // A fixed time stamp on every entry: the same definition gives the same bytes, whenever written.
  return zipSync(files, { level: 6, mtime: ZIP_TIME });
}
