import type { AmendmentMigration, StartMigrationRequest } from '@cdms/contract';
import type { Kysely } from 'kysely';
import { requirePublishedAmendmentRow } from '../amendments/published-amendment.ts';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Principal } from '../auth/principal.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import type { Language } from '../http/language.ts';
import { lockStudyRow } from '../studies/lock-study-row.ts';
import { subjectQuery } from '../subjects/subject-access.ts';
import { listMigrations } from './list-migrations.ts';
import { subjectsInScope } from './subjects-in-scope.ts';

/**
 * `POST …/amendments/:amendmentId/migrations` (issue 49 item 4): a designer moves the study's, a
 * site's or one subject's subjects to a published amendment's version now, whatever the sites'
 * approval dates say. Refused for an amendment not published (409 `amendment_not_published`), a site or
 * subject not the study's (404), and while a job of the same scope is queued or running (409
 * `migration_running`). Under the study's row lock: the job queued with the count of subjects it will
 * move, and audited. The worker (`migration-worker.ts`) runs it.
 */
export async function startMigration(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  studyId: number,
  amendmentId: number,
  request: StartMigrationRequest,
  language: Language,
): Promise<AmendmentMigration> {
  const id = await inTransaction(db, async (trx) => {
    await lockStudyRow(trx, studyId);
    const amendment = await requirePublishedAmendmentRow(trx, studyId, amendmentId);
    const siteId = request.scope === 'site' ? request.siteId : null;
    const subjectId = request.scope === 'subject' ? request.subjectId : null;
    let target: string | null = null;
    if (siteId !== null) {
      const site = await trx
        .selectFrom('sites')
        .select('code')
        .where('id', '=', siteId)
        .where('study_id', '=', studyId)
        .executeTakeFirst();
      if (!site) throw new AppError(404, 'not_found');
      target = site.code;
    }
    if (subjectId !== null) {
      const subject = await subjectQuery(trx, studyId, subjectId).executeTakeFirst();
      if (!subject) throw new AppError(404, 'not_found');
      target = subject.screening_number;
    }
    const running = await trx
      .selectFrom('amendment_migrations')
      .select('id')
      .where('amendment_id', '=', amendmentId)
      .where('status', '<>', 'done')
      .where('scope', '=', request.scope)
      .where((eb) => (siteId === null ? eb('site_id', 'is', null) : eb('site_id', '=', siteId)))
      .where((eb) => (subjectId === null ? eb('subject_id', 'is', null) : eb('subject_id', '=', subjectId)))
      .executeTakeFirst();
    if (running) throw new AppError(409, 'migration_running');
    const scope = { study_id: studyId, scope: request.scope, site_id: siteId, subject_id: subjectId };
    const { total } = await subjectsInScope(trx, scope, amendment.from_version)
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow();
    const job = await trx
      .insertInto('amendment_migrations')
      .values({ amendment_id: amendmentId, ...scope, total: Number(total), requested_by: principal.user.id })
      .returning('id')
      .executeTakeFirstOrThrow();
    await recordAudit(trx, actor, {
      type: 'study.migration_started',
      entityType: 'study_amendment',
      entityId: amendmentId,
      studyId,
      reason: amendment.number,
      after: {
        number: amendment.number,
        fromVersion: amendment.from_version,
        toVersion: amendment.to_version,
        scope: request.scope,
        migrationTarget: target,
        subjects: Number(total),
      },
    });
    return job.id;
  });
  const { migrations } = await listMigrations(db, studyId, amendmentId, language);
  const started = migrations.find((migration) => migration.id === id);
  if (!started) throw new Error('The migration job just queued is not listed.');
  return started;
}
