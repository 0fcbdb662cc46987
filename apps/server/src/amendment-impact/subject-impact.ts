import { holdCovers, strongestHold } from '@cdms/contract';
import {
  type AmendmentChangeSet,
  type CheckResult,
  evaluateSubject,
  isSigningForm,
  type StudyDefinition,
  type SubjectEvaluation,
} from '@cdms/study';
import type { Kysely } from 'kysely';
import type { OpenQuery, StoredSubjectData } from '../after-change/form-change.ts';
import { derivedValueChanges } from '../data-entry/derived-value-changes.ts';
import { formStatusOf, openQueryCountsByForm } from '../data-entry/form-status-of.ts';
import { formKeyOf } from '../data-entry/load-subject-for-save.ts';
import { failingQueryChecks, systemQueryKey } from '../data-entry/sync-system-queries.ts';
import type { Database } from '../db/schema.ts';
import type { SiteLabRange } from '../lab-range-rules/applicable-lab-ranges.ts';
import { addLabRangeChecks } from '../lab-range-rules/lab-range-checks.ts';
import { IMPACT_KINDS, type ImpactRow, type PlacedImpact } from './impact-rows.ts';
import { type MigratedSubject, migrateStoredSubject } from './migrate-stored-subject.ts';
import { nextQueryPlace } from './next-query-place.ts';
import type { PlacedHold, StoredSubject } from './read-subject-batch.ts';

// One subject's impact: its stored data moved to the next version, evaluated by the same engine and
// the same pure steps a save runs (derived values, system queries, form statuses, lab range checks),
// and compared with what is stored. Nothing is written.

export interface ImpactContext {
  /** Only for the lab range checks' signature: the ranges are passed in, so nothing is read. */
  db: Kysely<Database>;
  live: StudyDefinition;
  next: StudyDefinition;
  changeSet: Pick<AmendmentChangeSet, 'plan'>;
  siteEffectiveDates: ReadonlyMap<number, string>;
  today: string;
}

/** The kinds that change the data a signature covers (a widening that keeps the value does not). */
const DATA_CHANGES: ReadonlySet<PlacedImpact['kind']> = new Set([
  'valueRenamed',
  'valueConverted',
  'valueRecoded',
  'valueRetired',
  'derivedChanges',
]);

/** The rows of one subject, sorted by visit, form, item and kind (the subject's own rows last). */
export async function subjectImpactRows(
  context: ImpactContext,
  subject: StoredSubject,
  holds: readonly PlacedHold[],
  siteLabRanges: SiteLabRange[],
): Promise<ImpactRow[]> {
  const { next, changeSet } = context;
  const migrated = migrateStoredSubject(changeSet, subject.stored);
  const { stored } = migrated;
  const evaluation = evaluateSubject(next, stored.entered, { today: context.today, itemStates: false });
  await addLabRangeChecks(context.db, next, { siteId: subject.siteId }, evaluation, {
    siteRanges: siteLabRanges,
  });
  const derived = derivedValueChanges(next, stored, evaluation).map(
    (change): PlacedImpact => ({
      visitKey: change.visitKey,
      formKey: change.formKey,
      itemKey: change.itemKey,
      kind: 'derivedChanges',
      before: change.before ?? null,
      after: change.after ?? null,
    }),
  );
  const queries = queryImpacts(changeSet, subject, failingQueryChecks(stored, evaluation));
  const statuses = statusImpacts(next, stored, evaluation, queries.openAfter);
  const formImpacts = [...migrated.valueImpacts, ...derived, ...queries.impacts, ...statuses];
  formImpacts.push(...sdvImpacts(changeSet, subject, migrated, derived));
  const held = heldFormImpacts(subject, holds, migrated, formImpacts);
  const subjectImpacts: PlacedImpact[] = [];
  if (subject.signed && changesSignedData(context, formImpacts))
    subjectImpacts.push(subjectRow('signatureInvalidated', null));
  const effectiveDate = context.siteEffectiveDates.get(subject.siteId);
  if (effectiveDate === undefined || effectiveDate > context.today)
    subjectImpacts.push(subjectRow('siteNotInEffect', effectiveDate ?? null));

  return [...[...formImpacts, ...held].sort(byPlace), ...subjectImpacts].map((impact) => ({
    subjectId: subject.id,
    siteId: subject.siteId,
    screeningNumber: subject.screeningNumber,
    ...impact,
  }));
}

