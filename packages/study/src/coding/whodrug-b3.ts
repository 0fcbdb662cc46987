/**
 * WHODrug Global, B3 format, fixed-width text files (README.md "WHODrug B3"): DD.txt (drug names),
 * DDA.txt (ATC classifications of drug codes), INA.txt (ATC texts). Pure: the files' texts in, the
 * drugs with their ATC codes out, or `DictionaryFormatError` naming the file and line. The C3 format
 * (MP/PP/THG/SUN files keyed by MPID) is not read.
 */
import { DictionaryFormatError } from './dictionary-format-error.ts';

/** [first column (1-based), length] of each field; the last field runs to the line's end. */
export const WHODRUG_B3_LAYOUT = {
  'DD.txt': {
    drugRecordNumber: [1, 6],
    seq1: [7, 2],
    seq2: [9, 3],
    checkDigit: [12, 1],
    designation: [13, 1],
    sourceYear: [14, 2],
    sourceCode: [16, 5],
    companyCode: [21, 5],
    ingredientCount: [26, 2],
    saltEsterCode: [28, 1],
    yearQuarter: [29, 3],
    drugName: [32, 1500],
  },
  'DDA.txt': {
    drugRecordNumber: [1, 6],
    seq1: [7, 2],
    seq2: [9, 3],
    checkDigit: [12, 1],
    atcCode: [13, 7],
    yearQuarter: [20, 3],
    officialAtcFlag: [23, 1],
  },
  'INA.txt': { atcCode: [1, 7], level: [8, 1], text: [9, 110] },
} as const;

export interface WhoDrugName {
  /** Drug record number + seq1 + seq2: the drug code (11 digits). */
  code: string;
  drugRecordNumber: string;
  seq1: string;
  seq2: string;
  /** Y: the preferred name (seq1 01, seq2 001); N: another name of the record. */
  preferred: boolean;
  name: string;
}
export interface WhoDrugAtc {
  drugRecordNumber: string;
  atcCode: string;
}
export interface WhoDrugDictionary {
  version: string | null;
  drugs: WhoDrugName[];
  atc: WhoDrugAtc[];
  /** ATC code → its text and level (1–5). */
  atcTexts: Map<string, { level: number; text: string }>;
}

type Layout = Readonly<Record<string, readonly [number, number]>>;

function fieldsOf(file: string, layout: Layout, line: string, lineNumber: number): Record<string, string> {
  const entries = Object.entries(layout);
  const last = entries[entries.length - 1];
  const minimum = last ? last[1][0] : 1;
  if (line.length < minimum)
    throw new DictionaryFormatError(
      file,
      lineNumber,
      `line is ${line.length} characters, the layout needs ${minimum}`,
    );
  const row: Record<string, string> = {};
  for (const [field, [start, length]] of entries)
    row[field] = line.slice(start - 1, start - 1 + length).trim();
  return row;
}

function linesOf(file: string, files: Readonly<Record<string, string>>): string[] {
  const text = files[file];
  if (text === undefined) throw new DictionaryFormatError(file, 0, 'file missing');
  return text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '');
}

const DIGITS = (n: number) => new RegExp(`^\\d{${n}}$`);

/** Reads DD.txt, DDA.txt and INA.txt of a B3 distribution (and version.txt when there is one). */
export function parseWhoDrugB3(files: Readonly<Record<string, string>>): WhoDrugDictionary {
  const drugs = linesOf('DD.txt', files).map((line, index) => {
    const row = fieldsOf('DD.txt', WHODRUG_B3_LAYOUT['DD.txt'], line, index + 1);
    const { drugRecordNumber = '', seq1 = '', seq2 = '', designation = '', drugName = '' } = row;
    if (!DIGITS(6).test(drugRecordNumber) || !DIGITS(2).test(seq1) || !DIGITS(3).test(seq2))
      throw new DictionaryFormatError('DD.txt', index + 1, 'drug record number, seq1 or seq2 is not digits');
    if (drugName === '') throw new DictionaryFormatError('DD.txt', index + 1, 'drug name is empty');
    return {
      code: `${drugRecordNumber}${seq1}${seq2}`,
      drugRecordNumber,
      seq1,
      seq2,
      preferred: designation === 'Y' || (seq1 === '01' && seq2 === '001'),
      name: drugName,
    };
  });
  const atc = linesOf('DDA.txt', files).map((line, index) => {
    const row = fieldsOf('DDA.txt', WHODRUG_B3_LAYOUT['DDA.txt'], line, index + 1);
    const { drugRecordNumber = '', atcCode = '' } = row;
    if (!DIGITS(6).test(drugRecordNumber) || !/^[A-Z][0-9A-Z]{0,6}$/.test(atcCode))
      throw new DictionaryFormatError('DDA.txt', index + 1, 'drug record number or ATC code malformed');
    return { drugRecordNumber, atcCode };
  });
  const atcTexts = new Map<string, { level: number; text: string }>();
  linesOf('INA.txt', files).forEach((line, index) => {
    const row = fieldsOf('INA.txt', WHODRUG_B3_LAYOUT['INA.txt'], line, index + 1);
    const level = Number(row.level);
    if (!row.atcCode || !Number.isInteger(level) || level < 1 || level > 5)
      throw new DictionaryFormatError('INA.txt', index + 1, 'ATC code or level malformed');
    atcTexts.set(row.atcCode, { level, text: row.text ?? '' });
  });
  const records = new Set(drugs.map((drug) => drug.drugRecordNumber));
  atc.forEach((link, index) => {
    if (!records.has(link.drugRecordNumber))
      throw new DictionaryFormatError(
        'DDA.txt',
        index + 1,
        `drug record ${link.drugRecordNumber} is not in DD.txt`,
      );
  });
  const versionLine = files['version.txt']?.split(/\r?\n/)[0]?.trim();
  return { version: versionLine || null, drugs, atc, atcTexts };
}

/** A drug's ATC codes with their texts (level 5 first when the code is one). */
export function atcOfDrug(
  dictionary: WhoDrugDictionary,
  drugRecordNumber: string,
): Array<{ code: string; text: string }> {
  return dictionary.atc
    .filter((link) => link.drugRecordNumber === drugRecordNumber)
    .map((link) => ({ code: link.atcCode, text: dictionary.atcTexts.get(link.atcCode)?.text ?? '' }));
}
