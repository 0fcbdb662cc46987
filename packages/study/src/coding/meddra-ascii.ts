/**
 * The MedDRA ASCII distribution (README.md "MedDRA"): `$`-delimited lines, each ending in `$`, one
 * file per level and per link. Pure: it takes the files' texts (by file name) and returns the terms,
 * or throws `DictionaryFormatError` naming the file and line that does not fit the layout.
 */
import { DictionaryFormatError } from './dictionary-format-error.ts';

/** Each file's fields, in order (MedDRA "ASCII and Consolidated ASCII Files" specification). */
export const MEDDRA_FILE_FIELDS = {
  'llt.asc': [
    'llt_code',
    'llt_name',
    'pt_code',
    'llt_whoart_code',
    'llt_harts_code',
    'llt_costart_sym',
    'llt_icd9_code',
    'llt_icd9cm_code',
    'llt_icd10_code',
    'llt_currency',
    'llt_jart_code',
  ],
  'pt.asc': [
    'pt_code',
    'pt_name',
    'null_field',
    'pt_soc_code',
    'pt_whoart_code',
    'pt_harts_code',
    'pt_costart_sym',
    'pt_icd9_code',
    'pt_icd9cm_code',
    'pt_icd10_code',
    'pt_jart_code',
  ],
  'hlt.asc': [
    'hlt_code',
    'hlt_name',
    'hlt_whoart_code',
    'hlt_harts_code',
    'hlt_costart_sym',
    'hlt_icd9_code',
    'hlt_icd9cm_code',
    'hlt_icd10_code',
    'hlt_jart_code',
  ],
  'hlgt.asc': [
    'hlgt_code',
    'hlgt_name',
    'hlgt_whoart_code',
    'hlgt_harts_code',
    'hlgt_costart_sym',
    'hlgt_icd9_code',
    'hlgt_icd9cm_code',
    'hlgt_icd10_code',
    'hlgt_jart_code',
  ],
  'soc.asc': [
    'soc_code',
    'soc_name',
    'soc_abbrev',
    'soc_whoart_code',
    'soc_harts_code',
    'soc_costart_sym',
    'soc_icd9_code',
    'soc_icd9cm_code',
    'soc_icd10_code',
    'soc_jart_code',
  ],
  'hlt_pt.asc': ['hlt_code', 'pt_code'],
  'hlgt_hlt.asc': ['hlgt_code', 'hlt_code'],
  'soc_hlgt.asc': ['soc_code', 'hlgt_code'],
  'mdhier.asc': [
    'pt_code',
    'hlt_code',
    'hlgt_code',
    'soc_code',
    'pt_name',
    'hlt_name',
    'hlgt_name',
    'soc_name',
    'soc_abbrev',
    'null_field',
    'pt_soc_code',
    'primary_soc_fg',
  ],
} as const;

export type MeddraFileName = keyof typeof MEDDRA_FILE_FIELDS;
export const MEDDRA_REQUIRED_FILES = Object.keys(MEDDRA_FILE_FIELDS) as MeddraFileName[];

export interface MeddraTerm {
  code: string;
  name: string;
}
export interface MeddraLlt extends MeddraTerm {
  ptCode: string;
  current: boolean;
}
export interface MeddraPt extends MeddraTerm {
  primarySocCode: string;
}
export interface MeddraSoc extends MeddraTerm {
  abbrev: string;
}
/** One PT's place under one SOC (mdhier.asc): a PT may sit under several, one of them primary. */
export interface MeddraPath {
  ptCode: string;
  hltCode: string;
  hlgtCode: string;
  socCode: string;
  primary: boolean;
}
export interface MeddraDictionary {
  /** From meddra_release.asc when given (`27.0$English$…`), else null. */
  version: string | null;
  language: string | null;
  llts: MeddraLlt[];
  pts: MeddraPt[];
  hlts: MeddraTerm[];
  hlgts: MeddraTerm[];
  socs: MeddraSoc[];
  paths: MeddraPath[];
  /** Names in a second language (a translation's file set: same codes), by level and code. */
  translated: { language: string | null; names: Map<string, string> } | null;
}

const CODE = /^\d{8}$/;

/** The fields of a `$`-delimited line: the trailing `$` closes the last field. */
export function splitAsciiLine(line: string): string[] {
  const body = line.endsWith('$') ? line.slice(0, -1) : line;
  return body.split('$');
}

function linesOf(text: string): string[] {
  return text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '');
}

function rowsOf(files: Readonly<Record<string, string>>, file: MeddraFileName): Record<string, string>[] {
  const text = files[file];
  if (text === undefined) throw new DictionaryFormatError(file, 0, 'file missing');
  const fields = MEDDRA_FILE_FIELDS[file];
  return linesOf(text).map((line, index) => {
    if (!line.endsWith('$')) throw new DictionaryFormatError(file, index + 1, 'line does not end with $');
    const values = splitAsciiLine(line);
    if (values.length !== fields.length)
      throw new DictionaryFormatError(
        file,
        index + 1,
        `${values.length} fields where the layout has ${fields.length}`,
      );
    const row: Record<string, string> = {};
    fields.forEach((field, i) => {
      row[field] = (values[i] ?? '').trim();
    });
    for (const field of fields) {
      if (
        field.endsWith('_code') &&
        !field.includes('_icd') &&
        !field.includes('whoart') &&
        !field.includes('harts') &&
        !field.includes('jart') &&
        !CODE.test(row[field] ?? '')
      )
        throw new DictionaryFormatError(file, index + 1, `${field} is not an 8-digit code`);
    }
    return row;
  });
}

