import type { CodingKindName, CodingPath } from '@cdms/contract';
import {
  atcOfDrug,
  DictionaryFormatError,
  type MeddraDictionary,
  normalizeVerbatim,
  parseMeddraAscii,
  parseSynonymCsv,
  parseWhoDrugB3,
  pathsOfLlt,
} from '@cdms/study';
import { strFromU8, unzipSync } from 'fflate';
import type { Transaction } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';

/** A distribution's files: path inside the zip (or folder) → text. */
export type DistributionFiles = ReadonlyMap<string, string>;

/** The files of a zip, each read as UTF-8 (a bad zip is 422 like a bad file). */
export function filesOfZip(bytes: Uint8Array): DistributionFiles {
  try {
    const entries = unzipSync(bytes);
    const files = new Map<string, string>();
    for (const [name, data] of Object.entries(entries)) {
      if (name.endsWith('/') || name.startsWith('__MACOSX/')) continue;
      files.set(name.replace(/\\/g, '/'), strFromU8(data));
    }
    return files;
  } catch {
    throw new AppError(422, 'coding_file_invalid', { problem: 'zip' });
  }
}

const folderOf = (name: string) => (name.includes('/') ? name.slice(0, name.lastIndexOf('/')) : '');
const baseOf = (name: string) => name.slice(name.lastIndexOf('/') + 1).toLowerCase();

/** The files of one folder by lower-cased base name (MedDRA names are lower case, WHODrug upper). */
function folderFiles(files: DistributionFiles, folder: string, caseOf: (name: string) => string) {
  const out: Record<string, string> = {};
  for (const [name, text] of files) if (folderOf(name) === folder) out[caseOf(baseOf(name))] = text;
  return out;
}

/** The folders holding a given file, shallowest first. */
function foldersWith(files: DistributionFiles, base: string): string[] {
  return [...files.keys()]
    .filter((name) => baseOf(name) === base)
    .map(folderOf)
    .sort((a, b) => a.split('/').length - b.split('/').length || a.localeCompare(b));
}

const LANGUAGES: Record<string, string> = { english: 'en', korean: 'ko', japanese: 'ja' };

/** Term rows of a MedDRA version: each LLT with its primary path, once per language. */
function meddraTerms(dictionary: MeddraDictionary) {
  const names = dictionary.translated?.names;
  const translatedLanguage = LANGUAGES[(dictionary.translated?.language ?? 'korean').toLowerCase()] ?? 'ko';
  const words = (level: string, code: string, en: string) => ({
    en,
    ko: (translatedLanguage === 'ko' ? names?.get(`${level}:${code}`) : undefined) ?? en,
  });
  const rows: Array<{ code: string; language: string; name: string; current: boolean; path: CodingPath }> =
    [];
  for (const llt of dictionary.llts) {
    const [primary] = pathsOfLlt(dictionary, llt.code);
    if (!primary) continue;
    const path: CodingPath = {
      kind: 'meddra',
      llt: { code: llt.code, name: words('llt', llt.code, llt.name), current: llt.current },
      pt: { code: primary.pt.code, name: words('pt', primary.pt.code, primary.pt.name) },
      hlt: { code: primary.hlt.code, name: words('hlt', primary.hlt.code, primary.hlt.name) },
      hlgt: { code: primary.hlgt.code, name: words('hlgt', primary.hlgt.code, primary.hlgt.name) },
      soc: { code: primary.soc.code, name: words('soc', primary.soc.code, primary.soc.name) },
    };
    rows.push({ code: llt.code, language: 'en', name: llt.name, current: llt.current, path });
    const translated = names?.get(`llt:${llt.code}`);
    if (translated && translated !== llt.name)
      rows.push({
        code: llt.code,
        language: translatedLanguage,
        name: translated,
        current: llt.current,
        path,
      });
  }
  return rows;
}

/** A distribution read into its version label and term rows (422 naming the file and line). */
export function readDistribution(kind: CodingKindName, files: DistributionFiles) {
  try {
    if (kind === 'meddra') {
      const [primary, translation] = foldersWith(files, 'llt.asc');
      if (primary === undefined) throw new DictionaryFormatError('llt.asc', 0, 'file missing');
      const dictionary = parseMeddraAscii(
        folderFiles(files, primary, (n) => n),
        translation === undefined ? undefined : folderFiles(files, translation, (n) => n),
      );
      return { version: dictionary.version, terms: meddraTerms(dictionary) };
    }
    const [folder] = foldersWith(files, 'dd.txt');
    if (folder === undefined) throw new DictionaryFormatError('DD.txt', 0, 'file missing');
    const upper = (name: string) =>
      name === 'version.txt' ? name : name.toUpperCase().replace(/\.TXT$/, '.txt');
    const dictionary = parseWhoDrugB3(folderFiles(files, folder, upper));
    const terms = dictionary.drugs.map((drug) => ({
      code: drug.code,
      language: 'en',
      name: drug.name,
      current: true,
      path: {
        kind: 'whodrug',
        drug: { code: drug.code, name: { en: drug.name, ko: drug.name } },
        atc: atcOfDrug(dictionary, drug.drugRecordNumber),
      } satisfies CodingPath,
    }));
    return { version: dictionary.version, terms };
  } catch (error) {
    if (error instanceof DictionaryFormatError)
      throw new AppError(422, 'coding_file_invalid', { problem: error.message });
    throw error;
  }
}

