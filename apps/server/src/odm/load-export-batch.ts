import type { SubjectStatus } from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { Database, QueryMessageRow, QueryRow } from '../db/schema.ts';

/**
 * One batch of subjects for an ODM export, with everything the writers need about them, read in a
 * handful of set-based queries (subjects, values, audit, signatures, queries, messages) whatever the
 * batch's size — never one query per subject. Batches are taken in subject-id order after the last
 * id seen (keyset), so an export of 5,000 subjects holds one batch in memory at a time.
 */

export interface ExportScope {
  studyId: number;
  /** Only these sites' subjects; all sites of the study when absent. */
  siteIds?: number[];
  /** Only subjects in these statuses; every status when absent. */
  statuses?: SubjectStatus[];
  /** Only these forms' values (and their audit); every form when absent. */
  formKeys?: string[];
}

export interface ExportValueRow {
  subjectId: number;
  visitKey: string;
  formKey: string;
  itemKey: string;
  value: unknown;
  derived: boolean;
  updatedAt: Date;
  updatedBy: number | null;
}

/** One `data.item_changed` record: who set a stored key of a form to what, when and why. */
export interface ExportAuditRow {
  /** `visit.form.key`, as writeForm names the changed item. */
  path: string;
  userId: number | null;
  at: Date;
  reason: string | null;
  before: unknown;
  after: unknown;
}

export interface ExportSignature {
  signedBy: number;
  signedAt: Date;
  meaning: unknown;
}

export interface ExportQuery {
  query: QueryRow;
  messages: QueryMessageRow[];
}

export interface ExportSubject {
  id: number;
  screeningNumber: string;
  siteId: number;
  values: ExportValueRow[];
  /** Oldest first; empty unless the audit was asked for. */
  audit: ExportAuditRow[];
  /** The casebook signature in force (an invalidated one is not). */
  signature: ExportSignature | undefined;
  /** Empty unless queries were asked for. */
  queries: ExportQuery[];
}

export interface BatchOptions {
  afterSubjectId: number;
  limit: number;
  audit: boolean;
  queries: boolean;
}

/** The scope's subjects (not deleted, of the study, its sites and statuses), to select from. */
export function subjectsInScope(db: Kysely<Database>, scope: ExportScope) {
  let query = db.selectFrom('subjects').where('study_id', '=', scope.studyId).where('deleted_at', 'is', null);
  if (scope.siteIds !== undefined) query = query.where('site_id', 'in', nonEmpty(scope.siteIds));
  if (scope.statuses !== undefined) query = query.where('status', 'in', nonEmpty(scope.statuses));
  return query;
}

