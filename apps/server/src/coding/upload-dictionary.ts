import type { CODING_UPLOAD_MAX_BYTES, codingUploadKinds } from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { presentDictionary } from './list-dictionaries.ts';
import { filesOfZip, loadDictionary, loadSynonyms } from './load-dictionary.ts';
import { recodePending } from './recode-pending.ts';

export type UploadKind = (typeof codingUploadKinds)[number];
export type UploadLimit = typeof CODING_UPLOAD_MAX_BYTES;

/**
 * A dictionary upload: a zip of the distribution's files (meddra, whodrug) or the synonym CSV
 * (synonyms). Loads it and, when it is the kind's first version or the synonym list, codes the
 * queue's pending verbatims that now match — all in one transaction with the audit records.
 */
export async function uploadDictionary(
  db: Kysely<Database>,
  actor: AuditActor & { userId: number },
  studyId: number,
  input: { kind: UploadKind; version?: string; fileName: string; bytes: Uint8Array },
  at = new Date(),
) {
  if (input.kind === 'synonyms') {
    const text = new TextDecoder('utf-8', { fatal: false }).decode(input.bytes);
    if (text.includes('\uFFFD')) throw new AppError(422, 'coding_file_invalid', { problem: 'UTF-8' });
    return inTransaction(db, async (trx) => {
      const count = await loadSynonyms(trx, actor, studyId, text, input.fileName, at);
      await recodePending(trx, actor, studyId, ['meddra', 'whodrug'], at);
      return { dictionary: null, synonyms: count };
    });
  }
  const kind = input.kind;
  const files = filesOfZip(input.bytes);
  return inTransaction(db, async (trx) => {
    const loaded = await loadDictionary(
      trx,
      actor,
      { studyId, kind, files, fileName: input.fileName, version: input.version },
      at,
    );
    if (loaded.active) await recodePending(trx, actor, studyId, [kind], at);
    const dictionary = await presentDictionary(trx, studyId, loaded.id);
    return { dictionary, synonyms: null };
  });
}
