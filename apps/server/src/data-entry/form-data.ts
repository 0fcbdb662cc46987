import { todayInKorea } from '@cdms/contract';
import {
  type CheckResult,
  changedItemKeys,
  computeFormStatus,
  computeSubjectStatus,
  createFormSet,
  derivedValuesOf,
  enteredFormValues,
  evaluateSubject,
  type FormSet,
  type FormValues,
  formsReachedByChange,
  getFormLayout,
  isEmptyEntry,
  itemsNeedingReason,
  type JsonValue,
  LAB_FORM_KEY,
  layoutsForData,
  type StudyDefinition,
  type SubjectData,
  type SubjectEvaluation,
  sameEntry,
} from '@cdms/study';
import { CompiledQuery, type Kysely, type Transaction } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { sendUnanswered } from '../db/in-transaction.ts';
import type { Database, FormInstanceRow, QueryRow, SubjectStatus } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { addLabRangeChecks } from '../lab-range-rules/lab-range-checks.ts';
import { refuseWriteUnderTheseHolds } from '../locks/holds-in-force.ts';
import { notifyCasebookReadyToSign } from '../notifications/notify-signature.ts';
import { addQueryMessage } from '../query-messages/query-messages.ts';
import { postValueChangeMessages } from '../query-messages/value-change-messages.ts';
import { labResultsMayMove, refreshSubjectLabResults } from '../read-model/refresh-lab-results.ts';
import { refreshSubjectFacts } from '../read-model/refresh-subject-facts.ts';
import { isFactSourceForm, sameSavedForms, savedFormsFact } from '../read-model/subject-facts.ts';
import { resetSdvOfChangedItems } from '../sdv-state/reset-sdv-on-change.ts';
import { invalidateSignatureOnChange } from '../signature-state/invalidate-signature.ts';
import type { SubjectWithSite } from '../subjects/subject-access.ts';
import {
  type ActiveQuery,
  formKeyOf,
  loadSubjectForSave,
  type SubjectForSave,
  storedSubjectDataOf,
  subjectDataQuery,
} from './load-subject-for-save.ts';

/**
 * Reading and writing a subject's form data. Every write goes through `writeForm`: it runs the
 * study's rules over the subject (derivations over every form; the forms the change can reach
 * evaluated again, since checks look across forms and visits), refuses hard check failures and
 * unexplained changes, stores values and server-computed derived values, keeps system queries in
 * step with the checks, brings the forms' statuses up to date, audits every changed item, and
 * invalidates the investigator's signature when signed data change, and refreshes the subject's
 * read-model rows — all inside the caller's transaction.
 */

export interface StoredSubjectData {
  /** Values people entered, per visit and form (derived values left out). */
  entered: SubjectData;
  /** Derived values as last stored. */
  derived: SubjectData;
  instances: Map<string, FormInstanceRow>;
}

/** The subject's form instances with their values, in one statement (`subjectDataQuery`). */
export async function loadSubjectData(
  executor: Transaction<Database> | Kysely<Database>,
  subjectId: number,
): Promise<StoredSubjectData> {
  return storedSubjectDataOf(await subjectDataQuery(executor, subjectId).execute());
}

function formValues(data: SubjectData, visitKey: string, formKey: string): FormValues {
  return (data[visitKey]?.[formKey] ?? {}) as FormValues;
}

/** Read-only items (screening number, initials…) are filled by the system: a client cannot change them. */
function keepReadOnlyValues(
  definition: StudyDefinition,
  visitKey: string,
  formKey: string,
  before: FormValues,
  after: FormValues,
): void {
  const layout = getFormLayout(definition, visitKey, formKey);
  for (const section of layout?.sections ?? []) {
    if (section.repeating) continue;
    for (const item of section.items) {
      if (!item.readOnly || item.derive !== undefined) continue;
      if (isEmptyEntry(before[item.key])) delete after[item.key];
      else after[item.key] = before[item.key] as JsonValue;
    }
  }
}

