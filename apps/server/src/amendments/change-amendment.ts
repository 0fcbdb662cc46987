import type { ChangeAmendmentRequest } from '@cdms/contract';
import { amendmentDeclarationsSchema } from '@cdms/study';
import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { lockStudyRow } from '../studies/lock-study-row.ts';
import { definitionProblemsOf } from '../study-design/definition-problems.ts';
import { requireAmendment, requireDraftAmendment } from './amendment-rows.ts';
import { writeAmendmentSites } from './write-amendment-sites.ts';

/**
 * `PUT …/amendments/:amendmentId`: a draft amendment's number, reason, sites' approval dates and
 * declarations (renames, code mappings, conversions, replacements — checked by the study package's
 * schema: 422 `invalid_declarations` with each problem). Under the study's row lock; audited with
 * before and after. A published or discarded amendment is history (409 `amendment_not_draft`).
 */
export async function changeAmendment(
  db: Kysely<Database>,
  actor: AuditActor,
  studyId: number,
  amendmentId: number,
  request: ChangeAmendmentRequest,
): Promise<{ id: number }> {
  const declarations = amendmentDeclarationsSchema.safeParse(request.declarations, { reportInput: true });
  if (!declarations.success)
    throw new AppError(
      422,
      'invalid_declarations',
      { count: declarations.error.issues.length },
      { problems: definitionProblemsOf(declarations.error) },
    );
  return inTransaction(db, async (trx) => {
    await lockStudyRow(trx, studyId);
    const amendment = await requireAmendment(trx, studyId, amendmentId);
    requireDraftAmendment(amendment);
    const clash = await trx
      .selectFrom('study_amendments')
      .select('id')
      .where('study_id', '=', studyId)
      .where('id', '<>', amendmentId)
      .where('status', '<>', 'discarded')
      .where((eb) => eb(eb.fn('lower', ['number']), '=', request.number.toLowerCase()))
      .executeTakeFirst();
    if (clash) throw new AppError(409, 'amendment_number_taken', { number: request.number });
    const beforeSites = await trx
      .selectFrom('study_amendment_sites')
      .select(['site_id', 'effective_on'])
      .where('amendment_id', '=', amendmentId)
      .orderBy('site_id')
      .execute();
    await trx
      .updateTable('study_amendments')
      .set({
        number: request.number,
        reason: request.reason,
        declarations: JSON.stringify(declarations.data),
      })
      .where('id', '=', amendmentId)
      .execute();
    const sites = await writeAmendmentSites(trx, studyId, amendmentId, request.sites);
    await recordAudit(trx, actor, {
      type: 'study.amendment_changed',
      entityType: 'study_amendment',
      entityId: amendmentId,
      studyId,
      before: {
        number: amendment.number,
        reason: amendment.reason,
        sites: Object.fromEntries(beforeSites.map((site) => [String(site.site_id), site.effective_on])),
        declarations: amendment.declarations,
      },
      after: { number: request.number, reason: request.reason, sites, declarations: declarations.data },
    });
    return { id: amendmentId };
  });
}