/**
 * Loads a dictionary version into the study: its terms for search and matching, audited. The first
 * version of a kind becomes the active one (and codes the queue's pending verbatims: `recodePending`
 * is the caller's); a later one waits for the upgrade (`apply-upgrade.ts`).
 */
export async function loadDictionary(
  trx: Transaction<Database>,
  actor: AuditActor & { userId: number },
  input: {
    studyId: number;
    kind: CodingKindName;
    files: DistributionFiles;
    fileName: string;
    version?: string;
  },
  at: Date,
): Promise<{ id: number; version: string; active: boolean; termCount: number }> {
  const read = readDistribution(input.kind, input.files);
  const version = input.version ?? read.version;
  if (!version) throw new AppError(422, 'coding_version_missing');
  const clash = await trx
    .selectFrom('coding_dictionaries')
    .select('id')
    .where('study_id', '=', input.studyId)
    .where('kind', '=', input.kind)
    .where('version', '=', version)
    .executeTakeFirst();
  if (clash) throw new AppError(409, 'coding_version_exists');
  const anyActive = await trx
    .selectFrom('coding_dictionaries')
    .select('id')
    .where('study_id', '=', input.studyId)
    .where('kind', '=', input.kind)
    .where('active', '=', true)
    .executeTakeFirst();
  const dictionary = await trx
    .insertInto('coding_dictionaries')
    .values({
      study_id: input.studyId,
      kind: input.kind,
      version,
      file_name: input.fileName.slice(0, 200),
      term_count: read.terms.length,
      active: !anyActive,
      loaded_by: actor.userId,
      loaded_at: at,
    })
    .returning(['id', 'active'])
    .executeTakeFirstOrThrow();
  for (let start = 0; start < read.terms.length; start += 500) {
    await trx
      .insertInto('coding_terms')
      .values(
        read.terms.slice(start, start + 500).map((term) => ({
          dictionary_id: dictionary.id,
          code: term.code,
          language: term.language,
          name: term.name,
          name_norm: normalizeVerbatim(term.name),
          current: term.current,
          path: JSON.stringify(term.path),
        })),
      )
      .execute();
  }
  await recordAudit(trx, actor, {
    type: 'coding.dictionary_loaded',
    entityType: 'coding_dictionary',
    entityId: dictionary.id,
    studyId: input.studyId,
    after: {
      kind: input.kind,
      version,
      fileName: input.fileName.slice(0, 200),
      termCount: read.terms.length,
      active: dictionary.active,
    },
  });
  return { id: dictionary.id, version, active: dictionary.active, termCount: read.terms.length };
}

/** Replaces the study's synonym list with a CSV's (audited with the count). */
export async function loadSynonyms(
  trx: Transaction<Database>,
  actor: AuditActor & { userId: number },
  studyId: number,
  text: string,
  fileName: string,
  at: Date,
): Promise<number> {
  let synonyms: ReturnType<typeof parseSynonymCsv>;
  try {
    synonyms = parseSynonymCsv(text, fileName.slice(0, 200));
  } catch (error) {
    if (error instanceof DictionaryFormatError)
      throw new AppError(422, 'coding_file_invalid', { problem: error.message });
    throw error;
  }
  await trx.deleteFrom('coding_synonyms').where('study_id', '=', studyId).execute();
  if (synonyms.length > 0)
    await trx
      .insertInto('coding_synonyms')
      .values(
        synonyms.map((synonym) => ({
          study_id: studyId,
          kind: synonym.kind,
          verbatim_norm: normalizeVerbatim(synonym.verbatim),
          verbatim: synonym.verbatim,
          code: synonym.code,
          loaded_by: actor.userId,
          loaded_at: at,
        })),
      )
      .execute();
  await recordAudit(trx, actor, {
    type: 'coding.synonyms_loaded',
    entityType: 'coding_dictionary',
    entityId: null,
    studyId,
    after: { fileName: fileName.slice(0, 200), count: synonyms.length },
  });
  return synonyms.length;
}
