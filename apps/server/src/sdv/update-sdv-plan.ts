import type { SdvPlanRequest } from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { authorize } from '../auth/authorize.ts';
import type { Principal } from '../auth/principal.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { rebuildReadModel } from '../read-model/rebuild-read-model.ts';
import { loadSdvPlan } from '../sdv-state/sdv-plan.ts';

/**
 * `PUT /api/studies/:studyId/sdv/plan` (DM, ADMIN): the study's targeted SDV plan, audited with the
 * plan before and after. The same plan again is a 409 `sdv_plan_unchanged`: nothing to record.
 */
export async function updateSdvPlan(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  studyId: number,
  request: SdvPlanRequest,
): Promise<void> {
  authorize(principal, 'sdv.plan', { studyId });
  await inTransaction(db, async (trx) => {
    // One plan change at a time: the study's row orders them.
    await trx.selectFrom('studies').select('id').where('id', '=', studyId).forUpdate().execute();
    const before = await loadSdvPlan(trx, studyId);
    if (before.mode === request.mode && before.firstSubjectsPerSite === request.firstSubjectsPerSite) {
      throw new AppError(409, 'sdv_plan_unchanged');
    }
    const values = {
      mode: request.mode,
      first_subjects_per_site: request.firstSubjectsPerSite,
      updated_by: principal.user.id,
      updated_at: new Date(),
    };
    await trx
      .insertInto('sdv_plans')
      .values({ study_id: studyId, ...values })
      .onConflict((conflict) => conflict.column('study_id').doUpdateSet(values))
      .execute();
    await recordAudit(trx, actor, {
      type: 'sdv.plan_changed',
      entityType: 'sdv_plan',
      entityId: studyId,
      studyId,
      before,
      after: { mode: request.mode, firstSubjectsPerSite: request.firstSubjectsPerSite },
    });
  });
  // Every subject's SDV counts are measured against the plan: the study's read model follows it
  // (as after a new definition version), in batches beside live traffic.
  await rebuildReadModel(db, { studyId });
}
