import type { FormSdv, SdvFormState, SdvItem } from '@cdms/contract';
import type { StudyDefinition } from '@cdms/study';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { itemInPlan, type SdvPlanRule, verifiableItems } from './sdv-rules.ts';
import { siteRankSql } from './sdv-sql.ts';

type Executor = Kysely<Database> | Transaction<Database>;

/**
 * One form's SDV: each verifiable entered item with its mark and whether the plan counts it, and the
 * form's state against the plan. Read for the form screen and returned by every marking command.
 */

/** The subject's place at its site by registration order (1 = registered first; deleted ones left out). */
export async function subjectSiteRank(executor: Executor, subject: { id: number }): Promise<number> {
  const result = await sql<{ rank: number }>`
    select ${siteRankSql('s')}::int as rank from subjects s where s.id = ${subject.id}`.execute(executor);
  return result.rows[0]?.rank ?? 0;
}

export function formStateOf(planned: number, verified: number): SdvFormState {
  if (planned === 0) return 'notRequired';
  if (verified === 0) return 'notStarted';
  return verified < planned ? 'partial' : 'complete';
}

export interface FormSdvInput {
  definition: StudyDefinition;
  /** The study's plan (`loadSdvPlan`). */
  plan: SdvPlanRule;
  subject: { id: number };
  visitKey: string;
  formKey: string;
}

/** A form's instance id (null: never saved) and its entered values, as a caller read them. */
export interface StoredForm {
  instanceId: number | null;
  values: Readonly<Record<string, unknown>>;
}

/** An entered, verifiable item of a saved form with its mark (null: none). */
export interface MarkableItem {
  key: string;
  value: unknown;
  critical: boolean;
  /** null: no mark. */
  state: 'verified' | 'changed' | null;
  mark: {
    verifiedBy: number;
    verifierName: string;
    verifiedAt: Date;
    changedAt: Date | null;
  } | null;
}

export interface MarkableForm {
  instanceId: number | null;
  /** Verifiable items of the form (entered or not), by key. */
  verifiable: Set<string>;
  /** Entered verifiable items, in the form's order. */
  entered: MarkableItem[];
}

/** The SDV marks of a form instance with their verifier's name, as a query to run or to nest (`jsonArrayFrom`). */
export function sdvMarksQuery(executor: Executor, instanceId: number) {
  return executor
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
    .where('sdv_marks.form_instance_id', '=', instanceId);
}

/** A mark as `sdvMarksQuery` reads it. */
export interface SdvMarkWithVerifier {
  item_key: string;
  state: 'verified' | 'changed';
  verified_by: number;
  verified_at: Date;
  changed_at: Date | null;
  name: string;
}

/** A form's verifiable items from its stored instance and values and the instance's marks. */
export function markableFormOf(
  definition: StudyDefinition,
  visitKey: string,
  formKey: string,
  stored: StoredForm,
  marks: SdvMarkWithVerifier[],
): MarkableForm {
  const items = verifiableItems(definition, visitKey, formKey);
  const verifiable = new Set(items.map((item) => item.key));
  if (stored.instanceId === null) return { instanceId: null, verifiable, entered: [] };
  const markOf = new Map(marks.map((mark) => [mark.item_key, mark]));
  const entered = items
    .filter((item) => Object.hasOwn(stored.values, item.key))
    .map((item): MarkableItem => {
      const mark = markOf.get(item.key);
      return {
        key: item.key,
        value: stored.values[item.key],
        critical: item.critical,
        state: mark?.state ?? null,
        mark: mark
          ? {
              verifiedBy: mark.verified_by,
              verifierName: mark.name,
              verifiedAt: mark.verified_at,
              changedAt: mark.changed_at,
            }
          : null,
      };
    });
  return { instanceId: stored.instanceId, verifiable, entered };
}

/**
 * A form's verifiable items as stored: which the definition allows to verify, which are entered, with
 * their values and marks — what the form's SDV shows and what the marking commands act on.
 */
export async function loadMarkableForm(
  executor: Executor,
  definition: StudyDefinition,
  subjectId: number,
  visitKey: string,
  formKey: string,
): Promise<MarkableForm> {
  const instance = await executor
    .selectFrom('form_instances')
    .select('id')
    .where('subject_id', '=', subjectId)
    .where('visit_key', '=', visitKey)
    .where('form_key', '=', formKey)
    .executeTakeFirst();
  if (!instance) return markableFormOf(definition, visitKey, formKey, { instanceId: null, values: {} }, []);
  const values = await executor
    .selectFrom('item_values')
    .select(['item_key', 'value'])
    .where('form_instance_id', '=', instance.id)
    .where('derived', '=', false)
    .execute();
  const marks = await sdvMarksQuery(executor, instance.id).execute();
  return markableFormOf(
    definition,
    visitKey,
    formKey,
    { instanceId: instance.id, values: Object.fromEntries(values.map((row) => [row.item_key, row.value])) },
    marks,
  );
}

/** The form's SDV: each entered verifiable item with its mark and whether the plan counts it for the subject's rank. */
export function formSdvOf(form: MarkableForm, plan: SdvPlanRule, rank: number): FormSdv {
  const items: Record<string, SdvItem> = {};
  let planned = 0;
  let verified = 0;
  let changed = 0;
  for (const item of form.entered) {
    const inPlan = itemInPlan(plan, rank, item.critical);
    items[item.key] = {
      state: item.state ?? 'unverified',
      inPlan,
      verifiedBy: item.mark ? { userId: item.mark.verifiedBy, name: item.mark.verifierName } : null,
      verifiedAt: item.mark?.verifiedAt.toISOString() ?? null,
      changedAt: item.mark?.changedAt?.toISOString() ?? null,
    };
    if (!inPlan) continue;
    planned += 1;
    if (item.state === 'verified') verified += 1;
    if (item.state === 'changed') changed += 1;
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

/** The form's SDV read from the database (the marking commands' answer): the rank only for a saved form. */
export async function loadFormSdv(executor: Executor, input: FormSdvInput): Promise<FormSdv> {
  const { definition, plan, subject, visitKey, formKey } = input;
  const form = await loadMarkableForm(executor, definition, subject.id, visitKey, formKey);
  const rank = form.instanceId === null ? 0 : await subjectSiteRank(executor, subject);
  return formSdvOf(form, plan, rank);
}
