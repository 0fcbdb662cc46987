import Papa from 'papaparse';
import type { LocalizedText } from '../../model/localized-text.ts';

/**
 * The REDCap data dictionary: a CSV of 18 columns, one row per field, in the order the fields are
 * shown (REDCap's "Data Dictionary" download and upload). This file names the columns and reads and
 * writes the CSV through a real CSV parser (quoted commas, quotes and line breaks inside labels).
 */

export const DICTIONARY_COLUMNS = [
  ['variable', 'Variable / Field Name'],
  ['form', 'Form Name'],
  ['sectionHeader', 'Section Header'],
  ['type', 'Field Type'],
  ['label', 'Field Label'],
  ['choices', 'Choices, Calculations, OR Slider Labels'],
  ['note', 'Field Note'],
  ['validation', 'Text Validation Type OR Show Slider Number'],
  ['min', 'Text Validation Min'],
  ['max', 'Text Validation Max'],
  ['identifier', 'Identifier?'],
  ['branching', 'Branching Logic (Show field only if...)'],
  ['required', 'Required Field?'],
  ['alignment', 'Custom Alignment'],
  ['questionNumber', 'Question Number (surveys only)'],
  ['matrixGroup', 'Matrix Group Name'],
  ['matrixRanking', 'Matrix Ranking?'],
  ['annotation', 'Field Annotation'],
] as const;

export type DictionaryColumn = (typeof DICTIONARY_COLUMNS)[number][0];
export type DictionaryRow = Record<DictionaryColumn, string> & { line: number };

/** A problem of an import, with where it stands: the CSV line (1 = the header) and column. */
export interface ImportProblem {
  severity: 'error' | 'warning' | 'note';
  line?: number | undefined;
  column?: string | undefined;
  field?: string | undefined;
  message: LocalizedText;
}

const REQUIRED: readonly DictionaryColumn[] = ['variable', 'form', 'type', 'label'];

/** The header names REDCap has used for a column, compared without case, spaces or punctuation. */
function normalized(name: string): string {
  return name.toLowerCase().replace(/[^a-z]/g, '');
}

/**
 * The most rows a design file may have: REDCap's largest projects hold a few thousand fields. The
 * parser stops there, so a file of a million short lines costs no more than this to refuse.
 */
export const MAX_CSV_ROWS = 20_000;

export function parseCsv(text: string): { rows: string[][]; problems: ImportProblem[] } {
  const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), {
    skipEmptyLines: 'greedy',
    preview: MAX_CSV_ROWS + 1,
  });
  const problems: ImportProblem[] = parsed.errors.map((error) => ({
    severity: 'error',
    line: error.row === undefined ? undefined : error.row + 1,
    message: { en: `CSV: ${error.message}`, ko: `CSV 오류: ${error.message}` },
  }));
  if (parsed.data.length > MAX_CSV_ROWS)
    problems.push({
      severity: 'error',
      message: {
        en: `the file has more than ${MAX_CSV_ROWS.toLocaleString('en')} rows`,
        ko: `파일의 행이 ${MAX_CSV_ROWS.toLocaleString('ko')}개를 넘습니다`,
      },
    });
  return { rows: parsed.data.slice(0, MAX_CSV_ROWS), problems };
}

/** The dictionary's rows by column name; the header may order the columns as it likes. */
export function readDictionaryRows(text: string): { rows: DictionaryRow[]; problems: ImportProblem[] } {
  const { rows, problems } = parseCsv(text);
  const [header, ...body] = rows;
  if (!header) {
    problems.push({ severity: 'error', message: { en: 'the file is empty', ko: '파일이 비어 있습니다' } });
    return { rows: [], problems };
  }
  const positions = new Map<DictionaryColumn, number>();
  header.forEach((name, index) => {
    const column = DICTIONARY_COLUMNS.find(([, title]) => normalized(title) === normalized(name));
    if (column) positions.set(column[0], index);
  });
  const missing = REQUIRED.filter((column) => !positions.has(column));
  if (missing.length > 0) {
    const names = missing.map((column) => DICTIONARY_COLUMNS.find(([key]) => key === column)?.[1]).join(', ');
    problems.push({
      severity: 'error',
      line: 1,
      message: {
        en: `not a REDCap data dictionary: the header lacks ${names}`,
        ko: `REDCap 데이터 사전이 아닙니다: 머리글에 ${names} 열이 없습니다`,
      },
    });
    return { rows: [], problems };
  }
  const dictionary = body.map((cells, index) => {
    const row = { line: index + 2 } as DictionaryRow;
    for (const [column] of DICTIONARY_COLUMNS) {
      const at = positions.get(column);
      row[column] = at === undefined ? '' : (cells[at] ?? '').trim();
    }
    return row;
  });
  return { rows: dictionary, problems };
}

