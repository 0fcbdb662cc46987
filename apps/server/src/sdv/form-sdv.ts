import type { FormSdv, SdvFormState, SdvItem } from '@cdms/contract';
import type { StudyDefinition } from '@cdms/study';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { itemInPlan, type SdvPlanRule, verifiableItems } from './sdv-rules.ts';

type Executor = Kysely<Database> | Transaction<Database>;

/**
 * One form's SDV: each verifiable entered item with its mark and whether the plan counts it, and the
 * form's state against the plan. Read for the form screen and returned by every marking command.
 */

/** The subject's place at its site by registration order (1 = registered first; deleted ones left out). */
export async function subjectSiteRank(
  executor: Executor,
  subject: { id: number; site_id: number; created_at: Date },
): Promise<number> {
  const row = await executor
    .selectFrom('subjects')
    .select(sql<number>`count(*)::int`.as('before'))
    .where('site_id', '=', subject.site_id)
    .where('deleted_at', 'is', null)
    .where((eb) =>
      eb.or([
        eb('created_at', '<', subject.created_at),
        eb.and([eb('created_at', '=', subject.created_at), eb('id', '<', subject.id)]),
      ]),
    )
    .executeTakeFirstOrThrow();
  return row.before + 1;
}

export function formStateOf(planned: number, verified: number): SdvFormState {
  if (planned === 0) return 'notRequired';
  if (verified === 0) return 'notStarted';
  return verified < planned ? 'partial' : 'complete';
}

export interface FormSdvInput {
  definition: StudyDefinition;
  plan: SdvPlanRule;
  subject: { id: number; site_id: number; created_at: Date };
  visitKey: string;
  formKey: string;
}

export async function loadFormSdv(executor: Executor, input: FormSdvInput): Promise<FormSdv> {
  const { definition, plan, subject, visitKey, formKey } = input;
  const instance = await executor
    .selectFrom('form_instances')
    .select('id')
    .where('subject_id', '=', subject.id)
    .where('visit_key', '=', visitKey)
    .where('form_key', '=', formKey)
    .executeTakeFirst();
  const items: Record<string, SdvItem> = {};
  let planned = 0;
  let verified = 0;
  let changed = 0;
  if (instance) {
    const entered = new Set(
      (
        await executor
          .selectFrom('item_values')
          .select('item_key')
          .where('form_instance_id', '=', instance.id)
          .where('derived', '=', false)
          .execute()
      ).map((row) => row.item_key),
    );
    const marks = new Map(
      (
        await executor
          .selectFrom('sdv_marks')
          .innerJoin('users', 'users.id', 'sdv_marks.verified_by')
          .select([
            'sdv_marks.item_key',
            'sdv_marks.state',
            'sdv_marks.verified_by',
            'sdv_marks.verified_at',
            'sdv_marks.changed_at',
            'users.name',
          ])
          .where('sdv_marks.form_instance_id', '=', instance.id)
          .execute()
      ).map((mark) => [mark.item_key, mark]),
    );
    const rank = await subjectSiteRank(executor, subject);
    for (const item of verifiableItems(definition, visitKey, formKey)) {
      if (!entered.has(item.key)) continue;
      const mark = marks.get(item.key);
      const inPlan = itemInPlan(plan, rank, item.critical);
      items[item.key] = {
        state: mark?.state ?? 'unverified',
        inPlan,
        verifiedBy: mark ? { userId: mark.verified_by, name: mark.name } : null,
        verifiedAt: mark?.verified_at.toISOString() ?? null,
        changedAt: mark?.changed_at?.toISOString() ?? null,
      };
      if (!inPlan) continue;
      planned += 1;
      if (mark?.state === 'verified') verified += 1;
      if (mark?.state === 'changed') changed += 1;
    }
  }
  return {
    state: formStateOf(planned, verified),
    counts: {
      plannedItems: planned,
      verifiedItems: verified,
      changedItems: changed,
      plannedForms: planned > 0 ? 1 : 0,
      completeForms: planned > 0 && verified === planned ? 1 : 0,
      percent: planned === 0 ? null : Math.floor((verified * 100) / planned),
    },
    items,
  };
}
