import { XMLParser } from 'fast-xml-parser';
import { strFromU8, unzipSync } from 'fflate';
import type { LocalizedText } from '../../model/localized-text.ts';
import { type CellValue, unescapeCellText } from './xlsx-package.ts';

/**
 * The sheets of an XLSX file as rows of cells, whatever wrote it: our own inline strings, or the shared
 * strings Excel and LibreOffice save with (rich-text runs included), numbers and booleans. The file is
 * untrusted, so its size is checked before anything is inflated and XML with a DOCTYPE is refused.
 */

/** The most uncompressed bytes the parts we read may declare together (a design workbook is a few MB). */
export const MAX_UNCOMPRESSED_BYTES = 64 * 1024 * 1024;
/** The most entries a workbook zip may hold (Excel writes a dozen or two). */
export const MAX_ZIP_ENTRIES = 1000;
/** The most rows a sheet may have below its header, as for a REDCap dictionary (MAX_CSV_ROWS). */
export const MAX_SHEET_ROWS = 20_000;

export interface SheetRow {
  /** The spreadsheet's row number (1 = the first row). */
  line: number;
  /** The cells by column index (0 = A); skipped cells are absent. */
  cells: Map<number, CellValue>;
}

export interface WorkbookSheet {
  name: string;
  rows: SheetRow[];
}

export interface XlsxRead {
  /** The sheets in workbook order, or null when the file cannot be read as a workbook. */
  sheets: WorkbookSheet[] | null;
  errors: LocalizedText[];
}

class RefusedZip extends Error {
  readonly reason: LocalizedText;
  constructor(reason: LocalizedText) {
    super(reason.en);
    this.reason = reason;
  }
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  // Some writers prefix every element (`x:row`); the local names are what matter.
  removeNSPrefix: true,
  // Values stay text: a code "01" must not become the number 1.
  parseTagValue: false,
  parseAttributeValue: false,
  // Leading and trailing spaces of a label are part of it.
  trimValues: false,
  // Numeric character references (&#10;) are decoded; there is no DTD, so no other entity exists.
  htmlEntities: true,
  isArray: (name, _path, _leaf, isAttribute) =>
    !isAttribute && ['sheet', 'Relationship', 'row', 'c', 'si', 'r'].includes(name),
});

type XmlNode = Record<string, unknown>;

function asNode(value: unknown): XmlNode {
  return typeof value === 'object' && value !== null ? (value as XmlNode) : {};
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : value === undefined ? [] : [value];
}

/** The text of an element that may carry attributes (`<t xml:space="preserve">`). */
function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const text = asNode(value)['#text'];
  return text === undefined ? '' : String(text);
}

/** The text of a string item: plain (`<t>`) or rich-text runs (`<r><t>`); phonetic runs are left out. */
function stringItemText(item: unknown): string {
  const node = asNode(item);
  if (node.t !== undefined) return textOf(node.t);
  return asArray(node.r)
    .map((run) => textOf(asNode(run).t))
    .join('');
}

/** Row and column of a cell reference such as "C12" (column 2, row 12); undefined when it is not one. */
export function parseCellReference(reference: string): { row: number; column: number } | undefined {
  let column = 0;
  let index = 0;
  while (index < reference.length) {
    const code = reference.charCodeAt(index);
    const upper = code >= 97 && code <= 122 ? code - 32 : code;
    if (upper < 65 || upper > 90) break;
    column = column * 26 + (upper - 64);
    index += 1;
  }
  const digits = reference.slice(index);
  if (index === 0 || digits === '' || !/^\d+$/.test(digits)) return undefined;
  return { row: Number(digits), column: column - 1 };
}

const NOT_A_WORKBOOK: LocalizedText = {
  en: 'the file is not an Excel workbook (.xlsx): it is not a zip archive',
  ko: '엑셀 통합 문서(.xlsx) 파일이 아닙니다: zip 형식이 아닙니다',
};