/** The dictionary as REDCap writes it: the 18 columns in order, every cell quoted where it must be. */
export function writeDictionaryRows(rows: readonly Omit<DictionaryRow, 'line'>[]): string {
  const header = DICTIONARY_COLUMNS.map(([, title]) => title);
  const body = rows.map((row) => DICTIONARY_COLUMNS.map(([column]) => row[column]));
  return `${Papa.unparse([header, ...body], { newline: '\n' })}\n`;
}

/** `1, Male | 2, Female` → codes and labels; a choice without a comma is its own label. */
export function parseChoices(text: string): { code: string; label: string }[] {
  return text
    .split('|')
    .map((choice) => choice.trim())
    .filter((choice) => choice !== '')
    .map((choice) => {
      const comma = choice.indexOf(',');
      if (comma < 0) return { code: choice, label: choice };
      return { code: choice.slice(0, comma).trim(), label: choice.slice(comma + 1).trim() };
    });
}

export function writeChoices(choices: readonly { code: string; label: string }[]): string {
  return choices.map((choice) => `${choice.code}, ${choice.label}`).join(' | ');
}

/**
 * What CDMS keeps in the Field Annotation beside REDCap's action tags, for what a dictionary has no
 * column for: `@CDMS-KEY=…` (an item key the name does not give back), `@CDMS-SECTION=…`,
 * `@CDMS-CODELIST=…`, `@CDMS-UNIT=…`. REDCap shows annotations to designers and ignores unknown tags.
 */
export type CdmsTag = 'KEY' | 'SECTION' | 'CODELIST' | 'UNIT';

export function readTag(annotation: string, tag: CdmsTag): string | undefined {
  const match = new RegExp(`@CDMS-${tag}=(\\S+)`).exec(annotation);
  return match?.[1];
}

export function writeTags(
  tags: Partial<Record<CdmsTag, string | undefined>>,
  rest: readonly string[] = [],
): string {
  const written = Object.entries(tags)
    .filter(([, value]) => value !== undefined && value !== '')
    .map(([tag, value]) => `@CDMS-${tag}=${value}`);
  return [...rest, ...written].join(' ');
}

/** The CSV of REDCap's instrument–event mapping: which forms each event holds, in order. */
export function readEventMapping(text: string): {
  events: { event: string; form: string; line: number }[];
  problems: ImportProblem[];
} {
  const { rows, problems } = parseCsv(text);
  const [header, ...body] = rows;
  const at = (name: string) => header?.findIndex((cell) => normalized(cell) === normalized(name)) ?? -1;
  const eventAt = at('unique_event_name');
  const formAt = at('form');
  if (eventAt < 0 || formAt < 0) {
    problems.push({
      severity: 'error',
      line: 1,
      message: {
        en: 'not a REDCap instrument–event mapping: the header lacks unique_event_name or form',
        ko: 'REDCap 양식–이벤트 대응표가 아닙니다: 머리글에 unique_event_name 또는 form 열이 없습니다',
      },
    });
    return { events: [], problems };
  }
  const events = body.map((cells, index) => ({
    event: (cells[eventAt] ?? '').trim(),
    form: (cells[formAt] ?? '').trim(),
    line: index + 2,
  }));
  return { events: events.filter((row) => row.event !== '' && row.form !== ''), problems };
}

export function writeEventMapping(rows: readonly { event: string; form: string }[]): string {
  return `${Papa.unparse([['arm_num', 'unique_event_name', 'form'], ...rows.map((row) => ['1', row.event, row.form])], { newline: '\n' })}\n`;
}

/** Plain text of a REDCap label: its HTML tags dropped, its entities and white space tidied. */
export function plainText(label: string): string {
  return label
    .replace(/<br\s*\/?>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}
