import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import {
  checkSchema,
  codeSchema,
  type ItemDefinition,
  itemSchema,
  outcomeSchema,
  parameterSchema,
  repeatingGroupSchema,
  type StudyDefinition,
  sectionSchema,
  studyDefinitionSchema,
  visitSchema,
  visitWindowSchema,
} from '../../model/study-definition.ts';
import type { ImportProblem } from '../redcap/redcap-dictionary.ts';
import { readDefinitionWorkbook } from './read-definition-workbook.ts';
import { MAX_SHEET_ROWS, MAX_ZIP_ENTRIES, parseCellReference, readXlsx } from './read-xlsx.ts';
import {
  CHECKS_SHEET,
  CODE_LISTS_SHEET,
  ITEMS_SHEET,
  OUTCOMES_SHEET,
  PARAMETERS_SHEET,
  type SheetSpec,
  VISITS_SHEET,
} from './workbook-layout.ts';
import { writeDefinitionWorkbook } from './write-definition-workbook.ts';
import { writeDefinitionWorkbookTemplate } from './write-definition-workbook-template.ts';
import { type CellValue, columnLetter, escapeCellText, unescapeCellText, writeXlsx } from './xlsx-package.ts';

const options = {
  studyKey: 'IMPORTED',
  studyLabel: { ko: '가져온 시험', en: 'Imported study' },
  language: 'en' as const,
};

function demo(name: string): StudyDefinition {
  const file = path.resolve(import.meta.dirname, '../../../definitions', name);
  return studyDefinitionSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
}

/** A workbook's sheets as dense tables of cells (row 1 first). */
type Tables = { name: string; rows: (CellValue | undefined)[][] }[];

function tablesOf(bytes: Uint8Array): Tables {
  const read = readXlsx(bytes);
  if (!read.sheets) throw new Error(read.errors.map((error) => error.en).join('; '));
  return read.sheets.map((sheet) => {
    const rows: (CellValue | undefined)[][] = [];
    for (const row of sheet.rows) {
      const cells: (CellValue | undefined)[] = [];
      for (const [column, value] of row.cells) cells[column] = value;
      rows[row.line - 1] = cells;
    }
    return { name: sheet.name, rows: Array.from(rows, (row) => row ?? []) };
  });
}

/** Tables back into a workbook of our own writer (inline strings), the first row of each as its header. */
function inlineWorkbook(tables: Tables): Uint8Array {
  return writeXlsx(
    tables.map((table) => ({
      name: table.name,
      header: (table.rows[0] ?? []).map((value) => String(value ?? '')),
      rows: table.rows.slice(1),
    })),
  );
}

function xmlText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * Tables as Excel and LibreOffice save them: every string in xl/sharedStrings.xml (every other one as
 * rich-text runs), elements with a namespace prefix, cells of row 2 onward without their reference.
 */