export async function loadExportBatch(
  db: Kysely<Database>,
  scope: ExportScope,
  options: BatchOptions,
): Promise<ExportSubject[]> {
  const subjectRows = await subjectsInScope(db, scope)
    .select(['id', 'screening_number', 'site_id'])
    .where('id', '>', options.afterSubjectId)
    .orderBy('id')
    .limit(options.limit)
    .execute();
  if (subjectRows.length === 0) return [];
  const ids = subjectRows.map((row) => row.id);

  let valueQuery = db
    .selectFrom('item_values')
    .innerJoin('form_instances', 'form_instances.id', 'item_values.form_instance_id')
    .select([
      'form_instances.subject_id',
      'form_instances.visit_key',
      'form_instances.form_key',
      'item_values.item_key',
      'item_values.value',
      'item_values.derived',
      'item_values.updated_at',
      'item_values.updated_by',
    ])
    .where('form_instances.subject_id', 'in', ids)
    .where('form_instances.has_data', '=', true)
    .orderBy('form_instances.subject_id')
    .orderBy('form_instances.id')
    .orderBy('item_values.item_key');
  if (scope.formKeys !== undefined)
    valueQuery = valueQuery.where('form_instances.form_key', 'in', nonEmpty(scope.formKeys));
  const valueRows = await valueQuery.execute();
  const keptForms = scope.formKeys === undefined ? undefined : new Set(scope.formKeys);

  const auditRows = options.audit
    ? await db
        .selectFrom('audit_events')
        .select(['subject_id', 'entity_id', 'actor_user_id', 'occurred_at', 'reason', 'before', 'after'])
        .where('subject_id', 'in', ids)
        .where('event_type', '=', 'data.item_changed')
        .orderBy('id')
        .execute()
    : [];

  const signatureRows = await db
    .selectFrom('signatures')
    .select(['subject_id', 'signed_by', 'signed_at', 'meaning'])
    .where('subject_id', 'in', ids)
    .where('invalidated_at', 'is', null)
    .orderBy('id')
    .execute();

  const queryRows = options.queries
    ? await db.selectFrom('queries').selectAll().where('subject_id', 'in', ids).orderBy('id').execute()
    : [];
  const messageRows =
    queryRows.length > 0
      ? await db
          .selectFrom('query_messages')
          .selectAll()
          .where(
            'query_id',
            'in',
            queryRows.map((query) => query.id),
          )
          .orderBy('id')
          .execute()
      : [];

  const subjects = new Map<number, ExportSubject>(
    subjectRows.map((row) => [
      row.id,
      {
        id: row.id,
        screeningNumber: row.screening_number,
        siteId: row.site_id,
        values: [],
        audit: [],
        signature: undefined,
        queries: [],
      },
    ]),
  );
  for (const row of valueRows) {
    subjects.get(row.subject_id)?.values.push({
      subjectId: row.subject_id,
      visitKey: row.visit_key,
      formKey: row.form_key,
      itemKey: row.item_key,
      value: row.value,
      derived: row.derived,
      updatedAt: row.updated_at,
      updatedBy: row.updated_by,
    });
  }
  for (const row of auditRows) {
    if (row.subject_id === null || row.entity_id === null) continue;
    // The path is `visit.form.key`: a record of a form left out of the scope stays out.
    if (keptForms && !keptForms.has(row.entity_id.split('.')[1] ?? '')) continue;
    subjects.get(row.subject_id)?.audit.push({
      path: row.entity_id,
      userId: row.actor_user_id,
      at: row.occurred_at,
      reason: row.reason,
      before: row.before,
      after: row.after,
    });
  }
  // At most one signature is in force; the newest wins should history ever hold two.
  for (const row of signatureRows) {
    const subject = subjects.get(row.subject_id);
    if (subject)
      subject.signature = { signedBy: row.signed_by, signedAt: row.signed_at, meaning: row.meaning };
  }
  const threads = new Map<number, ExportQuery>();
  for (const query of queryRows) {
    const thread = { query, messages: [] };
    threads.set(query.id, thread);
    subjects.get(query.subject_id)?.queries.push(thread);
  }
  for (const message of messageRows) threads.get(message.query_id)?.messages.push(message);
  return [...subjects.values()];
}

/**
 * Every subject of the scope, batch after batch (keyset on the subject id). The next batch is read
 * while the caller writes the current one, so the database and the writer work side by side (a
 * profile of the export waited on PostgreSQL for a quarter of its time); two batches at most are held.
 */
export async function* exportBatches(
  db: Kysely<Database>,
  scope: ExportScope,
  options: Omit<BatchOptions, 'afterSubjectId'>,
): AsyncGenerator<ExportSubject[]> {
  const load = (afterSubjectId: number) => loadExportBatch(db, scope, { ...options, afterSubjectId });
  let next: Promise<ExportSubject[]> | undefined = load(0);
  try {
    while (next) {
      const batch: ExportSubject[] = await next;
      next = undefined;
      const last = batch[batch.length - 1];
      if (!last) return;
      if (batch.length === options.limit) next = load(last.id);
      yield batch;
    }
  } finally {
    // A caller that stops early (a cancelled export) leaves a read in flight: let it settle quietly.
    await next?.catch(() => undefined);
  }
}

/** `in ()` is not SQL: an empty filter matches nothing, as an impossible value does. */
function nonEmpty<T>(values: T[]): T[] {
  return values.length > 0 ? values : ([null] as T[]);
}
