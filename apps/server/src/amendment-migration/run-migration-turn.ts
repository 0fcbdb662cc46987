import { todayInKorea } from '@cdms/contract';
import { type Kysely, sql } from 'kysely';
import { requirePublishedAmendment } from '../amendments/published-amendment.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { AmendmentMigrationsTable, Database } from '../db/schema.ts';
import type { ErrorCode, MessageParam } from '../http/error-messages.ts';
import { AppError } from '../http/errors.ts';
import { migrateSubject, type SubjectMigration } from './migrate-subject.ts';
import { startDueMigrations } from './start-due-migrations.ts';
import { subjectsInScope } from './subjects-in-scope.ts';

/** Subjects per turn: a turn between two looks at the stop signal and the lease, never one subject of many. */
export const MIGRATION_BATCH_SIZE = 50;
/** How long a claimed job is its process's: a process killed mid-batch leaves it to another after this. */
export const MIGRATION_LEASE_SECONDS = 60;

type MigrationJob = Pick<
  AmendmentMigrationsTable,
  'amendment_id' | 'study_id' | 'scope' | 'site_id' | 'subject_id' | 'requested_by'
> & { id: number; last_subject_id: number };

/** A subject the migration could not move, as the job keeps it; the list words `code` in the reader's language. */
export interface MigrationFailure {
  subjectPk: number;
  subjectId: string;
  code: ErrorCode;
  params: Record<string, MessageParam>;
}

/**
 * One turn of a process's migration worker (`migration-worker.ts`): the jobs due today started
 * (`startDueMigrations`), then one job claimed with a lease and one batch of its subjects moved, each
 * subject in a transaction of its own that also moves the job's place (`last_subject_id`) and counts:
 * a crash between two subjects loses nothing, and one in the middle of a subject leaves that subject
 * as it was, to be moved when the lease runs out and a process claims the job again. A job with no
 * subject left is done. True when it did work (there may be more).
 */
export async function runMigrationTurn(
  db: Kysely<Database>,
  options: {
    batchSize?: number;
    leaseSeconds?: number;
    today?: string;
    stopping?: AbortSignal;
    /** A subject's move failed otherwise than by a refusal (a defect): for the server's log. */
    onError?: (error: unknown) => void;
  } = {},
): Promise<boolean> {
  const today = options.today ?? todayInKorea();
  await startDueMigrations(db, today);
  const job = await claimMigration(db, options.leaseSeconds ?? MIGRATION_LEASE_SECONDS);
  if (!job) return false;
  const amendment = await requirePublishedAmendment(db, job.study_id, job.amendment_id);
  const ids = await subjectsInScope(db, job, amendment.from.version)
    .select('subjects.id')
    .where('subjects.id', '>', job.last_subject_id)
    .orderBy('subjects.id')
    .limit(options.batchSize ?? MIGRATION_BATCH_SIZE)
    .execute();
  if (ids.length === 0) {
    await db
      .updateTable('amendment_migrations')
      .set({ status: 'done', finished_at: new Date(), lease_until: null })
      .where('id', '=', job.id)
      .execute();
    return true;
  }
  for (const { id } of ids) {
    if (options.stopping?.aborted) break;
    try {
      const outcome = await inTransaction(db, async (trx) => {
        const outcome = await migrateSubject(trx, amendment, id);
        await trx
          .updateTable('amendment_migrations')
          .set(countOutcome(outcome, id))
          .where('id', '=', job.id)
          .execute();
        return outcome;
      });
      if (outcome === 'migrated') await moveOnWhereInEffect(db, job.study_id, id, today, options.onError);
    } catch (error) {
      if (!(error instanceof AppError)) options.onError?.(error);
      await recordFailure(db, job.id, id, error);
    }
  }
  // The lease is given back: the next turn, here or in another process, goes on after the last subject.
  await db.updateTable('amendment_migrations').set({ lease_until: null }).where('id', '=', job.id).execute();
  return true;
}

/**
 * A subject one amendment moved goes on through the next published amendments while each is in
 * effect at its site (its approval date there has come), each move in a transaction of its own: a
 * subject that reached a version after the next amendment's own job ran there is not left behind.
 * It stops at an amendment not in effect at its site, or one that holds or refuses it — that
 * amendment's jobs move it later, and a refusal shows there.
 */
async function moveOnWhereInEffect(
  db: Kysely<Database>,
  studyId: number,
  subjectId: number,
  today: string,
  onError: ((error: unknown) => void) | undefined,
): Promise<void> {
  for (;;) {
    const next = await db
      .selectFrom('subjects')
      .innerJoin('study_amendments as a', (join) =>
        join
          .onRef('a.study_id', '=', 'subjects.study_id')
          .onRef('a.from_version', '=', 'subjects.definition_version'),
      )
      .innerJoin('study_amendment_sites as s', (join) =>
        join.onRef('s.amendment_id', '=', 'a.id').onRef('s.site_id', '=', 'subjects.site_id'),
      )
      .select('a.id')
      .where('subjects.id', '=', subjectId)
      .where('a.status', '=', 'published')
      .where('s.effective_on', '<=', today)
      .executeTakeFirst();
    if (!next) return;
    const amendment = await requirePublishedAmendment(db, studyId, next.id);
    try {
      const outcome = await inTransaction(db, (trx) => migrateSubject(trx, amendment, subjectId));
      if (outcome !== 'migrated') return;
    } catch (error) {
      if (!(error instanceof AppError)) onError?.(error);
      return;
    }
  }
}

function countOutcome(outcome: SubjectMigration, subjectId: number) {
  return {
    last_subject_id: subjectId,
    ...(outcome === 'migrated' ? { migrated: sql<number>`migrated + 1` } : {}),
    ...(outcome === 'held' ? { held: sql<number>`held + 1` } : {}),
  };
}

/** The job with the lowest id that is not done and not leased by a live process, leased to this one. */
async function claimMigration(db: Kysely<Database>, leaseSeconds: number): Promise<MigrationJob | undefined> {
  return db
    .updateTable('amendment_migrations')
    .set({
      status: 'running',
      lease_until: sql<Date>`now() + make_interval(secs => ${leaseSeconds})`,
    })
    .where(
      'id',
      '=',
      db
        .selectFrom('amendment_migrations')
        .select('id')
        .where('status', '<>', 'done')
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', sql<Date>`now()`)]))
        .orderBy('id')
        .limit(1)
        .forUpdate()
        .skipLocked(),
    )
    .returning([
      'id',
      'amendment_id',
      'study_id',
      'scope',
      'site_id',
      'subject_id',
      'requested_by',
      'last_subject_id',
    ])
    .executeTakeFirst();
}

/**
 * A subject the move refused (a hard check of the next version, a conflict) or failed on: counted,
 * listed with its reason, and passed; the subject stays on its version, to be moved by a later job.
 */
async function recordFailure(db: Kysely<Database>, jobId: number, subjectId: number, error: unknown) {
  const subject = await db
    .selectFrom('subjects')
    .select('screening_number')
    .where('id', '=', subjectId)
    .executeTakeFirst();
  const failure: MigrationFailure =
    error instanceof AppError
      ? {
          subjectPk: subjectId,
          subjectId: subject?.screening_number ?? '',
          code: error.code,
          params: error.params,
        }
      : {
          subjectPk: subjectId,
          subjectId: subject?.screening_number ?? '',
          code: 'migration_failed',
          params: {},
        };
  await db
    .updateTable('amendment_migrations')
    .set({
      failures: sql<string>`failures || ${JSON.stringify([failure])}::jsonb`,
      last_subject_id: subjectId,
    })
    .where('id', '=', jobId)
    .execute();
}
