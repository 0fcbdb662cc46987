import { type Expression, expressionSchema } from '../../model/expression.ts';
import type { LocalizedText } from '../../model/localized-text.ts';
import type { ImportProblem } from '../redcap/redcap-dictionary.ts';
import type { SheetRow, WorkbookSheet } from './read-xlsx.ts';
import { normalizedHeader, type SheetSpec, splitList } from './workbook-layout.ts';
import { type CellValue, columnLetter } from './xlsx-package.ts';

/**
 * One sheet of the workbook read as a table: its columns found by header name, and typed readers for
 * its cells that report a bad value where it stands ("Items!F", row 12).
 */

const TRUE_WORDS = ['true', 'yes', 'y', '1', '예', '참'];
const FALSE_WORDS = ['false', 'no', 'n', '0', '아니오', '아니요', '거짓'];

export class WorkbookTable {
  readonly sheetName: string;
  /** Column index by column id. */
  private readonly columns: Map<string, number>;
  /** The rows below the header. */
  readonly rows: SheetRow[];
  private readonly problems: ImportProblem[];

  constructor(sheetName: string, columns: Map<string, number>, rows: SheetRow[], problems: ImportProblem[]) {
    this.sheetName = sheetName;
    this.columns = columns;
    this.rows = rows;
    this.problems = problems;
  }

  has(id: string): boolean {
    return this.columns.has(id);
  }

  /** "Items!F" for a column of the sheet, the sheet's name alone when it has no such column. */
  where(id: string | undefined): string {
    const index = id === undefined ? undefined : this.columns.get(id);
    return index === undefined ? this.sheetName : `${this.sheetName}!${columnLetter(index)}`;
  }

  report(
    severity: ImportProblem['severity'],
    row: SheetRow | undefined,
    id: string | undefined,
    field: string | undefined,
    message: LocalizedText,
  ): void {
    this.problems.push({
      severity,
      line: row?.line,
      column: this.where(id),
      ...(field ? { field } : {}),
      message,
    });
  }

  raw(row: SheetRow, id: string): CellValue | undefined {
    const index = this.columns.get(id);
    return index === undefined ? undefined : row.cells.get(index);
  }

  /** The cell as text, exactly ('' when empty); a number as JavaScript writes it. */
  text(row: SheetRow, id: string): string {
    const value = this.raw(row, id);
    if (value === undefined) return '';
    if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
    return String(value);
  }

  /** Keys, codes and names of things: surrounding spaces are a typing slip, not part of them. */
  key(row: SheetRow, id: string): string {
    return this.text(row, id).trim();
  }

  optionalKey(row: SheetRow, id: string): string | undefined {
    const key = this.key(row, id);
    return key === '' ? undefined : key;
  }

  number(row: SheetRow, id: string, field?: string): number | undefined {
    const value = this.raw(row, id);
    if (value === undefined) return undefined;
    if (typeof value === 'number') return value;
    const text = String(value).trim();
    const number = Number(text);
    if (text !== '' && typeof value === 'string' && Number.isFinite(number)) return number;
    this.report('error', row, id, field, {
      en: `"${String(value)}" is not a number`,
      ko: `"${String(value)}": 숫자가 아닙니다`,
    });
    return undefined;
  }

  boolean(row: SheetRow, id: string, field?: string): boolean | undefined {
    const value = this.raw(row, id);
    if (value === undefined) return undefined;
    if (typeof value === 'boolean') return value;
    const word = String(value).trim().toLowerCase();
    if (TRUE_WORDS.includes(word)) return true;
    if (FALSE_WORDS.includes(word)) return false;
    this.report('error', row, id, field, {
      en: `"${String(value)}" is neither TRUE nor FALSE`,
      ko: `"${String(value)}": TRUE 또는 FALSE여야 합니다`,
    });
    return undefined;
  }

  /** A mark that is either set or absent (critical, personal data): FALSE means absent. */
  flag(row: SheetRow, id: string, field?: string): true | undefined {
    return this.boolean(row, id, field) === true ? true : undefined;
  }

  list(row: SheetRow, id: string): string[] | undefined {
    const text = this.text(row, id);
    return text.trim() === '' ? undefined : splitList(text);
  }

  /** Both languages of a text; one given alone stands for both until translated. */
  localized(row: SheetRow, prefix: string): LocalizedText | undefined {
    const ko = this.text(row, `${prefix}.ko`);
    const en = this.text(row, `${prefix}.en`);
    if (ko === '' && en === '') return undefined;
    return { ko: ko || en, en: en || ko };
  }

