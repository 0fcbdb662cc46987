import type { CodingPath, CodingUpgradePreview } from '@cdms/contract';
import type { Kysely, Transaction } from 'kysely';
import { termByCode } from '../coding-state/match-verbatim.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';

type Change = CodingUpgradePreview['changes'][number]['change'];

export interface VersionComparison {
  dictionary: { id: number; kind: 'meddra' | 'whodrug'; version: string; active: boolean };
  from: string | null;
  rows: Array<{
    id: number;
    version: number;
    site_id: number;
    subject_id: number;
    verbatim: string;
    screening_number: string;
    code: string;
    before: CodingPath | null;
    after: CodingPath | null;
    /** null: the code is the same in both versions (its path may be renamed). */
    change: Change | null;
  }>;
}

function sameAtc(a: CodingPath | null, b: CodingPath | null): boolean {
  if (a?.kind !== 'whodrug' || b?.kind !== 'whodrug') return a?.kind === b?.kind;
  return a.atc.map((atc) => atc.code).join() === b.atc.map((atc) => atc.code).join();
}

/**
 * What switching the study to a loaded version changes for its coded verbatims: an LLT that is not
 * current there or missing (back to the queue), a PT or SOC that moved, an ATC code that changed
 * (recoded in place); the rest keep their code.
 */
export async function compareWithVersion(
  db: Kysely<Database> | Transaction<Database>,
  studyId: number,
  dictionaryId: number,
): Promise<VersionComparison> {
  const dictionary = await db
    .selectFrom('coding_dictionaries')
    .select(['id', 'kind', 'version', 'active'])
    .where('study_id', '=', studyId)
    .where('id', '=', dictionaryId)
    .executeTakeFirst();
  if (!dictionary) throw new AppError(404, 'not_found');
  const active = await db
    .selectFrom('coding_dictionaries')
    .select('version')
    .where('study_id', '=', studyId)
    .where('kind', '=', dictionary.kind)
    .where('active', '=', true)
    .executeTakeFirst();
  const coded = await db
    .selectFrom('coding_assignments as a')
    .innerJoin('subjects as s', 's.id', 'a.subject_id')
    .select([
      'a.id',
      'a.version',
      'a.site_id',
      'a.subject_id',
      'a.verbatim',
      's.screening_number',
      'a.code',
      'a.path',
    ])
    .where('a.study_id', '=', studyId)
    .where('a.kind', '=', dictionary.kind)
    .where('a.status', 'in', ['auto', 'manual'])
    .where('a.code', 'is not', null)
    .orderBy('a.id')
    .execute();
  const rows: VersionComparison['rows'] = [];
  for (const row of coded) {
    const code = row.code ?? '';
    const before = (row.path as CodingPath | null) ?? null;
    const term = await termByCode(db, dictionary.id, code);
    const after = term?.path ?? null;
    let change: Change | null = null;
    if (!term) change = 'code_missing';
    else if (!term.current) change = 'llt_not_current';
    else if (before?.kind === 'meddra' && after?.kind === 'meddra') {
      if (before.soc.code !== after.soc.code) change = 'soc_moved';
      else if (before.pt.code !== after.pt.code) change = 'pt_moved';
    } else if (!sameAtc(before, after)) change = 'atc_changed';
    rows.push({ ...row, code, before, after, change });
  }
  return { dictionary, from: active?.version ?? null, rows };
}

export function presentComparison(comparison: VersionComparison): CodingUpgradePreview {
  const changes = comparison.rows.filter((row) => row.change !== null);
  return {
    from: comparison.from,
    to: comparison.dictionary.version,
    unchanged: comparison.rows.length - changes.length,
    changes: changes.map((row) => ({
      assignmentId: row.id,
      verbatim: row.verbatim,
      screeningNumber: row.screening_number,
      change: row.change ?? 'code_missing',
      before: row.before,
      after: row.after,
    })),
  };
}
