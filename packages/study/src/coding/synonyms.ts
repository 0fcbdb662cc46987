/**
 * A study's synonym list (our own CSV, README.md "Synonyms"): `kind,verbatim,code` with a header
 * line; kind `meddra` (code: an LLT code) or `whodrug` (code: an 11-digit drug code). A verbatim the
 * sites write often that is not a dictionary name (a brand, a spelling) codes on its own.
 */
import Papa from 'papaparse';
import { DictionaryFormatError } from './dictionary-format-error.ts';
import { normalizeVerbatim } from './matching.ts';

export type CodingKind = 'meddra' | 'whodrug';
export interface Synonym {
  kind: CodingKind;
  verbatim: string;
  code: string;
}

export function parseSynonymCsv(text: string, file = 'synonyms.csv'): Synonym[] {
  const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { skipEmptyLines: true });
  const [header, ...rows] = parsed.data;
  if (header?.map((h) => h.trim().toLowerCase()).join(',') !== 'kind,verbatim,code')
    throw new DictionaryFormatError(file, 1, 'the header must be kind,verbatim,code');
  const seen = new Set<string>();
  return rows.map((row, index) => {
    const [kind = '', verbatim = '', code = ''] = row.map((cell) => cell.trim());
    const line = index + 2;
    if (kind !== 'meddra' && kind !== 'whodrug')
      throw new DictionaryFormatError(file, line, 'kind must be meddra or whodrug');
    if (verbatim === '') throw new DictionaryFormatError(file, line, 'verbatim is empty');
    if (!(kind === 'meddra' ? /^\d{8}$/ : /^\d{11}$/).test(code))
      throw new DictionaryFormatError(
        file,
        line,
        kind === 'meddra' ? 'code must be an 8-digit LLT code' : 'code must be an 11-digit drug code',
      );
    const key = `${kind}:${normalizeVerbatim(verbatim)}`;
    if (seen.has(key)) throw new DictionaryFormatError(file, line, 'the verbatim is listed twice');
    seen.add(key);
    return { kind, verbatim, code };
  });
}
