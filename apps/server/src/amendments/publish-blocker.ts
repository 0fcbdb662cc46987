import type { PublishBlocker } from '@cdms/contract';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { designDraftRow } from '../study-design/design-draft-row.ts';
import type { DraftAmendmentState } from './amendment-change-set.ts';
import type { AmendmentRow } from './amendment-rows.ts';
import { impactInputsHash } from './impact-inputs-hash.ts';

/**
 * Why a draft amendment cannot be published yet, or null: the one rule the publication enforces
 * (`publish-amendment.ts`: 409 `amendment_not_ready`, `amendment_impact_stale`) and the amendment's
 * read gives the page (`read-amendment.ts`), so the button and the server never disagree.
 * - `noChangeSet`: the draft is not a valid definition yet;
 * - `notReady`: a question is open or a declaration refused;
 * - `noImpact`: no impact analysis has been run;
 * - `stale`: the draft, the declarations or the sites' dates changed since the last analysis.
 * With the draft revision and inputs hash it read, for the publication to check again under its lock.
 */
export async function publishBlocker(
  executor: Kysely<Database> | Transaction<Database>,
  studyId: number,
  amendment: AmendmentRow,
  state: DraftAmendmentState,
): Promise<{ blocker: PublishBlocker | null; draftRevision: number | null; inputsHash: string }> {
  const inputsHash = await impactInputsHash(executor, amendment);
  const draft = await designDraftRow(executor, studyId);
  const read = { draftRevision: draft?.revision ?? null, inputsHash };
  if (!state.next || !state.live || !state.computed) return { blocker: 'noChangeSet', ...read };
  if (!state.computed.ready || state.studyRefusals.length > 0) return { blocker: 'notReady', ...read };
  const impact = await executor
    .selectFrom('amendment_impacts')
    .select(['draft_revision', 'inputs_hash'])
    .where('amendment_id', '=', amendment.id)
    .executeTakeFirst();
  if (!impact) return { blocker: 'noImpact', ...read };
  if (impact.draft_revision !== draft?.revision || impact.inputs_hash !== inputsHash)
    return { blocker: 'stale', ...read };
  return { blocker: null, ...read };
}