export interface WriteFormInput {
  subject: SubjectWithSite;
  /**
   * The caller took the subject's row lock in this transaction and read `subject` with it (a save:
   * `findSubjectAndDefinitionInScope` with `forUpdate`), so its status is current.
   */
  subjectLocked?: boolean;
  definition: StudyDefinition;
  definitionVersion: string;
  visitKey: string;
  formKey: string;
  /** The form's complete new entered values (what is absent is cleared). */
  values: FormValues;
  /** The version the writer started from; a different current version is a conflict. */
  expectedVersion: number;
  /** Reason for change per top-level item key whose saved value changes. */
  reasons: Record<string, string>;
  /** A reason for every change at once (reset), instead of per item. */
  reasonForAll?: string;
  actor: AuditActor;
  /** Skip the reason rule: the system filling a form it owns (registration). */
  systemWrite?: boolean;
  /**
   * What the save reads about the subject, when the caller has sent that read already, under the
   * subject's lock (`saveForm`: right behind the read that takes the lock, in one round trip).
   */
  forSave?: Promise<SubjectForSave>;
}

export interface WriteFormResult {
  instance: FormInstanceRow;
  /** The subject's derived data and the evaluation of the forms the write walked, its own among them. */
  evaluation: SubjectEvaluation;
  /**
   * The subject's data as the write left it (entered values, every form's instance with its new
   * status): what the save's answer is built from, without reading it all again.
   */
  data: SavedSubjectData;
}

/** A subject's entered values and form instances as a write left them. */
export type SavedSubjectData = Pick<StoredSubjectData, 'entered' | 'instances'>;

/** An open or answered query, as far as a form's status needs it. */
type OpenQuery = Pick<QueryRow, 'visit_key' | 'form_key'>;

/**
 * The forms a save evaluates: the saved form, and those of the subject's other saved forms (a form
 * never saved has no status or system queries to keep) that must be evaluated again —
 * - those whose evaluation the change can alter (`formsReachedByChange`: the forms whose rules read
 *   the saved form or a form deriving from it, and those whose rules read today's date);
 * - lab forms, whose range checks (`addLabRangeChecks`) follow the site's lab ranges, which change
 *   outside saves, and the subject's sex and age, read outside the rules;
 * - forms last saved under another version of the definition, whose rules may have changed since.
 * Every other saved form evaluates exactly as when a save last evaluated it, so it keeps its stored
 * status and system queries, and is not walked: a save walked all ~40 saved forms of a subject, the
 * engine's largest share of a save's server time (issue 12).
 */
function formsToWalk(
  definition: StudyDefinition,
  data: SubjectData,
  stored: StoredSubjectData,
  saved: { visitKey: string; formKey: string; definitionVersion: string },
): FormSet {
  const reached = formsReachedByChange(definition, data, saved.visitKey, saved.formKey);
  const walked = createFormSet();
  walked.add(saved.visitKey, saved.formKey);
  for (const instance of stored.instances.values()) {
    const { visit_key: visitKey, form_key: formKey } = instance;
    if (
      reached.has(visitKey, formKey) ||
      formKey === LAB_FORM_KEY ||
      instance.definition_version !== saved.definitionVersion
    )
      walked.add(visitKey, formKey);
  }
  return walked;
}

