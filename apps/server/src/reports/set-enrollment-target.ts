import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { updateRowAudited } from '../audit/audited-row.ts';
import { authorize } from '../auth/authorize.ts';
import type { Principal } from '../auth/principal.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { currentStudyDefinition } from '../studies/study-definitions.ts';
import { enrollmentTargetOf } from './enrollment-report.ts';

/**
 * A site's enrollment target (issue 17: the enrollment report measures each site against it), set by
 * data management (`enrollment.plan`); null returns the site to the definition's per-site default.
 * Audited with before and after; an unchanged value writes nothing.
 */
export async function setEnrollmentTarget(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  studyId: number,
  siteId: number,
  target: number | null,
): Promise<{ siteId: number; target: number; targetIsDefault: boolean }> {
  authorize(principal, 'enrollment.plan', { studyId, siteId });
  const definition = await currentStudyDefinition(db, studyId);
  const defaultTarget = enrollmentTargetOf(definition?.definition ?? null);
  return inTransaction(db, async (trx) => {
    const site = await trx
      .selectFrom('sites')
      .select(['id', 'code', 'enrollment_target'])
      .where('id', '=', siteId)
      .where('study_id', '=', studyId)
      .forUpdate()
      .executeTakeFirst();
    if (!site) throw new AppError(404, 'not_found');
    if (site.enrollment_target !== target) {
      await updateRowAudited(
        trx,
        actor,
        { table: 'sites', id: siteId, set: { enrollment_target: target } },
        {
          type: 'site.enrollment_target_changed',
          studyId,
          siteId,
          before: { site: site.code, target: site.enrollment_target },
          after: { site: site.code, target },
        },
      );
    }
    return { siteId, target: target ?? defaultTarget, targetIsDefault: target === null };
  });
}
