import fs from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * What the command-line exports (`export-odm`, `export-tables`) share: the study and site named on
 * the command line, and a file written whole or not at all.
 */

/** The command's input names no study, site or form of the study: said plainly, nothing written. */
export class ExportScopeError extends Error {}

/** A study by its id or its code. */
export async function findStudyByRef(db: Kysely<Database>, ref: string) {
  const byId = /^[1-9]\d{0,9}$/.test(ref) ? Number(ref) : undefined;
  const study = await db
    .selectFrom('studies')
    .select(['id', 'code'])
    .where((eb) =>
      byId !== undefined ? eb.or([eb('id', '=', byId), eb('code', '=', ref)]) : eb('code', '=', ref),
    )
    .executeTakeFirst();
  if (!study) throw new ExportScopeError(`There is no study ${ref}.`);
  return study;
}

/** A site of the study by its code or its institution number. */
export async function findSiteByRef(
  db: Kysely<Database>,
  study: { id: number; code: string },
  ref: string,
): Promise<number> {
  const site = await db
    .selectFrom('sites')
    .select('id')
    .where('study_id', '=', study.id)
    .where((eb) => eb.or([eb('code', '=', ref), eb('institution_number', '=', ref.padStart(2, '0'))]))
    .executeTakeFirst();
  if (!site) throw new ExportScopeError(`Study ${study.code} has no site ${ref}.`);
  return site.id;
}

/**
 * Streams `chunks` into `<out>.partial` and returns that path; on failure the partial file is removed
 * and the error thrown. The caller audits, then renames it to `out` (`fs.renameSync`), so a failed
 * export never leaves a file that looks whole.
 */
export async function writePartialFile(
  chunks: AsyncIterable<string | Uint8Array>,
  out: string,
): Promise<string> {
  const partial = `${out}.partial`;
  try {
    await pipeline(Readable.from(chunks), fs.createWriteStream(partial));
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw error;
  }
  return partial;
}
