import type { LabRange, LabRangeRequest } from '@cdms/contract';
import { numericLabTests, type StudyDefinition } from '@cdms/study';
import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { updateRowAudited } from '../audit/audited-row.ts';
import { authorize } from '../auth/authorize.ts';
import type { Principal } from '../auth/principal.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { isSiteOfStudy } from '../studies/site-of-study.ts';
import { findLabRangeForWrite } from './find-lab-range-for-write.ts';
import { auditedLabRange, presentLabRange, selectLabRanges } from './lab-range-view.ts';
import { reflagLabResults } from './reflag-lab-results.ts';

/** The refusals the database's checks would also make, said first in the user's language. */
function validateLabRange(definition: StudyDefinition, request: LabRangeRequest): void {
  if (!numericLabTests(definition).some((test) => test.testKey === request.testKey))
    throw new AppError(422, 'unknown_lab_test');
  const noLimit = request.low === null && request.high === null;
  const reversed = request.low !== null && request.high !== null && request.low > request.high;
  const ageReversed = request.ageMin !== null && request.ageMax !== null && request.ageMin > request.ageMax;
  if (noLimit || reversed || ageReversed) throw new AppError(422, 'lab_range_invalid');
}

/**
 * Adds a normal range (no `rangeId`) or changes one, DM and ADMIN, audited with before and after.
 * The site must belong to the study; a retired range is not changed (409), a new one is added instead.
 */
export async function saveLabRange(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  input: { studyId: number; definition: StudyDefinition; rangeId?: number; request: LabRangeRequest },
): Promise<LabRange> {
  const { studyId, request } = input;
  authorize(principal, 'lab.manage', { studyId, siteId: request.siteId });
  validateLabRange(input.definition, request);
  const values = {
    site_id: request.siteId,
    test_key: request.testKey,
    unit: request.unit,
    low: request.low,
    high: request.high,
    sex: request.sex,
    age_min: request.ageMin,
    age_max: request.ageMax,
    effective_from: request.effectiveFrom,
  };
  const id = await inTransaction(db, async (trx) => {
    if (!(await isSiteOfStudy(trx, studyId, request.siteId))) throw new AppError(422, 'unknown_site');
    const now = new Date();
    if (input.rangeId === undefined) {
      const created = await trx
        .insertInto('lab_ranges')
        .values({
          ...values,
          study_id: studyId,
          created_by: principal.user.id,
          updated_by: principal.user.id,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await recordAudit(trx, actor, {
        type: 'lab_range.created',
        entityType: 'lab_range',
        entityId: created.id,
        studyId,
        siteId: request.siteId,
        before: null,
        after: auditedLabRange(values),
      });
      await reflagLabResults(trx, [{ siteId: request.siteId, testKey: request.testKey }]);
      return created.id;
    }
    const before = await findLabRangeForWrite(trx, principal, studyId, input.rangeId);
    await updateRowAudited(
      trx,
      actor,
      {
        table: 'lab_ranges',
        id: before.id,
        set: { ...values, updated_by: principal.user.id, updated_at: now },
      },
      {
        type: 'lab_range.updated',
        studyId,
        siteId: request.siteId,
        before: auditedLabRange(before),
        after: auditedLabRange(values),
      },
    );
    // The results it applied to before the change and those it may apply to now.
    await reflagLabResults(trx, [
      { siteId: before.site_id, testKey: before.test_key },
      { siteId: request.siteId, testKey: request.testKey },
    ]);
    return before.id;
  });
  return presentLabRange(await selectLabRanges(db).where('lab_ranges.id', '=', id).executeTakeFirstOrThrow());
}