function sharedStringsWorkbook(tables: Tables): Uint8Array {
  const strings: string[] = [];
  const indexOf = new Map<string, number>();
  const stringIndex = (text: string) => {
    let index = indexOf.get(text);
    if (index === undefined) {
      index = strings.length;
      strings.push(text);
      indexOf.set(text, index);
    }
    return index;
  };
  const ns = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
  const rel = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  const files: Record<string, Uint8Array> = {};
  tables.forEach((table, sheetIndex) => {
    const rows = table.rows.map((row, rowIndex) => {
      const cells = row.map((value, column) => {
        if (value === undefined) return '';
        // Cells after the first row leave their reference out when they follow the previous one.
        const reference =
          rowIndex === 0 || row[column - 1] === undefined
            ? ` r="${columnLetter(column)}${rowIndex + 1}"`
            : '';
        if (typeof value === 'number') return `<x:c${reference}><x:v>${value}</x:v></x:c>`;
        if (typeof value === 'boolean') return `<x:c${reference} t="b"><x:v>${value ? 1 : 0}</x:v></x:c>`;
        return `<x:c${reference} t="s"><x:v>${stringIndex(escapeCellText(value))}</x:v></x:c>`;
      });
      // Every other row leaves its number out (it follows the one before; empty rows keep theirs).
      const rowNumber =
        rowIndex % 2 === 1 && table.rows[rowIndex - 1] !== undefined ? '' : ` r="${rowIndex + 1}"`;
      return `<x:row${rowNumber}>${cells.join('')}</x:row>`;
    });
    files[`xl/worksheets/s${sheetIndex}.xml`] = strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><x:worksheet xmlns:x="${ns}"><x:sheetData>${rows.join('')}</x:sheetData></x:worksheet>`,
    );
  });
  const items = strings.map((text, index) => {
    if (index % 2 === 0 || text.length < 2) return `<si><t xml:space="preserve">${xmlText(text)}</t></si>`;
    const half = Math.floor(text.length / 2);
    return `<si><r><rPr><b/></rPr><t xml:space="preserve">${xmlText(text.slice(0, half))}</t></r><r><t xml:space="preserve">${xmlText(text.slice(half))}</t></r><rPh sb="0" eb="1"><t>ふりがな</t></rPh></si>`;
  });
  files['xl/strings/shared.xml'] = strToU8(
    `<sst xmlns="${ns}" count="${strings.length}">${items.join('')}</sst>`,
  );
  files['[Content_Types].xml'] = strToU8(
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>',
  );
  files['_rels/.rels'] = strToU8(
    `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="r1" Type="${rel}/officeDocument" Target="/xl/book.xml"/></Relationships>`,
  );
  files['xl/book.xml'] = strToU8(
    `<workbook xmlns="${ns}" xmlns:r="${rel}"><sheets>${tables
      .map((table, index) => `<sheet name="${xmlText(table.name)}" sheetId="${index + 1}" r:id="s${index}"/>`)
      .join('')}</sheets></workbook>`,
  );
  files['xl/_rels/book.xml.rels'] = strToU8(
    `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${tables
      .map(
        (_, index) =>
          `<Relationship Id="s${index}" Type="${rel}/worksheet" Target="worksheets/s${index}.xml"/>`,
      )
      .join(
        '',
      )}<Relationship Id="ss" Type="${rel}/sharedStrings" Target="strings/shared.xml"/></Relationships>`,
  );
  return zipSync(files);
}

function errors(problems: ImportProblem[]): ImportProblem[] {
  return problems.filter((problem) => problem.severity === 'error');
}

function letterOf(tables: Tables, sheet: string, header: string): string {
  const table = tables.find((entry) => entry.name === sheet);
  const index = table?.rows[0]?.indexOf(header) ?? -1;
  if (index < 0) throw new Error(`no column ${header} in ${sheet}`);
  return columnLetter(index);
}

describe('study definition workbook', () => {
  for (const name of ['tm-perforation.json', 'hear-followup.json']) {
    it(`round-trips ${name} exactly`, () => {
      const definition = demo(name);
      const result = readDefinitionWorkbook(writeDefinitionWorkbook(definition), options);
      expect(result.problems).toEqual([]);
      expect(result.definition).toEqual(definition);
    });
  }

  it('has a column for every field of the model, so nothing is lost', () => {
    const ids = (spec: SheetSpec, prefix = '') =>
      new Set(spec.columns.map((column) => column.id.slice(prefix.length).split('.')[0]));
    const covers = (spec: SheetSpec, keys: string[], prefix = '') => {
      const known = ids(spec, prefix);
      expect(keys.filter((key) => !known.has(key))).toEqual([]);
    };
    covers(ITEMS_SHEET, Object.keys(itemSchema.shape));
    covers(
      ITEMS_SHEET,
      Object.keys(sectionSchema.shape).filter((key) => key !== 'items'),
      'section.',
    );
    const repeating = ITEMS_SHEET.columns.filter((column) => column.id.startsWith('section.repeating.'));
    expect(repeating.map((column) => column.id.split('.')[2])).toEqual(
      Object.keys(repeatingGroupSchema.shape),
    );
    covers(VISITS_SHEET, Object.keys(visitSchema.shape));
    expect(
      VISITS_SHEET.columns
        .filter((column) => column.id.startsWith('window.'))
        .map((column) => column.id.slice(7)),
    ).toEqual(Object.keys(visitWindowSchema.shape));
    covers(CHECKS_SHEET, Object.keys(checkSchema.shape).concat(['form']));
    covers(OUTCOMES_SHEET, Object.keys(outcomeSchema.shape));
    covers(CODE_LISTS_SHEET, Object.keys(codeSchema.shape));
    covers(PARAMETERS_SHEET, Object.keys(parameterSchema.shape));
  });

  it('keeps text XML cannot carry, carriage returns and literal _xHHHH_ sequences', () => {
    const awkward = [
      ' leading and trailing ',
      'a\r\nb\tc',
      'bell\u0007 and nul\u0000',
      '_x0041_ literal',
      '<&>"\'',
      '😀 ok',
      'lone \uD800 surrogate',
      '\uFFFF',
    ];
    for (const text of awkward) expect(unescapeCellText(escapeCellText(text))).toBe(text);
    const definition = demo('hear-followup.json');
    const list = {
      key: 'awkward',
      codes: awkward.map((text, index) => ({ code: `c${index}`, label: { ko: text, en: text } })),
    };
    definition.codeLists.push(list);
    definition.label = { ko: awkward.join(''), en: awkward.join('|') };
    const result = readDefinitionWorkbook(writeDefinitionWorkbook(definition), options);
    expect(result.problems).toEqual([]);
    expect(result.definition).toEqual(definition);
  });

  it('reads a workbook saved with shared strings, rich-text runs and cells without references', () => {
    const definition = demo('hear-followup.json');
    const tables = tablesOf(writeDefinitionWorkbook(definition));
    const result = readDefinitionWorkbook(sharedStringsWorkbook(tables), options);
    expect(errors(result.problems)).toEqual([]);
    expect(result.definition).toEqual(definition);
  });

  it('reads cell references', () => {
    expect(parseCellReference('C12')).toEqual({ row: 12, column: 2 });
    expect(parseCellReference('AA1')).toEqual({ row: 1, column: 26 });
    expect(parseCellReference('xfd1048576')).toEqual({ row: 1048576, column: 16383 });
    expect(parseCellReference('12')).toBeUndefined();
    expect(columnLetter(16383)).toBe('XFD');
  });

  it('finds columns by header in any order, in Korean too, and notes unknown ones', () => {
    const definition = demo('hear-followup.json');
    const tables = tablesOf(writeDefinitionWorkbook(definition));
    const items = tables.find((table) => table.name === 'Items');
    if (!items) throw new Error('no Items sheet');
    // Reverse the columns, give Korean headers, and add a column of the user's own.
    const korean = new Map(ITEMS_SHEET.columns.map((column) => [column.en, column.ko]));
    const width = items.rows[0]?.length ?? 0;
    items.rows = items.rows.map((row, index) => {
      const cells = Array.from({ length: width }, (_, column) => row[width - 1 - column]);
      if (index === 0) return [...cells.map((header) => korean.get(String(header)) ?? header), 'My notes'];
      return [...cells, 'note'];
    });
    const result = readDefinitionWorkbook(inlineWorkbook(tables), options);
    expect(result.definition).toEqual(definition);
    expect(result.problems).toEqual([
      expect.objectContaining({ severity: 'note', line: 1, column: `Items!${columnLetter(width)}` }),
    ]);
  });

  it('reads the blank template as empty, with a clear error', () => {
    const template = writeDefinitionWorkbookTemplate();
    const names = readXlsx(template).sheets?.map((sheet) => sheet.name);
    expect(names).toEqual([
      'README',
      'Study',
      'Visits',
      'Forms',
      'Items',
      'Code lists',
      'Checks',
      'Outcomes',
      'Parameters',
      'Roles',
    ]);
    const result = readDefinitionWorkbook(template, options);
    expect(result.definition).toBeNull();
    expect(errors(result.problems).map((problem) => problem.message.en)).toEqual([
      'the workbook holds no items: fill in the Items sheet (one row per item)',
    ]);
  });

  it('reports a missing sheet and a missing required column', () => {
    const tables = tablesOf(writeDefinitionWorkbook(demo('hear-followup.json')));
    const withoutForms = tables.filter((table) => table.name !== 'Forms');
    const items = withoutForms.find((table) => table.name === 'Items');
    if (!items?.rows[0]) throw new Error('no Items sheet');
    items.rows[0] = items.rows[0].map((header) => (header === 'Type' ? 'Kind of thing' : header));
    const result = readDefinitionWorkbook(inlineWorkbook(withoutForms), options);
    expect(result.definition).toBeNull();
    expect(errors(result.problems).map((problem) => [problem.column, problem.message.en])).toEqual([
      ['Forms', 'the workbook has no sheet Forms'],
      ['Items', 'sheet Items has no column "Type"'],
    ]);
  });

  it('reports a bad type and bad JSON at their row and column, keeping what it can', () => {
    const definition = demo('hear-followup.json');
    const tables = tablesOf(writeDefinitionWorkbook(definition));
    const items = tables.find((table) => table.name === 'Items');
    if (!items) throw new Error('no Items sheet');
    const header = (items.rows[0] ?? []).map(String);
    const row = (line: number) => items.rows[line - 1] as (CellValue | undefined)[];
    const itemKey = (line: number) => String(row(line)[header.indexOf('Item')]);
    // Row 3 gets an unknown type, row 5 a show-when that is not JSON.
    row(3)[header.indexOf('Type')] = 'colour';
    row(5)[header.indexOf('Show when')] = '{"ref": ';
    const result = readDefinitionWorkbook(inlineWorkbook(tables), options);
    const found = errors(result.problems).slice(0, 2);
    expect(found).toEqual([
      expect.objectContaining({
        line: 3,
        column: `Items!${letterOf(tables, 'Items', 'Type')}`,
        field: itemKey(3),
      }),
      expect.objectContaining({
        line: 5,
        column: `Items!${letterOf(tables, 'Items', 'Show when')}`,
        field: itemKey(5),
      }),
    ]);
    expect(found[0]?.message.en).toContain('unknown item type "colour"');
    expect(found[1]?.message.en).toContain('not valid JSON');
    // The item of unknown type is left out, so the study's roles that name it fail: no definition.
    expect(result.definition).toBeNull();

    // Bad JSON alone: the item is kept without its show-when, and the study stands.
    const withShowWhen = tables.find((table) => table.name === 'Items');
    if (!withShowWhen) throw new Error('no Items sheet');
    row(3)[header.indexOf('Type')] = definition.forms
      .flatMap((form) => form.sections.flatMap((section) => section.items))
      .find((item) => item.key === itemKey(3))?.type;
    const line =
      items.rows.findIndex((cells, index) => index > 4 && cells[header.indexOf('Show when')] !== undefined) +
      1;
    row(line)[header.indexOf('Show when')] = '{"op": "eq", "args": [1]}';
    const kept = readDefinitionWorkbook(inlineWorkbook(tables), options);
    expect(errors(kept.problems).map((problem) => [problem.line, problem.column])).toEqual([
      [5, `Items!${letterOf(tables, 'Items', 'Show when')}`],
      [line, `Items!${letterOf(tables, 'Items', 'Show when')}`],
    ]);
    expect(errors(kept.problems)[1]?.message.en).toContain('not a valid expression');
    const keptItems = (kept.definition?.forms ?? []).flatMap((form) => form.sections.flatMap((s) => s.items));
    for (const key of [itemKey(5), itemKey(line)]) {
      const item = keptItems.find((entry) => entry.key === key);
      expect(item).toBeDefined();
      expect(item?.showWhen).toBeUndefined();
    }
  });

  it('takes a boolean or number cell in an expression column as that expression', () => {
    const definition = demo('hear-followup.json');
    const tables = tablesOf(writeDefinitionWorkbook(definition));
    const items = tables.find((table) => table.name === 'Items');
    if (!items) throw new Error('no Items sheet');
    const header = (items.rows[0] ?? []).map(String);
    (items.rows[1] as (CellValue | undefined)[])[header.indexOf('Show when')] = true;
    const result = readDefinitionWorkbook(inlineWorkbook(tables), options);
    expect(result.definition?.forms[0]?.sections[0]?.items[0]?.showWhen).toBe(true);
  });

  it('places a validation problem at its cell', () => {
    const tables = tablesOf(writeDefinitionWorkbook(demo('hear-followup.json')));
    const items = tables.find((table) => table.name === 'Items');
    if (!items) throw new Error('no Items sheet');
    const header = (items.rows[0] ?? []).map(String);
    const line =
      items.rows.findIndex((row, index) => index > 0 && row[header.indexOf('Type')] === 'integer') + 1;
    (items.rows[line - 1] as (CellValue | undefined)[])[header.indexOf('Decimals')] = 9;
    const result = readDefinitionWorkbook(inlineWorkbook(tables), options);
    expect(result.definition).toBeNull();
    expect(errors(result.problems)).toEqual([
      expect.objectContaining({ line, column: `Items!${letterOf(tables, 'Items', 'Decimals')}` }),
    ]);
  });

  it('refuses a file that is not a zip, an old .xls, and a zip without a workbook', () => {
    const notZip = readDefinitionWorkbook(strToU8('key,label\nA,B\n'), options);
    expect(notZip.definition).toBeNull();
    expect(notZip.problems[0]?.message.en).toContain('not a zip');
    const xls = readDefinitionWorkbook(
      new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]),
      options,
    );
    expect(xls.problems[0]?.message.en).toContain('.xls');
    const otherZip = readDefinitionWorkbook(zipSync({ 'readme.txt': strToU8('hello') }), options);
    expect(otherZip.problems[0]?.message.en).toContain('not an Excel workbook');
    const truncated = writeDefinitionWorkbookTemplate().slice(0, 200);
    expect(readDefinitionWorkbook(truncated, options).definition).toBeNull();
  });

  it('refuses a zip bomb before inflating it', () => {
    // A small entry whose central directory declares 4 GB.
    const zip = zipSync({ 'xl/workbook.xml': strToU8('<workbook/>') });
    const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
    for (let offset = 0; offset + 4 <= zip.length; offset += 1)
      if (view.getUint32(offset, true) === 0x02014b50) view.setUint32(offset + 24, 0xfffffff0, true);
    const declared = readDefinitionWorkbook(zip, options);
    expect(declared.definition).toBeNull();
    expect(declared.problems[0]?.message.en).toContain('more than 64 MB');

    // Honest but too big: 70 MB of spaces squeeze into a few tens of kB.
    const big = zipSync(
      { 'xl/worksheets/sheet1.xml': new Uint8Array(70 * 1024 * 1024).fill(32) },
      { level: 1 },
    );
    expect(big.length).toBeLessThan(1024 * 1024);
    expect(readDefinitionWorkbook(big, options).problems[0]?.message.en).toContain('more than 64 MB');

    // Too many entries.
    const many: Record<string, Uint8Array> = {};
    for (let index = 0; index <= MAX_ZIP_ENTRIES; index += 1) many[`f${index}.xml`] = strToU8('<a/>');
    expect(readDefinitionWorkbook(zipSync(many), options).problems[0]?.message.en).toContain(
      `more than ${MAX_ZIP_ENTRIES} files`,
    );
  });

  it('stays bounded when an entry declares less than it holds', () => {
    const tables = tablesOf(writeDefinitionWorkbook(demo('hear-followup.json')));
    const zip = inlineWorkbook(tables);
    const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
    for (let offset = 0; offset + 4 <= zip.length; offset += 1)
      if (view.getUint32(offset, true) === 0x02014b50) view.setUint32(offset + 24, 10, true);
    const result = readDefinitionWorkbook(zip, options);
    expect(result.definition).toBeNull();
    expect(errors(result.problems).length).toBeGreaterThan(0);
  });

  // 20,000 rows of sheet XML take seconds to parse on a busy machine: the default 5 s is too short.
  it('stops reading a sheet past 20,000 rows', { timeout: 60_000 }, () => {
    const tables = tablesOf(writeDefinitionWorkbook(demo('hear-followup.json')));
    const codeLists = tables.find((table) => table.name === 'Code lists');
    if (!codeLists) throw new Error('no Code lists sheet');
    for (let index = 0; index <= MAX_SHEET_ROWS; index += 1)
      codeLists.rows.push(['many', `c${index}`, '코드', 'Code']);
    const result = readDefinitionWorkbook(inlineWorkbook(tables), options);
    expect(result.definition).toBeNull();
    expect(result.problems[0]?.message.en).toBe('sheet Code lists has more than 20,000 rows');
  });

  it('refuses XML with a DOCTYPE (billion laughs, external entities)', () => {
    const laughs =
      '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]><workbook>&lol2;</workbook>';
    const zip = zipSync({
      '_rels/.rels': strToU8(
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="r1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
      ),
      'xl/workbook.xml': strToU8(laughs),
    });
    const result = readDefinitionWorkbook(zip, options);
    expect(result.definition).toBeNull();
    expect(result.problems[0]?.message.en).toContain('DOCTYPE');
  });

  it('writes and reads back a study of 3,000 items', { timeout: 60_000 }, () => {
    const types: ItemDefinition['type'][] = ['text', 'integer', 'decimal', 'date', 'singleChoice', 'yesNo'];
    const forms = Array.from({ length: 30 }, (_, formIndex) => ({
      key: `form${formIndex}`,
      label: { ko: `양식 ${formIndex}`, en: `Form ${formIndex}` },
      sections: [
        {
          key: 'main',
          label: { ko: '본문', en: 'Main' },
          items: Array.from({ length: 100 }, (_, itemIndex): ItemDefinition => {
            const type = types[itemIndex % types.length] as ItemDefinition['type'];
            return {
              key: `item${itemIndex}`,
              type,
              label: { ko: `항목 ${itemIndex}`, en: `Item ${itemIndex}` },
              ...(type === 'singleChoice' ? { codeList: 'colours' } : {}),
              ...(type === 'integer' ? { min: 0, max: 100, required: true } : {}),
              ...(itemIndex > 0 ? { showWhen: { op: 'notEmpty', args: [{ ref: 'item0' }] } } : {}),
            };
          }),
        },
      ],
    }));
    const definition = studyDefinitionSchema.parse({
      key: 'BIG',
      version: '1.0.0',
      label: { ko: '큰 시험', en: 'Big study' },
      codeLists: [{ key: 'colours', codes: [{ code: 'r', label: { ko: '빨강', en: 'Red' } }] }],
      visits: [
        {
          key: 'v1',
          label: { ko: '방문 1', en: 'Visit 1' },
          group: 'baseline',
          forms: forms.map((f) => f.key),
        },
      ],
      forms,
    });
    const result = readDefinitionWorkbook(writeDefinitionWorkbook(definition), options);
    expect(result.problems).toEqual([]);
    expect(result.definition).toEqual(definition);
  });

  // An independent reader: Python's zipfile and its strict XML parser, and openpyxl when installed.
  const python = spawnSync('python3', ['-c', 'print(1)']).status === 0;
  const openpyxl = python && spawnSync('python3', ['-c', 'import openpyxl']).status === 0;

  it.skipIf(!python)('writes a zip of well-formed XML parts that another reader accepts', () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'workbook-'));
    try {
      const file = path.join(folder, 'study.xlsx');
      writeFileSync(file, writeDefinitionWorkbook(demo('tm-perforation.json')));
      const script = [
        'import sys, zipfile, xml.dom.minidom',
        'z = zipfile.ZipFile(sys.argv[1])',
        'assert z.testzip() is None',
        'names = z.namelist()',
        'for name in names: xml.dom.minidom.parseString(z.read(name))',
        'print(len(names))',
      ].join('\n');
      const run = spawnSync('python3', ['-c', script, file], { encoding: 'utf8' });
      expect(run.stderr).toBe('');
      expect(Number(run.stdout.trim())).toBe(5 + 10);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it.skipIf(!openpyxl)('opens in openpyxl', () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'workbook-'));
    try {
      const file = path.join(folder, 'study.xlsx');
      writeFileSync(file, writeDefinitionWorkbook(demo('hear-followup.json')));
      const script = [
        'import sys, openpyxl',
        'book = openpyxl.load_workbook(sys.argv[1])',
        'print(",".join(book.sheetnames))',
        'print(book["Items"]["A1"].value, book["Items"].max_row)',
      ].join('\n');
      const run = spawnSync('python3', ['-c', script, file], { encoding: 'utf8' });
      expect(run.stderr).toBe('');
      expect(run.stdout.split('\n')[0]).toBe(
        'README,Study,Visits,Forms,Items,Code lists,Checks,Outcomes,Parameters,Roles',
      );
      expect(run.stdout.split('\n')[1]).toMatch(/^Form \d+$/);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