/**
 * System queries, as the save syncs them: one open per failing "query" check of a saved form; an open
 * one whose check no longer fails (or whose form or item is retired) closes; one closed over its failing
 * check is not raised again. Also the queries of any kind still open after, for the form statuses.
 */
function queryImpacts(
  changeSet: ImpactContext['changeSet'],
  subject: StoredSubject,
  failing: Map<string, CheckResult>,
): { impacts: PlacedImpact[]; openAfter: OpenQuery[] } {
  const impacts: PlacedImpact[] = [];
  const openKeys = new Set<string>();
  const settledKeys = new Set<string>();
  const openAfter: OpenQuery[] = [];
  for (const query of subject.queries) {
    const place = nextQueryPlace(changeSet, query);
    const isOpen = query.status === 'open' || query.status === 'answered';
    if (query.kind !== 'system') {
      if (isOpen && place) openAfter.push({ visit_key: place.visitKey, form_key: place.formKey });
      continue;
    }
    if (!place) {
      if (isOpen)
        impacts.push(
          queryRow('queryCloses', query.visit_key, query.form_key, query.item_path, query.check_id),
        );
      continue;
    }
    const path = `${place.visitKey}.${place.formKey}.${place.itemPath}`;
    const key = systemQueryKey(place.visitKey, place.formKey, place.checkId, path);
    if (!isOpen) {
      settledKeys.add(key);
      continue;
    }
    openKeys.add(key);
    if (failing.has(key)) openAfter.push({ visit_key: place.visitKey, form_key: place.formKey });
    else impacts.push(queryRow('queryCloses', place.visitKey, place.formKey, path, place.checkId));
  }
  for (const [key, check] of failing) {
    if (openKeys.has(key) || settledKeys.has(key)) continue;
    impacts.push(queryRow('queryOpens', check.visitKey, check.formKey, check.path, check.checkId));
    openAfter.push({ visit_key: check.visitKey, form_key: check.formKey });
  }
  return { impacts, openAfter };
}

/** Saved forms whose status becomes incomplete (`dash`) or complete (`check`); `alert` is the queries' rows. */
function statusImpacts(
  next: StudyDefinition,
  stored: StoredSubjectData,
  evaluation: SubjectEvaluation,
  openAfter: readonly OpenQuery[],
): PlacedImpact[] {
  const impacts: PlacedImpact[] = [];
  const openCounts = openQueryCountsByForm(openAfter);
  const evaluated = new Map(evaluation.forms.map((form) => [formKeyOf(form.visitKey, form.formKey), form]));
  for (const [key, instance] of stored.instances) {
    const status = formStatusOf(next, instance, evaluated.get(key), openCounts.get(key) ?? 0);
    if (status === instance.status || (status !== 'dash' && status !== 'check')) continue;
    impacts.push({
      visitKey: instance.visit_key,
      formKey: instance.form_key,
      itemKey: null,
      kind: status === 'dash' ? 'formIncomplete' : 'formComplete',
      before: instance.status,
      after: status,
    });
  }
  return impacts;
}

