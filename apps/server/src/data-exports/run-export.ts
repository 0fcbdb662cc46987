import { createHash } from 'node:crypto';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { DataExportFormat } from '@cdms/contract';
import type { Kysely, Transaction } from 'kysely';
import { systemActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database, DataExportRow } from '../db/schema.ts';
import type { ExportScope } from '../odm/load-export-batch.ts';
import { readStudyCode } from '../studies/study-code.ts';
import { type ExportFormat, type ExportProgress, exportFormats } from './export-formats.ts';
import type { StoredExportOptions } from './export-view.ts';

/** A chunk row holds at most this much (a longer piece of a format's output, alone); the runner buffers one. */
export const EXPORT_CHUNK_BYTES = 1024 * 1024;
/** Progress (and the heartbeat) is written at most this often. */
export const EXPORT_PROGRESS_INTERVAL_MS = 250;

export type ExportOutcome = 'done' | 'failed' | 'cancelled' | 'lost' | 'requeued';

/** The job's row changed under the runner: cancelled, or reclaimed by another process. */
class JobGone extends Error {}
/** This process is shutting down: the job goes back to the queue for another (or the next start). */
class Abandoned extends Error {}

/**
 * Runs one claimed export: counts the values to write (the progress bar's total), streams the
 * format's bytes into chunk rows of about 1 MB (each insert its own short statement), writes
 * progress and the heartbeat a few times a second, and finishes with size and SHA-256 — audited
 * with who asked, what and how much. A failure or a cancel deletes every chunk: nothing half
 * written can be downloaded. Yields to the event loop between chunks so requests keep flowing.
 */
