export { DictionaryFormatError } from './dictionary-format-error.ts';
export { normalizeVerbatim, uniqueMatch } from './matching.ts';
export {
  MEDDRA_FILE_FIELDS,
  MEDDRA_REQUIRED_FILES,
  type MeddraCodePath,
  type MeddraDictionary,
  type MeddraFileName,
  type MeddraLlt,
  type MeddraPath,
  type MeddraPt,
  type MeddraSoc,
  type MeddraTerm,
  parseMeddraAscii,
  pathsOfLlt,
  splitAsciiLine,
} from './meddra-ascii.ts';
export { type CodingKind, parseSynonymCsv, type Synonym } from './synonyms.ts';
export {
  atcOfDrug,
  parseWhoDrugB3,
  WHODRUG_B3_LAYOUT,
  type WhoDrugAtc,
  type WhoDrugDictionary,
  type WhoDrugName,
} from './whodrug-b3.ts';
