import type { AmendmentImpactResponse } from '@cdms/contract';
import { todayInKorea } from '@cdms/contract';
import type { Kysely, Transaction } from 'kysely';
import { analyzeAmendmentImpact } from '../amendment-impact/analyze-amendment-impact.ts';
import type { ImpactRow } from '../amendment-impact/impact-rows.ts';
import type { Principal } from '../auth/principal.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { draftAmendmentState } from './amendment-change-set.ts';
import { requireAmendment, requireDraftAmendment } from './amendment-rows.ts';
import { impactInputsHash } from './impact-inputs-hash.ts';
import { readImpact } from './read-impact.ts';

/** Rows per INSERT: 11 columns each stay far under PostgreSQL's 65,535 parameters. */
const INSERT_CHUNK = 1_000;

/**
 * `POST …/amendments/:amendmentId/impact` (issue 49 item 3): the draft amendment's impact on the data
 * stored today, computed by `amendment-impact/` (the next version's engine over every subject, in
 * batches) and stored with the draft revision and declarations it read, replacing the last run; the
 * drill-down pages the stored rows. Only a ready change set is analyzed (409 `amendment_not_ready`):
 * an open question would be read as a guess. A read of the study's data, so not audited; under the
 * amendment's row lock, so two runs follow one another.
 */
export async function runImpactAnalysis(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
  amendmentId: number,
): Promise<AmendmentImpactResponse> {
  await inTransaction(db, async (trx) => {
    await trx
      .selectFrom('study_amendments')
      .select('id')
      .where('id', '=', amendmentId)
      .where('study_id', '=', studyId)
      .forUpdate()
      .executeTakeFirst();
    const amendment = await requireAmendment(trx, studyId, amendmentId);
    requireDraftAmendment(amendment);
    const state = await draftAmendmentState(trx, studyId, amendment);
    if (!state.computed?.ready || !state.live || !state.next || state.draftRevision === null)
      throw new AppError(409, 'amendment_not_ready');
    if (state.studyRefusals.length > 0) throw new AppError(409, 'amendment_not_ready');
    const sites = await trx
      .selectFrom('study_amendment_sites')
      .select(['site_id', 'effective_on'])
      .where('amendment_id', '=', amendmentId)
      .execute();
    const siteEffectiveDates = new Map<number, string>();
    for (const site of sites) if (site.effective_on) siteEffectiveDates.set(site.site_id, site.effective_on);

    await trx.deleteFrom('amendment_impact_rows').where('amendment_id', '=', amendmentId).execute();
    await trx.deleteFrom('amendment_impacts').where('amendment_id', '=', amendmentId).execute();
    const summary = await analyzeAmendmentImpact(
      trx,
      {
        studyId,
        live: state.live.definition,
        next: state.next,
        changeSet: state.computed,
        siteEffectiveDates,
        today: todayInKorea(),
      },
      (rows) => storeImpactRows(trx, amendmentId, rows),
    );
    await trx
      .insertInto('amendment_impacts')
      .values({
        amendment_id: amendmentId,
        draft_revision: state.draftRevision,
        inputs_hash: await impactInputsHash(trx, amendment),
        summary: JSON.stringify(summary),
        computed_by: principal.user.id,
        computed_at: new Date(),
      })
      .execute();
  });
  return readImpact(db, studyId, amendmentId);
}

async function storeImpactRows(
  trx: Transaction<Database>,
  amendmentId: number,
  rows: readonly ImpactRow[],
): Promise<void> {
  for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
    await trx
      .insertInto('amendment_impact_rows')
      .values(
        rows.slice(start, start + INSERT_CHUNK).map((row) => ({
          amendment_id: amendmentId,
          subject_id: row.subjectId,
          site_id: row.siteId,
          screening_number: row.screeningNumber,
          visit_key: row.visitKey,
          form_key: row.formKey,
          item_key: row.itemKey,
          kind: row.kind,
          before: row.before === null ? null : JSON.stringify(row.before),
          after: row.after === null ? null : JSON.stringify(row.after),
        })),
      )
      .execute();
  }
}