function release(files: Readonly<Record<string, string>>): {
  version: string | null;
  language: string | null;
} {
  const text = files['meddra_release.asc'];
  const first = text === undefined ? undefined : linesOf(text)[0];
  if (first === undefined) return { version: null, language: null };
  const [version, language] = splitAsciiLine(first);
  return { version: version?.trim() || null, language: language?.trim() || null };
}

const req = (row: Record<string, string>, field: string): string => row[field] ?? '';

/**
 * Reads a MedDRA ASCII file set (file name → text; names matched case-insensitively by the caller)
 * and, when given, a translation's file set (the same layout and codes, names in its language).
 * Every LLT must name a PT of pt.asc, every mdhier.asc row known codes.
 */
export function parseMeddraAscii(
  files: Readonly<Record<string, string>>,
  translation?: Readonly<Record<string, string>>,
): MeddraDictionary {
  const llts = rowsOf(files, 'llt.asc').map((row) => ({
    code: req(row, 'llt_code'),
    name: req(row, 'llt_name'),
    ptCode: req(row, 'pt_code'),
    current: req(row, 'llt_currency') !== 'N',
  }));
  const pts = rowsOf(files, 'pt.asc').map((row) => ({
    code: req(row, 'pt_code'),
    name: req(row, 'pt_name'),
    primarySocCode: req(row, 'pt_soc_code'),
  }));
  const hlts = rowsOf(files, 'hlt.asc').map((row) => ({
    code: req(row, 'hlt_code'),
    name: req(row, 'hlt_name'),
  }));
  const hlgts = rowsOf(files, 'hlgt.asc').map((row) => ({
    code: req(row, 'hlgt_code'),
    name: req(row, 'hlgt_name'),
  }));
  const socs = rowsOf(files, 'soc.asc').map((row) => ({
    code: req(row, 'soc_code'),
    name: req(row, 'soc_name'),
    abbrev: req(row, 'soc_abbrev'),
  }));
  // The link files are read for their layout; mdhier.asc carries the same links with the primary flag.
  rowsOf(files, 'hlt_pt.asc');
  rowsOf(files, 'hlgt_hlt.asc');
  rowsOf(files, 'soc_hlgt.asc');
  const paths = rowsOf(files, 'mdhier.asc').map((row) => ({
    ptCode: req(row, 'pt_code'),
    hltCode: req(row, 'hlt_code'),
    hlgtCode: req(row, 'hlgt_code'),
    socCode: req(row, 'soc_code'),
    primary: req(row, 'primary_soc_fg') === 'Y',
  }));
  const ptCodes = new Set(pts.map((pt) => pt.code));
  llts.forEach((llt, index) => {
    if (!ptCodes.has(llt.ptCode))
      throw new DictionaryFormatError('llt.asc', index + 1, `pt_code ${llt.ptCode} is not in pt.asc`);
  });
  const known = {
    hlt: new Set(hlts.map((t) => t.code)),
    hlgt: new Set(hlgts.map((t) => t.code)),
    soc: new Set(socs.map((t) => t.code)),
  };
  paths.forEach((path, index) => {
    const ok =
      ptCodes.has(path.ptCode) &&
      known.hlt.has(path.hltCode) &&
      known.hlgt.has(path.hlgtCode) &&
      known.soc.has(path.socCode);
    if (!ok) throw new DictionaryFormatError('mdhier.asc', index + 1, 'names a code the level files lack');
  });
  return {
    ...release(files),
    llts,
    pts,
    hlts,
    hlgts,
    socs,
    paths,
    translated: translation ? readTranslation(translation) : null,
  };
}

/** A translation's names, keyed `llt:code`, `pt:code`, `hlt:code`, `hlgt:code`, `soc:code`. */
function readTranslation(files: Readonly<Record<string, string>>): MeddraDictionary['translated'] {
  const names = new Map<string, string>();
  const levels = [
    ['llt', 'llt.asc'],
    ['pt', 'pt.asc'],
    ['hlt', 'hlt.asc'],
    ['hlgt', 'hlgt.asc'],
    ['soc', 'soc.asc'],
  ] as const;
  for (const [level, file] of levels) {
    for (const row of rowsOf(files, file))
      names.set(`${level}:${req(row, `${level}_code`)}`, req(row, `${level}_name`));
  }
  return { language: release(files).language, names };
}

/** One LLT's full path(s) up to the SOC, the primary one first. */
export interface MeddraCodePath {
  llt: MeddraTerm & { current: boolean };
  pt: MeddraTerm;
  hlt: MeddraTerm;
  hlgt: MeddraTerm;
  soc: MeddraSoc;
  primary: boolean;
}

export function pathsOfLlt(dictionary: MeddraDictionary, lltCode: string): MeddraCodePath[] {
  const llt = dictionary.llts.find((term) => term.code === lltCode);
  if (!llt) return [];
  const byCode = <T extends MeddraTerm>(terms: T[]) => new Map(terms.map((t) => [t.code, t]));
  const pts = byCode(dictionary.pts);
  const hlts = byCode(dictionary.hlts);
  const hlgts = byCode(dictionary.hlgts);
  const socs = byCode(dictionary.socs);
  const pt = pts.get(llt.ptCode);
  if (!pt) return [];
  return dictionary.paths
    .filter((path) => path.ptCode === pt.code)
    .sort((a, b) => Number(b.primary) - Number(a.primary))
    .flatMap((path) => {
      const hlt = hlts.get(path.hltCode);
      const hlgt = hlgts.get(path.hlgtCode);
      const soc = socs.get(path.socCode);
      if (!hlt || !hlgt || !soc) return [];
      return [
        {
          llt: { code: llt.code, name: llt.name, current: llt.current },
          pt,
          hlt,
          hlgt,
          soc,
          primary: path.primary,
        },
      ];
    });
}
