import type { reviewMarkRequestSchema } from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { subjectAuditScope } from '../audit/subject-audit-scope.ts';
import { authorize } from '../auth/authorize.ts';
import { siteScope } from '../auth/permissions.ts';
import type { Principal } from '../auth/principal.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { refuseWriteUnderHolds, subjectTarget } from '../locks/holds-in-force.ts';
import { currentStudyDefinition } from '../studies/study-definitions.ts';
import { lockSubjectsInIdOrder } from '../subjects/lock-subjects-in-id-order.ts';
import { findReviewTable } from './review-tables.ts';

export type ReviewMarkInput = z.output<typeof reviewMarkRequestSchema>;

/**
 * A monitor or data manager (`review.mark`: CRA over their sites, DM everywhere) marks rows of a
 * listing reviewed, all or nothing: every form instance must be one with data of the listing's form,
 * of a live subject at a site the reviewer covers (404 otherwise, whichever it is); a lock on any of
 * them refuses the whole request (423; a freeze allows reviewing, as it allows SDV: the `sdv.mark`
 * rule of the contract's lock-rules). Then each mark is written with the instance's version as read
 * under the subjects' row locks, and audited on its own (`review.marked`, like `sdv.verified`), in
 * one transaction. Marking a row again renews its mark.
 */
export async function markReviewed(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  studyId: number,
  tableName: string,
  request: ReviewMarkInput,
): Promise<number> {
  authorize(principal, 'review.mark', { studyId });
  const current = await currentStudyDefinition(db, studyId);
  if (!current) throw new AppError(404, 'not_found');
  const table = findReviewTable(current.definition, tableName);
  const scope = siteScope(principal, 'review.mark', studyId);
  const ids = [...new Set(request.formInstanceIds)].sort((a, b) => a - b);
  const at = new Date();
  return inTransaction(db, async (trx) => {
    const readInstances = () =>
      trx
        .selectFrom('form_instances as fi')
        .innerJoin('subjects as s', 's.id', 'fi.subject_id')
        .select([
          'fi.id',
          'fi.visit_key',
          'fi.form_key',
          'fi.version',
          's.id as subject_id',
          's.study_id',
          's.site_id',
        ])
        .where('fi.id', 'in', ids)
        .where('fi.form_key', '=', table.formKey)
        .where('fi.has_data', '=', true)
        .where('s.study_id', '=', studyId)
        .where('s.deleted_at', 'is', null)
        .orderBy('fi.id')
        .execute();
    const seen = await readInstances();
    const inScope = (siteId: number) => scope === 'all' || scope.has(siteId);
    if (seen.length !== ids.length || seen.some((instance) => !inScope(instance.site_id)))
      throw new AppError(404, 'not_found');
    await lockSubjectsInIdOrder(trx, { ids: [...new Set(seen.map((instance) => instance.subject_id))] });
    // Read again under the locks: the version marked is the one no save can move meanwhile.
    const instances = await readInstances();
    const marks = await trx
      .selectFrom('review_marks')
      .select(['form_instance_id', 'reviewed_version'])
      .where('form_instance_id', 'in', ids)
      .where('listing', '=', table.name)
      .execute();
    const markOf = new Map(marks.map((mark) => [mark.form_instance_id, mark.reviewed_version]));
    for (const instance of instances) {
      const subject = { id: instance.subject_id, study_id: instance.study_id, site_id: instance.site_id };
      const form = { visitKey: instance.visit_key, formKey: instance.form_key };
      await refuseWriteUnderHolds(trx, 'sdv.mark', subjectTarget(subject, form));
      const values = {
        reviewed_version: instance.version,
        reviewed_by: principal.user.id,
        reviewed_at: at,
      };
      await trx
        .insertInto('review_marks')
        .values({
          form_instance_id: instance.id,
          listing: table.name,
          study_id: instance.study_id,
          site_id: instance.site_id,
          subject_id: instance.subject_id,
          ...values,
        })
        .onConflict((conflict) => conflict.columns(['form_instance_id', 'listing']).doUpdateSet(values))
        .execute();
      const before = markOf.get(instance.id);
      await recordAudit(trx, actor, {
        type: 'review.marked',
        entityType: 'form',
        entityId: `${instance.visit_key}.${instance.form_key}`,
        ...subjectAuditScope(subject),
        before: {
          state: before === undefined ? 'not_reviewed' : before === instance.version ? 'reviewed' : 'changed',
        },
        after: { state: 'reviewed', listing: table.name, reviewedVersion: instance.version },
      });
    }
    return instances.length;
  });
}