/** The parts we read (XML and relationships), inflated only after their declared sizes pass the caps. */
function unzipParts(bytes: Uint8Array): Record<string, Uint8Array> {
  let entries = 0;
  let declared = 0;
  const files = unzipSync(bytes, {
    filter(file) {
      entries += 1;
      if (entries > MAX_ZIP_ENTRIES)
        throw new RefusedZip({
          en: `the workbook holds more than ${MAX_ZIP_ENTRIES} files: refused`,
          ko: `통합 문서 안의 파일이 ${MAX_ZIP_ENTRIES}개를 넘어 거부합니다`,
        });
      if (!file.name.endsWith('.xml') && !file.name.endsWith('.rels')) return false;
      declared += file.originalSize;
      if (declared > MAX_UNCOMPRESSED_BYTES)
        throw new RefusedZip({
          en: `the workbook would unpack to more than ${MAX_UNCOMPRESSED_BYTES / 1024 / 1024} MB: refused`,
          ko: `통합 문서의 압축을 풀면 ${MAX_UNCOMPRESSED_BYTES / 1024 / 1024} MB를 넘어 거부합니다`,
        });
      return true;
    },
  });
  // fflate inflates into a buffer of the declared size; a header that lies cannot make more than that,
  // but the sum is checked again on what came out.
  let actual = 0;
  for (const data of Object.values(files)) actual += data.length;
  if (actual > MAX_UNCOMPRESSED_BYTES)
    throw new RefusedZip({
      en: 'the workbook unpacks too large: refused',
      ko: '통합 문서의 압축을 푼 크기가 너무 커 거부합니다',
    });
  return files;
}

/** The XML of a part, refusing a DOCTYPE (entity expansion, external entities). */
function parsePart(files: Record<string, Uint8Array>, path: string): XmlNode | undefined {
  const data = files[path];
  if (!data) return undefined;
  const text = strFromU8(data);
  // A token check, not parsing: OOXML never has a DTD, so any DOCTYPE or ENTITY is refused outright.
  if (/<!DOCTYPE|<!ENTITY/i.test(text))
    throw new RefusedZip({
      en: `${path}: XML with a DOCTYPE or ENTITY declaration is refused`,
      ko: `${path}: DOCTYPE 또는 ENTITY 선언이 있는 XML은 거부합니다`,
    });
  return asNode(parser.parse(text));
}

/** A relationship target resolved against the folder of the part that names it. */
function resolveTarget(fromFolder: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const parts = fromFolder === '' ? [] : fromFolder.split('/');
  for (const segment of target.split('/')) {
    if (segment === '..') parts.pop();
    else if (segment !== '.' && segment !== '') parts.push(segment);
  }
  return parts.join('/');
}

function relationships(
  files: Record<string, Uint8Array>,
  path: string,
): { id: string; type: string; target: string }[] {
  const root = asNode(parsePart(files, path)?.Relationships);
  return asArray(root.Relationship).map((entry) => {
    const node = asNode(entry);
    return {
      id: String(node['@_Id'] ?? ''),
      type: String(node['@_Type'] ?? ''),
      target: String(node['@_Target'] ?? ''),
    };
  });
}

function folderOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

function cellValue(cell: XmlNode, sharedStrings: string[]): CellValue | undefined {
  const type = String(cell['@_t'] ?? 'n');
  if (type === 'inlineStr') return unescapeCellText(stringItemText(cell.is));
  const raw = cell.v === undefined ? undefined : textOf(cell.v);
  if (raw === undefined) return undefined;
  if (type === 's') return unescapeCellText(sharedStrings[Number(raw)] ?? '');
  if (type === 'b') return raw.trim() === '1' || raw.trim().toLowerCase() === 'true';
  if (type === 'n') {
    const number = Number(raw);
    return raw.trim() !== '' && Number.isFinite(number) ? number : raw;
  }
  // str (a formula's text), e (an error such as #N/A), d (an ISO date): their text.
  return unescapeCellText(raw);
}

