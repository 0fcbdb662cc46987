import {
  type AmendmentChangeSet,
  amendmentChangeSet,
  amendmentDeclarationsSchema,
  type FormValues,
  migrateFormValues,
  type StudyDefinition,
} from '@cdms/study';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { studyDefinitionOfVersion } from './study-definitions.ts';

type Executor = Kysely<Database> | Transaction<Database>;

/** A published amendment as its migration uses it: both versions and the plan that moves values between them. */
export interface PublishedAmendment {
  id: number;
  studyId: number;
  number: string;
  from: { version: string; definition: StudyDefinition };
  to: { version: string; definition: StudyDefinition };
  changeSet: AmendmentChangeSet;
}

/**
 * A published amendment's row with both its versions and the change set computed again from them
 * and the declarations the signer published: the same plan the impact analysis ran.
 */
export async function publishedAmendmentOfRow(
  executor: Executor,
  row: {
    id: number;
    study_id: number;
    number: string;
    declarations: unknown;
    from_version: string;
    to_version: string;
  },
): Promise<PublishedAmendment> {
  const from = (await studyDefinitionOfVersion(executor, row.study_id, row.from_version)).definition;
  const to = (await studyDefinitionOfVersion(executor, row.study_id, row.to_version)).definition;
  return {
    id: row.id,
    studyId: row.study_id,
    number: row.number,
    from: { version: row.from_version, definition: from },
    to: { version: row.to_version, definition: to },
    changeSet: amendmentChangeSet(from, to, amendmentDeclarationsSchema.parse(row.declarations)),
  };
}

/**
 * A study's published amendments, oldest first: what a read-out needs to give a subject still on an
 * earlier version in the current version's terms (the exports' "as of the current version"), with
 * the very move of values its migration will make (`migrateFormValues`), not a second one.
 */
export interface AmendmentChain {
  currentVersion: string;
  amendments: PublishedAmendment[];
}

export async function loadAmendmentChain(
  executor: Executor,
  studyId: number,
  currentVersion: string,
): Promise<AmendmentChain> {
  const rows = await executor
    .selectFrom('study_amendments')
    .select(['id', 'study_id', 'number', 'declarations', 'from_version', 'to_version'])
    .where('study_id', '=', studyId)
    .where('status', '=', 'published')
    .orderBy('id')
    .execute();
  const amendments: PublishedAmendment[] = [];
  for (const row of rows)
    if (row.to_version !== null)
      amendments.push(await publishedAmendmentOfRow(executor, { ...row, to_version: row.to_version }));
  return { currentVersion, amendments };
}

/**
 * The amendments that take a subject on `version` to the current version, in order: none for a
 * subject on the current version (or not pinned to one: `null` is the current version).
 */
export function amendmentsFrom(chain: AmendmentChain, version: string | null): PublishedAmendment[] {
  const steps: PublishedAmendment[] = [];
  let at = version;
  while (at !== null && at !== chain.currentVersion) {
    const next = chain.amendments.find((amendment) => amendment.from.version === at);
    if (!next) break;
    steps.push(next);
    at = next.to.version;
  }
  return steps;
}

/**
 * One stored form's values moved through these amendments as each migration would move them:
 * renamed, re-coded, converted; retired values left behind. `formKey` null: nothing of the form is
 * enterable in the end (the form or its visit retired).
 */
export function moveFormThrough(
  steps: readonly PublishedAmendment[],
  visitKey: string,
  formKey: string,
  values: FormValues,
): { formKey: string | null; values: FormValues } {
  let moved: { formKey: string | null; values: FormValues } = { formKey, values };
  for (const amendment of steps) {
    if (moved.formKey === null) break;
    const next = migrateFormValues(amendment.changeSet, visitKey, moved.formKey, moved.values);
    moved = { formKey: next.formKey, values: next.values };
  }
  return moved;
}

/**
 * The keys, under any earlier version, that the amendments move to these current keys of one
 * current form: the form's keys and its items' (plain items, or repeating groups — whose keys no
 * amendment renames). With the current keys themselves. What a read-out reads to find every
 * subject's values of those items, whatever version the subject is on.
 */
export function storedKeysLeadingTo(
  chain: AmendmentChain,
  formKey: string,
  itemKeys: readonly string[],
): { formKeys: string[]; itemKeys: string[] } {
  const formKeys = new Set([formKey]);
  const items = new Set(itemKeys);
  // Newest amendment first: each step back names the keys the one after it moved from.
  let formsAfter = new Set([formKey]);
  let itemsAfter = new Set(itemKeys);
  for (const amendment of [...chain.amendments].reverse()) {
    const formsBefore = new Set<string>();
    const itemsBefore = new Set<string>();
    for (const [liveForm, formPlan] of Object.entries(amendment.changeSet.plan.forms)) {
      if (formPlan.to === null || !formsAfter.has(formPlan.to)) continue;
      formsBefore.add(liveForm);
      for (const [liveItem, itemPlan] of Object.entries(formPlan.items))
        if (itemPlan.group === undefined && itemPlan.to !== null && itemsAfter.has(itemPlan.to))
          itemsBefore.add(liveItem);
      for (const [group, kept] of Object.entries(formPlan.groups))
        if (kept && itemsAfter.has(group)) itemsBefore.add(group);
    }
    for (const key of formsBefore) formKeys.add(key);
    for (const key of itemsBefore) items.add(key);
    formsAfter = formsBefore;
    itemsAfter = itemsBefore;
  }
  return { formKeys: [...formKeys], itemKeys: [...items] };
}
