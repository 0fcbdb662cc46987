import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { loadDictionary, loadSynonyms } from '../coding/load-dictionary.ts';
import { recodePending } from '../coding/recode-pending.ts';
import { sendCodingQuery } from '../coding/send-coding-query.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { personByEmail } from './demo-subjects.ts';

const require = createRequire(import.meta.url);

/** The folder of the fictional coding dictionaries (packages/study/dictionaries/fictional). */
export function fictionalDictionaryFolder(): string {
  return path.dirname(require.resolve('@cdms/study/dictionaries/fictional/README.md'));
}

/** A fictional distribution's files, by path inside its folder (subfolders included). */
export function fictionalDistribution(folder: string): Map<string, string> {
  const root = path.join(fictionalDictionaryFolder(), folder);
  const files = new Map<string, string>();
  const walk = (relative: string) => {
    for (const entry of fs.readdirSync(path.join(root, relative), { withFileTypes: true })) {
      const name = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(name);
      else files.set(name, fs.readFileSync(path.join(root, name), 'utf8'));
    }
  };
  walk('');
  return files;
}

export interface DemoCodingInput {
  studyId: number;
  coder: string;
}

/**
 * Issue 51 item 5: the coding desk of the living demo. The coder loads the fictional MedDRA "90.0"
 * (with Korean names), the fictional WHODrug and the study's synonym list; the demo's adverse-event
 * terms and drug names that match are coded on their own, the rest stay in the queue. MedDRA "90.1" is
 * loaded but not yet switched to (its upgrade preview shows what would change), and one drug name is
 * sent back to its site as a query. Through the same commands as the API.
 */
export async function seedDemoCoding(db: Kysely<Database>, input: DemoCodingInput): Promise<void> {
  const coder = await personByEmail(db, input.coder);
  const actor = { ...coder.actor, userId: coder.principal.user.id };
  const at = new Date();
  await inTransaction(db, async (trx) => {
    for (const [kind, folder] of [
      ['meddra', 'meddra-90.0'],
      ['whodrug', 'whodrug-b3-2026-1'],
      ['meddra', 'meddra-90.1'],
    ] as const) {
      await loadDictionary(
        trx,
        actor,
        { studyId: input.studyId, kind, files: fictionalDistribution(folder), fileName: `${folder}.zip` },
        at,
      );
    }
    const synonyms = fs.readFileSync(path.join(fictionalDictionaryFolder(), 'synonyms.csv'), 'utf8');
    await loadSynonyms(trx, actor, input.studyId, synonyms, 'synonyms.csv', at);
    await recodePending(trx, actor, input.studyId, ['meddra', 'whodrug'], at);
  });
  // One drug name the coder cannot place (a strength and a form, no product): back to its site.
  const unclear = await db
    .selectFrom('coding_assignments')
    .select(['id', 'version'])
    .where('study_id', '=', input.studyId)
    .where('kind', '=', 'whodrug')
    .where('status', '=', 'pending')
    .where('verbatim', 'like', '%\\%%')
    .orderBy('id')
    .executeTakeFirst();
  if (unclear)
    await sendCodingQuery(db, coder.principal, coder.actor, input.studyId, unclear.id, {
      version: unclear.version,
      text: '약물명에 함량과 제형만 있습니다. 투여한 제품명(상품명)을 기재해 주세요.',
    });
}