/** Verified items whose value is converted, re-coded or retired, or whose derived value changes. */
function sdvImpacts(
  changeSet: ImpactContext['changeSet'],
  subject: StoredSubject,
  migrated: MigratedSubject,
  derived: readonly PlacedImpact[],
): PlacedImpact[] {
  const impacts: PlacedImpact[] = [];
  const derivedChanged = new Set(
    derived.map((impact) => `${impact.visitKey}.${impact.formKey}|${impact.itemKey}`),
  );
  const nextFormKeys = new Map<string, string>();
  for (const [key, instance] of migrated.stored.instances) {
    const liveForm = migrated.liveFormKeys.get(key) ?? instance.form_key;
    nextFormKeys.set(formKeyOf(instance.visit_key, liveForm), instance.form_key);
  }
  for (const mark of subject.verifiedItems) {
    const liveKey = formKeyOf(mark.visitKey, mark.formKey);
    // Undefined: the form is retired at this visit.
    const nextForm = nextFormKeys.get(liveKey);
    const formPlan = Object.hasOwn(changeSet.plan.forms, mark.formKey)
      ? changeSet.plan.forms[mark.formKey]
      : undefined;
    const itemPlan =
      formPlan && Object.hasOwn(formPlan.items, mark.itemKey) ? formPlan.items[mark.itemKey] : undefined;
    const nextItem = itemPlan?.to ?? mark.itemKey;
    const changed =
      nextForm === undefined ||
      migrated.changedItems.get(liveKey)?.has(mark.itemKey) === true ||
      derivedChanged.has(`${formKeyOf(mark.visitKey, nextForm)}|${nextItem}`);
    if (!changed) continue;
    impacts.push({
      visitKey: mark.visitKey,
      formKey: nextForm ?? mark.formKey,
      itemKey: nextForm === undefined ? mark.itemKey : nextItem,
      kind: 'sdvInvalidated',
      before: 'verified',
      after: 'changed',
    });
  }
  return impacts;
}

/** A frozen or locked form with any other row keeps its data until the hold is lifted: one row each. */
function heldFormImpacts(
  subject: StoredSubject,
  holds: readonly PlacedHold[],
  migrated: MigratedSubject,
  formImpacts: readonly PlacedImpact[],
): PlacedImpact[] {
  const touched = new Map<string, { visitKey: string; formKey: string }>();
  for (const { visitKey, formKey } of formImpacts)
    if (visitKey !== null && formKey !== null)
      touched.set(formKeyOf(visitKey, formKey), { visitKey, formKey });
  const impacts: PlacedImpact[] = [];
  for (const [key, form] of touched) {
    // Holds name forms by their live keys; a retired form's rows already use its live key.
    const liveForm = migrated.liveFormKeys.get(key) ?? form.formKey;
    const target = {
      siteId: subject.siteId,
      subjectId: subject.id,
      visitKey: form.visitKey,
      formKey: liveForm,
    };
    const strongest = strongestHold(holds.filter((hold) => holdCovers(hold, target)));
    if (!strongest) continue;
    impacts.push({
      ...form,
      itemKey: null,
      kind: 'heldFormTouched',
      before: null,
      after: { kind: strongest.kind, level: strongest.level },
    });
  }
  return impacts;
}

/** Whether the rows change data a signature covers: any form's but the signing form's. */
function changesSignedData(context: ImpactContext, formImpacts: readonly PlacedImpact[]): boolean {
  const signing = (visitKey: string, formKey: string) =>
    isSigningForm(context.live, visitKey, formKey) || isSigningForm(context.next, visitKey, formKey);
  return formImpacts.some(
    (impact) =>
      DATA_CHANGES.has(impact.kind) &&
      impact.visitKey !== null &&
      impact.formKey !== null &&
      !signing(impact.visitKey, impact.formKey) &&
      (impact.kind !== 'valueConverted' || JSON.stringify(impact.before) !== JSON.stringify(impact.after)),
  );
}

/** A query's row: its item as the path after "visit.form.", its check id before (closes) or after (opens). */
function queryRow(
  kind: 'queryOpens' | 'queryCloses',
  visitKey: string,
  formKey: string,
  path: string,
  checkId: string | null,
): PlacedImpact {
  const prefix = `${visitKey}.${formKey}.`;
  return {
    visitKey,
    formKey,
    itemKey: path.startsWith(prefix) ? path.slice(prefix.length) : path,
    kind,
    before: kind === 'queryCloses' ? checkId : null,
    after: kind === 'queryOpens' ? checkId : null,
  };
}

function subjectRow(kind: 'signatureInvalidated' | 'siteNotInEffect', after: string | null): PlacedImpact {
  return { visitKey: null, formKey: null, itemKey: null, kind, before: null, after };
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function byPlace(a: PlacedImpact, b: PlacedImpact): number {
  return (
    compareText(a.visitKey ?? '', b.visitKey ?? '') ||
    compareText(a.formKey ?? '', b.formKey ?? '') ||
    compareText(a.itemKey ?? '', b.itemKey ?? '') ||
    IMPACT_KINDS.indexOf(a.kind) - IMPACT_KINDS.indexOf(b.kind)
  );
}