export async function runExport(
  db: Kysely<Database>,
  job: DataExportRow,
  formats: Record<string, ExportFormat> = exportFormats,
  signal?: AbortSignal,
): Promise<ExportOutcome> {
  const runner = job.runner;
  if (runner === null) throw new Error(`Export ${job.id} was not claimed.`);
  // Every write to the job's row holds only while this runner still runs it: a cancel or another
  // process taking the job over wins.
  const mine = (executor: Kysely<Database> | Transaction<Database> = db) =>
    executor
      .updateTable('data_exports')
      .where('id', '=', job.id)
      .where('runner', '=', runner)
      .where('state', '=', 'running');
  // Audited as the system, on behalf of whoever asked for the export.
  const actor = { ...systemActor('data-export'), userId: job.requested_by };
  const options = job.options as StoredExportOptions;
  const scope: ExportScope = { studyId: job.study_id, ...options.scope };
  const progress: ExportProgress = { values: 0, subjects: 0 };
  /** The chunk insert under way (at most one): settled before any cleanup deletes the chunks. */
  let storing: Promise<unknown> = Promise.resolve();

  try {
    const format = formats[job.format];
    if (!format) throw new Error(`Unknown export format ${job.format}.`);
    const maskPersonalData = job.mask_personal_data;
    const valuesAsOf = options.valuesAsOf ?? 'current';
    const total = await format.countValues(db, scope, { maskPersonalData, valuesAsOf });
    const counted = await mine().set({ values_total: total, heartbeat_at: new Date() }).executeTakeFirst();
    if (counted.numUpdatedRows === 0n) throw new JobGone();

    const hash = createHash('sha256');
    let byteSize = 0;
    let seq = 0;
    // Two chunk buffers taking turns: one is filled while the other's insert is under way, so the
    // export does not stop for PostgreSQL to store each megabyte. The format's text is encoded
    // straight into them, where a buffer per piece of text and their concatenation per chunk had made
    // ~3 bytes of short-lived memory outside V8's heap per byte exported, which the collector frees
    // late. A buffer is filled again only once its insert has been awaited: the driver has sent it.
    const buffers = [Buffer.allocUnsafe(EXPORT_CHUNK_BYTES), Buffer.allocUnsafe(EXPORT_CHUNK_BYTES)];
    let filling = 0;
    let used = 0;
    let lastProgressAt = Date.now();
    const store = async (bytes: Uint8Array) => {
      // One insert at a time: the chunks land in order, and the other buffer is free again.
      await storing;
      hash.update(bytes);
      byteSize += bytes.length;
      storing = db.insertInto('data_export_chunks').values({ export_id: job.id, seq, bytes }).execute();
      // Its failure is the export's, raised where it is awaited (the next store, the end, the catch).
      storing.catch(() => undefined);
      seq += 1;
    };
    const flush = async () => {
      if (used === 0) return;
      await store((buffers[filling] as Buffer).subarray(0, used));
      filling = 1 - filling;
      used = 0;
    };
    const append = async (chunk: string | Uint8Array) => {
      const length = typeof chunk === 'string' ? Buffer.byteLength(chunk, 'utf8') : chunk.length;
      if (used + length > EXPORT_CHUNK_BYTES) await flush();
      if (length > EXPORT_CHUNK_BYTES) {
        // Larger than a chunk (a format's long piece): stored as its own chunk.
        await store(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
        return;
      }
      const buffer = buffers[filling] as Buffer;
      if (typeof chunk === 'string') buffer.write(chunk, used, 'utf8');
      else buffer.set(chunk, used);
      used += length;
    };
    const writeProgress = async () => {
      const updated = await mine()
        .set({
          values_done: progress.values,
          subjects_done: progress.subjects ?? 0,
          heartbeat_at: new Date(),
        })
        .executeTakeFirst();
      if (updated.numUpdatedRows === 0n) throw new JobGone();
      lastProgressAt = Date.now();
    };

    const chunks = format.produce(
      db,
      {
        scope,
        auditTrail: options.auditTrail,
        labels: options.labels ?? null,
        maskPersonalData,
        valuesAsOf,
      },
      (done) => {
        progress.values = done.values;
        if (done.subjects !== undefined) progress.subjects = done.subjects;
      },
    );
    for await (const chunk of chunks) {
      await append(chunk);
      if (Date.now() - lastProgressAt >= EXPORT_PROGRESS_INTERVAL_MS) await writeProgress();
      if (signal?.aborted) throw new Abandoned();
      await yieldToEventLoop();
    }
    await flush();
    await storing;

    const sha256 = hash.digest('hex');
    const finished = await inTransaction(db, async (trx) => {
      const studyCode = await readStudyCode(trx, job.study_id);
      const format = job.format as DataExportFormat;
      const fileName = `${studyCode}_${format}_${job.id}.${formats[job.format]?.extension ?? 'bin'}`;
      const updated = await mine(trx)
        .set({
          state: 'done',
          finished_at: new Date(),
          heartbeat_at: new Date(),
          values_done: progress.values,
          subjects_done: progress.subjects ?? 0,
          file_name: fileName,
          content_type: formats[job.format]?.contentType ?? 'application/octet-stream',
          byte_size: byteSize,
          sha256,
        })
        .executeTakeFirst();
      if (updated.numUpdatedRows === 0n) return false;
      await recordAudit(trx, actor, {
        type: 'data_export.finished',
        entityType: 'data_export',
        entityId: job.id,
        studyId: job.study_id,
        after: {
          format,
          ...options,
          maskPersonalData,
          file: fileName,
          byteSize,
          sha256,
          subjects: progress.subjects ?? 0,
          values: progress.values,
        },
      });
      return true;
    });
    if (!finished) throw new JobGone();
    return 'done';
  } catch (error) {
    await storing.catch(() => undefined);
    if (error instanceof Abandoned) {
      const requeued = await inTransaction(db, async (trx) => {
        const updated = await mine(trx)
          .set({
            state: 'queued',
            runner: null,
            started_at: null,
            heartbeat_at: null,
            values_done: 0,
            subjects_done: 0,
          })
          .executeTakeFirst();
        if (updated.numUpdatedRows > 0n)
          await trx.deleteFrom('data_export_chunks').where('export_id', '=', job.id).execute();
        return updated.numUpdatedRows > 0n;
      });
      return requeued ? 'requeued' : 'lost';
    }
    if (error instanceof JobGone) {
      // Cancelled (or taken over by another process after a stall): what this runner wrote goes,
      // unless the job is running again under someone else, who starts from scratch anyway.
      const current = await db
        .selectFrom('data_exports')
        .select(['state', 'runner'])
        .where('id', '=', job.id)
        .executeTakeFirst();
      if (current?.state === 'cancelled' || current?.state === 'failed') {
        await db.deleteFrom('data_export_chunks').where('export_id', '=', job.id).execute();
        return 'cancelled';
      }
      return 'lost';
    }
    const message = error instanceof Error ? error.message : String(error);
    const failed = await inTransaction(db, async (trx) => {
      const updated = await mine(trx)
        .set({ state: 'failed', error: message.slice(0, 1000), finished_at: new Date() })
        .executeTakeFirst();
      if (updated.numUpdatedRows === 0n) return false;
      await trx.deleteFrom('data_export_chunks').where('export_id', '=', job.id).execute();
      await recordAudit(trx, actor, {
        type: 'data_export.failed',
        entityType: 'data_export',
        entityId: job.id,
        studyId: job.study_id,
        after: {
          format: job.format,
          ...options,
          maskPersonalData: job.mask_personal_data,
          error: message.slice(0, 1000),
        },
      });
      return true;
    });
    return failed ? 'failed' : 'lost';
  }
}
