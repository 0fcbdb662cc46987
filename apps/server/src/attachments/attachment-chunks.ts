import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { FileSource } from '../uploads/file-source.ts';

/** 1 MB: a few MB of memory per statement on the way in or out, whatever the file's size. */
export const ATTACHMENT_CHUNK_BYTES = 1024 * 1024;

/**
 * Stores a file's bytes as chunks under its SHA-256, in the caller's transaction (so a failed upload
 * leaves none). Content already stored (the same file uploaded before) is not written again.
 */
export async function writeAttachmentChunks(trx: Transaction<Database>, source: FileSource): Promise<void> {
  const stored = await trx
    .selectFrom('attachment_chunks')
    .select('seq')
    .where('sha256', '=', source.sha256)
    .limit(1)
    .executeTakeFirst();
  if (stored) return;
  for (let seq = 0; seq * ATTACHMENT_CHUNK_BYTES < source.size; seq += 1) {
    const bytes = await source.read(seq * ATTACHMENT_CHUNK_BYTES, ATTACHMENT_CHUNK_BYTES);
    await trx
      .insertInto('attachment_chunks')
      .values({ sha256: source.sha256, seq, bytes })
      // Another upload of the same content committed meanwhile: its chunks are these bytes.
      .onConflict((conflict) => conflict.doNothing())
      .execute();
  }
}

/** A file's bytes chunk by chunk, one query each: what a download streams. */
export async function* readAttachmentChunks(db: Kysely<Database>, sha256: string): AsyncGenerator<Buffer> {
  for (let seq = 0; ; seq += 1) {
    const chunk = await db
      .selectFrom('attachment_chunks')
      .select('bytes')
      .where('sha256', '=', sha256)
      .where('seq', '=', seq)
      .executeTakeFirst();
    if (!chunk) return;
    yield Buffer.from(chunk.bytes);
  }
}

/** A whole file in memory: for tests and checks of small files, never for a request. */
export async function readAttachmentBytes(db: Kysely<Database>, sha256: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of readAttachmentChunks(db, sha256)) chunks.push(chunk);
  return Buffer.concat(chunks);
}