export async function writeForm(trx: Transaction<Database>, input: WriteFormInput): Promise<WriteFormResult> {
  const { subject, definition, visitKey, formKey, actor } = input;
  // One writer per subject at a time: a save also updates other forms (derived values, queries,
  // statuses), and two first saves of a form must not both create it. The subject row's lock
  // makes concurrent saves queue; the later one then sees the new version and gets 409.
  const locked = input.subjectLocked
    ? subject
    : await trx
        .selectFrom('subjects')
        .select(['deleted_at', 'status'])
        .where('id', '=', subject.id)
        .forUpdate()
        .executeTakeFirst();
  // Deleted while this request waited for the lock: the subject is gone for everyone.
  if (!locked || locked.deleted_at !== null) throw new AppError(404, 'not_found');
  const { stored, holds, activeQueries, verifiedItemKeys, signed, siteLabRanges } = await (input.forSave ??
    loadSubjectForSave(trx, subject, { visitKey, formKey }));
  // A freeze or lock refuses data changes (423); system writes (signing, randomization, registration)
  // are guarded by their callers under their own names.
  if (!input.systemWrite) refuseWriteUnderTheseHolds('form.save', holds);
  const savedFormsBefore = savedFormsFact(stored.instances);
  const key = formKeyOf(visitKey, formKey);
  const current = stored.instances.get(key);
  const currentVersion = current?.version ?? 0;
  if (currentVersion !== input.expectedVersion) {
    throw new AppError(
      409,
      'version_conflict',
      {},
      {
        currentVersion,
        values: {
          ...formValues(stored.entered, visitKey, formKey),
          ...formValues(stored.derived, visitKey, formKey),
        },
      },
    );
  }

  const layout = getFormLayout(definition, visitKey, formKey);
  const before = formValues(stored.entered, visitKey, formKey);
  // What is stored: the entered values without derived items and empty values (the study package's
  // rule, which the browser also uses to ask for reasons before it sends).
  const after = enteredFormValues(layout, input.values);
  if (!input.systemWrite) keepReadOnlyValues(definition, visitKey, formKey, before, after);
  // The subject's values with the form's new ones: a new top level and visit, the other visits'
  // forms shared with `stored` (nothing changes them; the engine evaluates on a copy of its own).
  const data: SubjectData = {
    ...stored.entered,
    [visitKey]: { ...(stored.entered[visitKey] ?? {}), [formKey]: after },
  };
  const walked = formsToWalk(definition, data, stored, {
    visitKey,
    formKey,
    definitionVersion: input.definitionVersion,
  });
  const evaluation = evaluateSubject(definition, data, {
    today: todayInKorea(),
    forms: walked.has,
    itemStates: false,
  });
  await addLabRangeChecks(trx, definition, { siteId: subject.site_id }, evaluation, {
    siteRanges: siteLabRanges,
  });
  const formEvaluation = evaluation.forms.find(
    (form) => form.visitKey === visitKey && form.formKey === formKey,
  );
  if (!formEvaluation) throw new AppError(404, 'not_found');

  const hard = formEvaluation.checks.filter((check) => check.severity === 'hard');
  if (hard.length > 0) {
    throw new AppError(
      422,
      'hard_check_failed',
      {},
      { items: hard.map((check) => ({ path: check.path, checkId: check.checkId, message: check.message })) },
    );
  }

  const changedKeys = changedItemKeys(layout, before, after);
  if (!input.systemWrite && !input.reasonForAll) {
    const unexplained = itemsNeedingReason(layout, before, after).filter(
      (itemKey) => !input.reasons[itemKey]?.trim(),
    );
    if (unexplained.length > 0)
      throw new AppError(
        422,
        'reason_required',
        {},
        { items: unexplained.map((itemKey) => `${formKey}.${itemKey}`) },
      );
  }

  const now = new Date();
  const instance = current
    ? current
    : await trx
        .insertInto('form_instances')
        .values({
          subject_id: subject.id,
          visit_key: visitKey,
          form_key: formKey,
          definition_version: input.definitionVersion,
          saved_by: actor.userId,
        })
        .returningAll()
        .executeTakeFirstOrThrow();

  // The changed values: cleared ones deleted here, the rest upserted with the form's row at the end
  // (one statement; nothing before that reads the form's values back). Each change is audited with
  // its reason.
  await deleteItemValues(
    trx,
    instance.id,
    changedKeys.filter((itemKey) => after[itemKey] === undefined),
  );
  const writtenValues = changedKeys
    .filter((itemKey) => after[itemKey] !== undefined)
    .map((itemKey): [string, JsonValue] => [itemKey, after[itemKey] as JsonValue]);
  for (const itemKey of changedKeys) {
    const value = after[itemKey];
    await recordAudit(trx, actor, {
      type: 'data.item_changed',
      entityType: 'item',
      entityId: `${visitKey}.${formKey}.${itemKey}`,
      studyId: subject.study_id,
      siteId: subject.site_id,
      subjectId: subject.id,
      before: { value: before[itemKey] ?? null },
      after: { value: value ?? null },
      reason: input.reasonForAll ?? input.reasons[itemKey] ?? null,
    });
  }

  // Changed values lose their source verification, audited ("changed since verified").
  const verificationsReset = await resetSdvOfChangedItems(
    trx,
    actor,
    subject,
    { instanceId: instance.id, visitKey, formKey },
    changedKeys.filter((itemKey) => verifiedItemKeys.has(itemKey)),
    now,
  );
  // Changed data no longer match what the investigator signed.
  const signatureInvalidated =
    signed &&
    (await invalidateSignatureOnChange(trx, subject, actor, { visitKey, formKey, itemKeys: changedKeys }));

  // The form's new state, in memory until its status is known: one UPDATE at the end writes both.
  const savedState = {
    version: currentVersion + 1,
    has_data: Object.keys(after).length > 0,
    definition_version: input.definitionVersion,
    saved_at: now,
    saved_by: actor.userId,
  };
  stored.instances.set(key, { ...instance, ...savedState });

  const derivedChangedForms = await storeDerivedValues(
    trx,
    definition,
    stored,
    evaluation,
    input.definitionVersion,
  );
  // The subject's queries that a save may touch (read with the subject) serve the three steps below.
  const openQueries = activeQueries.filter((query) => query.status === 'open' || query.status === 'answered');
  // The open and answered queries on changed items say what changed, before checks close any.
  await postValueChangeMessages(trx, {
    subject,
    definition,
    visitKey,
    formKey,
    before,
    after,
    changedKeys,
    actor,
    openQueries,
  });
  const changedPrefixes = changedKeys.map((itemKey) => `${visitKey}.${formKey}.${itemKey}`);
  const systemQueries = await syncSystemQueries(
    trx,
    subject,
    stored,
    evaluation,
    actor,
    (path) => changedPrefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}[`)),
    activeQueries,
    walked,
  );
  // The subject's row has been locked since the start, so its status read then is still current.
  const statusChanged = await updateSubjectStatus(trx, definition, subject, locked.status, evaluation, actor);
  const statuses = await refreshFormStatuses(trx, definition, subject.id, stored, evaluation, {
    writtenByCaller: key,
    openQueries: systemQueries.stillOpen,
    walked,
  });
  // The form's row and its changed values in one statement, sent without waiting for its answer
  // (`sendUnanswered`): what it writes is known here, and the database runs it before anything the
  // transaction sends after it. On a corrected value it is the save's last statement, so it leaves
  // with the audit append and COMMIT in one round trip.
  const saved: FormInstanceRow = { ...instance, ...savedState, status: statuses.get(key) ?? instance.status };
  sendUnanswered(trx, formWriteStatement(saved, writtenValues));
  stored.instances.set(key, saved);
  // The lab page's rows (issue 43 item 13): flagged here, from the data and ranges this save holds,
  // only when a lab form or the demographics moved; other saves send nothing more.
  if (
    labResultsMayMove({ visitKey, formKey, changed: changedKeys.length > 0 || !current }, derivedChangedForms)
  )
    await refreshSubjectLabResults(
      trx,
      definition,
      { id: subject.id, siteId: subject.site_id },
      evaluation.data,
      stored.instances.values(),
      siteLabRanges,
    );
  // The list, dashboard and alarms read the subject's facts from the read model: same transaction.
  // The SDV counts (entered items of the plan, their marks) move only when the form's entered items
  // do or a verification was reset; a corrected value with neither keeps the stored counts.
  const sdvUnchanged = verificationsReset === 0 && sameItemKeys(before, after);
  // The facts (`loadSubjectFacts`) follow from the subject's row, its site and randomization, which
  // forms hold data and which of those miss required items, the open and answered queries, the
  // signature, the SDV counts and the values of the fact-source forms. A save that moved none of
  // them (a corrected heart rate, a form saved again unchanged) leaves the rows as they are: their
  // refresh is the costliest part of a save for PostgreSQL. System writes (registration,
  // randomization, signing) change facts beside the form and always refresh.
  const factsMoved =
    input.systemWrite === true ||
    statusChanged ||
    systemQueries.changed ||
    signatureInvalidated ||
    !sdvUnchanged ||
    (changedKeys.length > 0 && isFactSourceForm(definition, visitKey, formKey)) ||
    derivedChangedForms.some((form) => isFactSourceForm(definition, form.visitKey, form.formKey)) ||
    !sameSavedForms(savedFormsFact(stored.instances, statuses), savedFormsBefore);
  if (factsMoved)
    await refreshSubjectFacts(trx, subject.id, { definition, studyId: subject.study_id, sdvUnchanged });
  return { instance: saved, evaluation, data: { entered: data, instances: stored.instances } };
}

/**
 * The form's row as a save leaves it, with its entered values that changed (upserted), in one
 * statement of constant text: the values travel as one JSON parameter ([item, value] pairs), so
 * the statement is not built and compiled again for every save (building it with its VALUES list
 * was ~5 % of the server's busy time in a profile of saves, issue 12) and is prepared once per
 * connection (db/database.ts).
 */
function formWriteStatement(
  row: FormInstanceRow,
  values: ReadonlyArray<[string, JsonValue]>,
): CompiledQuery<never> {
  return CompiledQuery.raw(
    `with values_written as (
      insert into item_values (form_instance_id, item_key, value, derived, definition_version, updated_at, updated_by)
      select $1, entry->>0, entry->1, false, $3, $4, $5 from jsonb_array_elements($2::jsonb) as entry
      on conflict (form_instance_id, item_key) do update set value = excluded.value, derived = false,
        definition_version = excluded.definition_version, updated_at = excluded.updated_at,
        updated_by = excluded.updated_by
    )
    update form_instances set version = $6, has_data = $7, definition_version = $3, saved_at = $4,
      saved_by = $5, status = $8
    where id = $1`,
    [
      row.id,
      JSON.stringify(values),
      row.definition_version,
      row.saved_at,
      row.saved_by,
      row.version,
      row.has_data,
      row.status,
    ],
  );
}

/** Whether two forms' entered values hold the same items (whatever their values). */
function sameItemKeys(before: FormValues, after: FormValues): boolean {
  const keys = Object.keys(before);
  return keys.length === Object.keys(after).length && keys.every((key) => Object.hasOwn(after, key));
}

/**
 * Derived values of every saved form, stored where they changed (age follows a corrected birth
 * date…). Returns the forms whose derived values it changed. The derivations ran over the whole
 * subject (`evaluation.data`), whichever forms the save walked.
 */
async function storeDerivedValues(
  trx: Transaction<Database>,
  definition: StudyDefinition,
  stored: StoredSubjectData,
  evaluation: SubjectEvaluation,
  definitionVersion: string,
): Promise<Array<{ visitKey: string; formKey: string }>> {
  const changedForms: Array<{ visitKey: string; formKey: string }> = [];
  const cleared: Array<{ instanceId: number; itemKey: string }> = [];
  const written: Array<{ instanceId: number; itemKey: string; value: JsonValue }> = [];
  for (const layout of layoutsForData(definition, evaluation.data)) {
    const { visitKey, form } = layout;
    const previous = formValues(stored.derived, visitKey, form.key);
    // Most forms derive nothing and have nothing derived stored.
    if (layout.derivedItems.length === 0 && Object.keys(previous).length === 0) continue;
    const instance = stored.instances.get(formKeyOf(visitKey, form.key));
    if (!instance) continue;
    const derived = derivedValuesOf(layout, formValues(evaluation.data, visitKey, form.key));
    const changesBefore = cleared.length + written.length;
    for (const itemKey of new Set([...Object.keys(previous), ...Object.keys(derived)])) {
      const value = derived[itemKey];
      if (sameEntry(previous[itemKey], value)) continue;
      if (isEmptyEntry(value) || !instance.has_data) cleared.push({ instanceId: instance.id, itemKey });
      else written.push({ instanceId: instance.id, itemKey, value: value as JsonValue });
    }
    if (cleared.length + written.length > changesBefore) changedForms.push({ visitKey, formKey: form.key });
  }
  for (const [instanceId, itemKeys] of groupByInstance(cleared))
    await deleteItemValues(trx, instanceId, itemKeys);
  if (written.length === 0) return changedForms;
  const now = new Date();
  await trx
    .insertInto('item_values')
    .values(
      written.map(({ instanceId, itemKey, value }) => ({
        form_instance_id: instanceId,
        item_key: itemKey,
        value: JSON.stringify(value),
        derived: true,
        definition_version: definitionVersion,
        updated_at: now,
      })),
    )
    .onConflict((conflict) =>
      conflict.columns(['form_instance_id', 'item_key']).doUpdateSet((eb) => ({
        value: eb.ref('excluded.value'),
        derived: true,
        updated_at: eb.ref('excluded.updated_at'),
      })),
    )
    .execute();
  return changedForms;
}

function groupByInstance(entries: Array<{ instanceId: number; itemKey: string }>): Map<number, string[]> {
  const grouped = new Map<number, string[]>();
  for (const { instanceId, itemKey } of entries)
    grouped.set(instanceId, [...(grouped.get(instanceId) ?? []), itemKey]);
  return grouped;
}

/** Removes a form's stored values of these items (one statement; none when there are none). */
async function deleteItemValues(trx: Transaction<Database>, instanceId: number, itemKeys: readonly string[]) {
  if (itemKeys.length === 0) return;
  await trx
    .deleteFrom('item_values')
    .where('form_instance_id', '=', instanceId)
    .where('item_key', 'in', [...itemKeys])
    .execute();
}

export function failingQueryChecks(
  stored: StoredSubjectData,
  evaluation: SubjectEvaluation,
): Map<string, CheckResult> {
  const failing = new Map<string, CheckResult>();
  for (const form of evaluation.forms) {
    if (!stored.instances.get(formKeyOf(form.visitKey, form.formKey))?.has_data) continue;
    for (const check of form.checks) {
      if (check.severity === 'query')
        failing.set(systemQueryKey(form.visitKey, form.formKey, check.checkId, check.path), check);
    }
  }
  return failing;
}

export const systemQueryKey = (visitKey: string, formKey: string, checkId: string | null, path: string) =>
  `${visitKey}|${formKey}|${checkId}|${path}`;

/**
 * After a query's state changed outside a save: the subject's data evaluated again, each saved
 * form's stored status brought in line with its open queries, and the failing checks returned.
 */
export async function refreshAfterQueryChange(
  trx: Transaction<Database>,
  definition: StudyDefinition,
  subjectId: number,
): Promise<Map<string, CheckResult>> {
  const stored = await loadSubjectData(trx, subjectId);
  const evaluation = evaluateSubject(definition, stored.entered, { today: todayInKorea() });
  await addLabRangeChecks(trx, definition, { subjectId }, evaluation);
  await refreshFormStatuses(trx, definition, subjectId, stored, evaluation);
  return failingQueryChecks(stored, evaluation);
}

/**
 * One open system query per failing "query" check and item on saved forms; a query whose check no
 * longer fails closes itself, with a message in its thread. Both are audited. A query a person closed
 * while its check still failed (`closed_over_check`) is not raised again until the item's value
 * changes.
 */
async function syncSystemQueries(
  trx: Transaction<Database>,
  subject: SubjectWithSite,
  stored: StoredSubjectData,
  evaluation: SubjectEvaluation,
  actor: AuditActor,
  changedPaths: (path: string) => boolean,
  /** The subject's open and answered queries and those closed over a failing check. */
  activeQueries: readonly ActiveQuery[],
  /** The forms the save evaluated: the system queries of the others stay as they are. */
  walked: FormSet,
): Promise<{ stillOpen: OpenQuery[]; changed: boolean }> {
  const failing = failingQueryChecks(stored, evaluation);
  const existing = activeQueries.filter(
    (query) => query.kind === 'system' && walked.has(query.visit_key, query.form_key),
  );
  const closedIds = new Set<number>();
  const opened: OpenQuery[] = [];
  const openKeys = new Set<string>();
  const settledKeys = new Set<string>();
  for (const query of existing) {
    const queryKey = systemQueryKey(query.visit_key, query.form_key, query.check_id, query.item_path);
    if (query.status !== 'open' && query.status !== 'answered') {
      settledKeys.add(queryKey);
      continue;
    }
    openKeys.add(queryKey);
    if (failing.has(queryKey)) continue;
    await trx
      .updateTable('queries')
      .set({ status: 'closed', closed_at: new Date() })
      .where('id', '=', query.id)
      .execute();
    closedIds.add(query.id);
    await addQueryMessage(trx, {
      queryId: query.id,
      kind: 'closed_by_check',
      text: CLOSED_BY_CHECK,
      authorUserId: null,
      authorRole: null,
    });
    await recordAudit(trx, actor, {
      type: 'query.closed',
      entityType: 'query',
      entityId: query.id,
      studyId: subject.study_id,
      siteId: subject.site_id,
      subjectId: subject.id,
      before: { status: query.status },
      after: { status: 'closed', itemPath: query.item_path, checkId: query.check_id },
      reason: CLOSED_BY_CHECK.en,
    });
  }
  for (const [queryKey, check] of failing) {
    if (openKeys.has(queryKey)) continue;
    if (settledKeys.has(queryKey) && !changedPaths(check.path)) continue;
    const query = await trx
      .insertInto('queries')
      .values({
        study_id: subject.study_id,
        site_id: subject.site_id,
        subject_id: subject.id,
        visit_key: check.visitKey,
        form_key: check.formKey,
        item_path: check.path,
        check_id: check.checkId,
        kind: 'system',
        status: 'open',
        message: JSON.stringify(check.message),
      })
      .returning(['id', 'opened_at'])
      .executeTakeFirstOrThrow();
    opened.push({ visit_key: check.visitKey, form_key: check.formKey });
    await addQueryMessage(trx, {
      queryId: query.id,
      kind: 'opened',
      text: check.message,
      authorUserId: null,
      authorRole: null,
      at: query.opened_at,
    });
    await recordAudit(trx, actor, {
      type: 'query.opened',
      entityType: 'query',
      entityId: query.id,
      studyId: subject.study_id,
      siteId: subject.site_id,
      subjectId: subject.id,
      after: {
        status: 'open',
        kind: 'system',
        itemPath: check.path,
        checkId: check.checkId,
        message: check.message,
      },
    });
  }
  const stillOpen = [
    ...activeQueries.filter(
      (query) => (query.status === 'open' || query.status === 'answered') && !closedIds.has(query.id),
    ),
    ...opened,
  ];
  // Whether it opened or closed any: the subject's query counts moved.
  return { stillOpen, changed: closedIds.size > 0 || opened.length > 0 };
}

const CLOSED_BY_CHECK = {
  ko: '데이터가 더 이상 점검 조건에 해당하지 않아 시스템이 종료했습니다.',
  en: 'The data no longer fail the check (closed by the system).',
};

/**
 * The subject's status follows from the data after every save (the definition's status rules);
 * it is never set by a client. A change is audited with the rule that caused it. Returns whether
 * the status changed.
 */
async function updateSubjectStatus(
  trx: Transaction<Database>,
  definition: StudyDefinition,
  subject: SubjectWithSite,
  currentStatus: SubjectStatus,
  evaluation: SubjectEvaluation,
  actor: AuditActor,
): Promise<boolean> {
  const { status, rule } = computeSubjectStatus(definition, evaluation.data, todayInKorea());
  if (currentStatus === status) return false;
  await trx.updateTable('subjects').set({ status }).where('id', '=', subject.id).execute();
  subject.status = status;
  await recordAudit(trx, actor, {
    type: 'subject.status_changed',
    entityType: 'subject',
    entityId: subject.id,
    studyId: subject.study_id,
    siteId: subject.site_id,
    subjectId: subject.id,
    before: { status: currentStatus },
    after: { status, cause: rule ?? 'no_rule_holds' },
  });
  if (status === 'complete' || status === 'dropout') await notifyCasebookReadyToSign(trx, subject, status);
  return true;
}

/**
 * Each saved form's overview status from its data and its open queries, written where it changed.
 */
export async function refreshFormStatuses(
  trx: Transaction<Database>,
  definition: StudyDefinition,
  subjectId: number,
  stored: StoredSubjectData,
  evaluation: SubjectEvaluation,
  known: {
    /** The form a save is writing anyway: its status is only computed. */
    writtenByCaller?: string;
    /** The subject's open and answered queries, when the caller has them (a save does). */
    openQueries?: readonly OpenQuery[];
    /**
     * The forms the caller evaluated, when not all (a save): the others keep their stored status,
     * since nothing their status follows from has changed (`formsToWalk`).
     */
    walked?: FormSet;
  } = {},
): Promise<Map<string, string>> {
  const openQueries =
    known.openQueries ??
    (await trx
      .selectFrom('queries')
      .select(['visit_key', 'form_key'])
      .where('subject_id', '=', subjectId)
      .where('status', 'in', ['open', 'answered'])
      .execute());
  const counts = new Map<string, number>();
  for (const query of openQueries) {
    const key = formKeyOf(query.visit_key, query.form_key);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const evaluated = new Map(evaluation.forms.map((form) => [formKeyOf(form.visitKey, form.formKey), form]));
  const statuses = new Map<string, string>();
  for (const [key, instance] of stored.instances) {
    if (known.walked && !known.walked.has(instance.visit_key, instance.form_key)) {
      statuses.set(key, instance.status);
      continue;
    }
    const form = evaluated.get(key);
    const status = computeFormStatus({
      inVisit: getFormLayout(definition, instance.visit_key, instance.form_key) !== undefined,
      saved: instance.has_data,
      openQueryCount: counts.get(key) ?? 0,
      missingCount: form?.missing.length ?? 0,
    });
    statuses.set(key, status);
    if (status !== instance.status && key !== known.writtenByCaller)
      await trx.updateTable('form_instances').set({ status }).where('id', '=', instance.id).execute();
  }
  return statuses;
}