  /** An expression written as JSON; a cell that is not one is reported and left out. */
  expression(row: SheetRow, id: string, field?: string): Expression | undefined {
    // A spreadsheet turns a typed `true` or `5` into a boolean or number cell: it is that expression.
    const raw = this.raw(row, id);
    if (typeof raw === 'boolean' || typeof raw === 'number') return raw;
    const text = this.text(row, id);
    if (text.trim() === '') return undefined;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      this.report('error', row, id, field, {
        en: `not valid JSON (${detail}): the expression is left out`,
        ko: `올바른 JSON이 아닙니다(${detail}): 이 식은 빼고 가져옵니다`,
      });
      return undefined;
    }
    const parsed = expressionSchema.safeParse(value);
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0];
    const detail = issue ? `${issue.path.join('.')} ${issue.message}`.trim() : '';
    this.report('error', row, id, field, {
      en: `not a valid expression (${detail}): the expression is left out`,
      ko: `올바른 식이 아닙니다(${detail}): 이 식은 빼고 가져옵니다`,
    });
    return undefined;
  }
}

/** A column's header names, normalized, as the reader accepts them. */
function headerNames(spec: SheetSpec, language: 'ko' | 'en'): Map<string, string> {
  const names = new Map<string, string>();
  for (const column of spec.columns) {
    names.set(normalizedHeader(column.en), column.id);
    names.set(normalizedHeader(column.ko), column.id);
  }
  // "Label" without a language is the label in the language the workbook is written in.
  for (const column of spec.columns) {
    if (!column.id.endsWith(`.${language}`)) continue;
    for (const header of [column.en, column.ko]) {
      const bare = normalizedHeader(header.replace(/\((ko|en)\)$/, ''));
      if (!names.has(bare)) names.set(bare, column.id);
    }
  }
  return names;
}

/** Whether a sheet's name is the spec's, in English or Korean, without case or spaces. */
export function isSheet(name: string, spec: { name: string; ko: string }): boolean {
  const normalized = normalizedHeader(name);
  return normalized === normalizedHeader(spec.name) || normalized === normalizedHeader(spec.ko);
}

/**
 * The sheet of `spec` as a table, its header being its first row; undefined (with an error when the
 * sheet is `required`) when it is missing or lacks a required column.
 */
export function openTable(
  sheets: WorkbookSheet[],
  spec: SheetSpec,
  required: boolean,
  language: 'ko' | 'en',
  problems: ImportProblem[],
): WorkbookTable | undefined {
  const sheet = sheets.find((candidate) => isSheet(candidate.name, spec));
  if (!sheet) {
    if (required)
      problems.push({
        severity: 'error',
        column: spec.name,
        message: {
          en: `the workbook has no sheet ${spec.name}`,
          ko: `통합 문서에 ${spec.name}(${spec.ko}) 시트가 없습니다`,
        },
      });
    return undefined;
  }
  const [header, ...body] = sheet.rows;
  const names = headerNames(spec, language);
  const columns = new Map<string, number>();
  for (const [index, value] of header?.cells ?? []) {
    const where = `${sheet.name}!${columnLetter(index)}`;
    const id = names.get(normalizedHeader(String(value)));
    const infoOnly = spec.columns.find((column) => column.id === id)?.info;
    if (id === undefined || infoOnly) {
      if (id === undefined)
        problems.push({
          severity: 'note',
          line: header?.line,
          column: where,
          message: {
            en: `unknown column "${String(value)}": ignored`,
            ko: `알 수 없는 열 "${String(value)}": 무시합니다`,
          },
        });
      continue;
    }
    if (columns.has(id)) {
      problems.push({
        severity: 'warning',
        line: header?.line,
        column: where,
        message: {
          en: `column "${String(value)}" appears twice: the first is read`,
          ko: `"${String(value)}" 열이 두 번 나옵니다: 앞의 열을 읽습니다`,
        },
      });
      continue;
    }
    columns.set(id, index);
  }
  let complete = true;
  const missingPairs = new Set<string>();
  for (const column of spec.columns) {
    if (!column.required || columns.has(column.id)) continue;
    if (column.required === 'label') {
      const pair = column.id.replace(/\.(ko|en)$/, '');
      if (columns.has(`${pair}.ko`) || columns.has(`${pair}.en`) || missingPairs.has(pair)) continue;
      missingPairs.add(pair);
    }
    complete = false;
    problems.push({
      severity: 'error',
      line: header?.line ?? 1,
      column: sheet.name,
      message: {
        en: `sheet ${sheet.name} has no column "${column.en}"`,
        ko: `${sheet.name} 시트에 "${column.ko}"(${column.en}) 열이 없습니다`,
      },
    });
  }
  return complete ? new WorkbookTable(sheet.name, columns, body, problems) : undefined;
}