function readSheetRows(
  root: XmlNode,
  sheetName: string,
  sharedStrings: string[],
  errors: LocalizedText[],
): SheetRow[] {
  const sheetData = asNode(asNode(root.worksheet).sheetData);
  const rows: SheetRow[] = [];
  let previousRow = 0;
  for (const rowEntry of asArray(sheetData.row)) {
    const rowNode = asNode(rowEntry);
    // Rows and cells may leave out their reference; then they follow the one before.
    const line = rowNode['@_r'] === undefined ? previousRow + 1 : Number(rowNode['@_r']);
    previousRow = line;
    const cells = new Map<number, CellValue>();
    let previousColumn = -1;
    for (const cellEntry of asArray(rowNode.c)) {
      const cell = asNode(cellEntry);
      const reference = cell['@_r'] === undefined ? undefined : parseCellReference(String(cell['@_r']));
      const column = reference ? reference.column : previousColumn + 1;
      previousColumn = column;
      const value = cellValue(cell, sharedStrings);
      if (value !== undefined && value !== '') cells.set(column, value);
    }
    if (cells.size === 0) continue;
    // The header plus MAX_SHEET_ROWS rows; one more is kept so the reader can tell it was cut.
    if (rows.length > MAX_SHEET_ROWS) {
      errors.push({
        en: `sheet ${sheetName} has more than ${MAX_SHEET_ROWS.toLocaleString('en')} rows`,
        ko: `${sheetName} 시트의 행이 ${MAX_SHEET_ROWS.toLocaleString('ko')}개를 넘습니다`,
      });
      break;
    }
    rows.push({ line, cells });
  }
  return rows;
}

/** The sheets of an XLSX file, resolved by name through the workbook and its relationships. */
export function readXlsx(bytes: Uint8Array): XlsxRead {
  const errors: LocalizedText[] = [];
  // Excel 97–2003 files are OLE compound documents: say so rather than "not a zip".
  if (bytes.length >= 4 && bytes[0] === 0xd0 && bytes[1] === 0xcf && bytes[2] === 0x11 && bytes[3] === 0xe0) {
    return {
      sheets: null,
      errors: [
        {
          en: 'the file is an old Excel 97–2003 workbook (.xls): save it as .xlsx and upload again',
          ko: '예전 엑셀 97–2003 형식(.xls)입니다: .xlsx로 저장한 뒤 다시 올려 주세요',
        },
      ],
    };
  }
  if (bytes.length < 22 || bytes[0] !== 0x50 || bytes[1] !== 0x4b)
    return { sheets: null, errors: [NOT_A_WORKBOOK] };
  try {
    const files = unzipParts(bytes);
    const officeDocument = relationships(files, '_rels/.rels').find((rel) =>
      rel.type.endsWith('/officeDocument'),
    );
    const workbookPath = officeDocument ? resolveTarget('', officeDocument.target) : 'xl/workbook.xml';
    const workbook = parsePart(files, workbookPath);
    if (!workbook)
      return {
        sheets: null,
        errors: [
          {
            en: 'the file is a zip but not an Excel workbook (no workbook part)',
            ko: 'zip 파일이지만 엑셀 통합 문서가 아닙니다(workbook 없음)',
          },
        ],
      };
    const folder = folderOf(workbookPath);
    const slash = workbookPath.lastIndexOf('/');
    const workbookRels = relationships(
      files,
      `${folder === '' ? '' : `${folder}/`}_rels/${workbookPath.slice(slash + 1)}.rels`,
    );
    const sharedStringsRel = workbookRels.find((rel) => rel.type.endsWith('/sharedStrings'));
    const sharedStringsRoot = parsePart(
      files,
      sharedStringsRel ? resolveTarget(folder, sharedStringsRel.target) : `${folder}/sharedStrings.xml`,
    );
    const sharedStrings = asArray(asNode(sharedStringsRoot?.sst).si).map(stringItemText);

    const sheets: WorkbookSheet[] = [];
    for (const entry of asArray(asNode(asNode(workbook.workbook).sheets).sheet)) {
      const node = asNode(entry);
      const name = String(node['@_name'] ?? '');
      // `r:id` is `id` once the namespace prefix is removed.
      const rel = workbookRels.find((candidate) => candidate.id === String(node['@_id'] ?? ''));
      const root = rel ? parsePart(files, resolveTarget(folder, rel.target)) : undefined;
      if (!root) {
        errors.push({
          en: `sheet ${name}: its part is missing from the file`,
          ko: `${name} 시트: 파일에 내용이 없습니다`,
        });
        continue;
      }
      sheets.push({ name, rows: readSheetRows(root, name, sharedStrings, errors) });
    }
    return { sheets, errors };
  } catch (error) {
    if (error instanceof RefusedZip) return { sheets: null, errors: [error.reason] };
    const detail = error instanceof Error ? error.message : String(error);
    return {
      sheets: null,
      errors: [
        {
          en: `the file cannot be read as an Excel workbook (${detail})`,
          ko: `엑셀 통합 문서로 읽을 수 없습니다(${detail})`,
        },
      ],
    };
  }
}
