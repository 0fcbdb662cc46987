import { holdCovers, type SubjectStatus } from '@cdms/contract';
import { unscheduledVisitKey } from '@cdms/study';
import type { Kysely } from 'kysely';
import type { Database, QueryRow } from '../db/schema.ts';
import type { MessageWithAuthor } from '../queries/query-presenter.ts';
import { type CasebookPhoto, loadCasebookPhotos } from './draw-tympanic-photo.ts';

/**
 * Everything a casebook prints about a batch of subjects, read in a fixed handful of set-based
 * queries (subjects, forms, values, SDV marks, holds, queries, messages, signatures and, when asked,
 * the audit trail) whatever the batch's size — never one query per subject or per form. The site's
 * ZIP reads its subjects batch by batch (keyset on the subject id), so one batch is in memory at a time.
 */

export interface CasebookForm {
  visitKey: string;
  formKey: string;
  version: number;
  /** The study definition version the form was entered (or migrated) under. */
  definitionVersion: string;
  savedAt: Date;
  savedBy: string | null;
  /** Stored values by key: a plain item's value, or a repeating group's rows. */
  values: Map<string, { value: unknown; derived: boolean }>;
  /** SDV marks by stored key. */
  sdv: Map<string, { state: 'verified' | 'changed'; by: string; at: Date }>;
}

export interface CasebookHold {
  kind: 'frozen' | 'locked';
  level: 'form' | 'subject' | 'site' | 'study';
  visitKey: string | null;
  formKey: string | null;
  placedAt: Date;
  placedBy: string;
}

export interface CasebookAuditEntry {
  /** `visit.form.key`, as writeForm names the changed item. */
  path: string;
  at: Date;
  user: string;
  before: unknown;
  after: unknown;
  reason: string | null;
}

export interface CasebookSignature {
  printedName: string;
  role: string | null;
  signedAt: Date;
  meaning: { ko: string; en: string };
  invalidatedAt: Date | null;
  invalidatedReason: string | null;
}

export interface CasebookSubject {
  id: number;
  screeningNumber: string;
  initials: string;
  status: SubjectStatus;
  consentDate: string;
  randomizationNumber: string | null;
  siteId: number;
  /** The definition version the subject is on; null: the study's newest (never pinned by an amendment). */
  definitionVersion: string | null;
  forms: CasebookForm[];
  holds: CasebookHold[];
  queries: { query: QueryRow; messages: MessageWithAuthor[] }[];
  /** The newest signature (in force or invalidated); none when never signed. */
  signature: CasebookSignature | null;
  /** Oldest first; empty unless the audit trail was asked for. */
  audit: CasebookAuditEntry[];
  /** The subject's unscheduled visits not deleted (issue 19), by repeat key. */
  unscheduledVisits: { visitKey: string; repeatKey: number; visitDate: string; reason: string }[];
  /** The eardrum photos its forms refer to, by id (`draw-tympanic-photo.ts`). */
  photos?: Map<number, CasebookPhoto>;
}

export interface CasebookBatchScope {
  studyId: number;
  /** Exactly these subjects (one subject's casebook)… */
  subjectIds?: number[];
  /** …or the next `limit` subjects of this site after `afterSubjectId` (the site's ZIP). */
  siteId?: number;
  afterSubjectId?: number;
  limit?: number;
  audit: boolean;
}

const SYSTEM = 'system';

export async function loadCasebooks(
  db: Kysely<Database>,
  scope: CasebookBatchScope,
): Promise<CasebookSubject[]> {
  let subjectQuery = db
    .selectFrom('subjects')
    .leftJoin('subject_facts', 'subject_facts.subject_id', 'subjects.id')
    .select([
      'subjects.id',
      'subjects.screening_number',
      'subjects.initials',
      'subjects.status',
      'subjects.consent_date',
      'subjects.site_id',
      'subjects.definition_version',
      'subject_facts.randomization_number',
    ])
    .where('subjects.study_id', '=', scope.studyId)
    .where('subjects.deleted_at', 'is', null)
    .orderBy('subjects.id');
  if (scope.subjectIds !== undefined)
    subjectQuery = subjectQuery.where('subjects.id', 'in', scope.subjectIds);
  if (scope.siteId !== undefined) subjectQuery = subjectQuery.where('subjects.site_id', '=', scope.siteId);
  if (scope.afterSubjectId !== undefined)
    subjectQuery = subjectQuery.where('subjects.id', '>', scope.afterSubjectId);
  if (scope.limit !== undefined) subjectQuery = subjectQuery.limit(scope.limit);
  const subjectRows = await subjectQuery.execute();
  if (subjectRows.length === 0) return [];
  const ids = subjectRows.map((row) => row.id);
  const siteIds = [...new Set(subjectRows.map((row) => row.site_id))];

  const formRows = await db
    .selectFrom('form_instances as f')
    .leftJoin('users as u', 'u.id', 'f.saved_by')
    .select([
      'f.id',
      'f.subject_id',
      'f.visit_key',
      'f.form_key',
      'f.version',
      'f.definition_version',
      'f.saved_at',
      'u.name as saved_by',
    ])
    .where('f.subject_id', 'in', ids)
    .where('f.has_data', '=', true)
    .orderBy('f.id')
    .execute();
  const formIds = formRows.map((row) => row.id);
  const unscheduledRows = await db
    .selectFrom('unscheduled_visits')
    .select(['subject_id', 'repeat_key', 'visit_date', 'reason'])
    .where('subject_id', 'in', ids)
    .where('deleted_at', 'is', null)
    .orderBy('subject_id')
    .orderBy('repeat_key')
    .execute();

  const valueRows =
    formIds.length === 0
      ? []
      : await db
          .selectFrom('item_values')
          .select(['form_instance_id', 'item_key', 'value', 'derived'])
          .where('form_instance_id', 'in', formIds)
          .execute();

  const markRows =
    formIds.length === 0
      ? []
      : await db
          .selectFrom('sdv_marks as m')
          .innerJoin('users as u', 'u.id', 'm.verified_by')
          .select(['m.form_instance_id', 'm.item_key', 'm.state', 'm.verified_at', 'u.name as verified_by'])
          .where('m.subject_id', 'in', ids)
          .execute();

  // The holds in force over any of these subjects: the study's, their sites', their own, their forms'.
  const holdRows = await db
    .selectFrom('holds as h')
    .innerJoin('users as u', 'u.id', 'h.placed_by')
    .select([
      'h.kind',
      'h.level',
      'h.site_id',
      'h.subject_id',
      'h.visit_key',
      'h.form_key',
      'h.placed_at',
      'u.name as placed_by',
    ])
    .where('h.study_id', '=', scope.studyId)
    .where('h.lifted_at', 'is', null)
    .where((eb) =>
      eb.or([
        eb('h.level', '=', 'study'),
        eb.and([eb('h.level', '=', 'site'), eb('h.site_id', 'in', siteIds)]),
        eb('h.subject_id', 'in', ids),
      ]),
    )
    .orderBy('h.id')
    .execute();

  const queryRows = await db
    .selectFrom('queries')
    .selectAll()
    .where('subject_id', 'in', ids)
    .where('status', '!=', 'cancelled')
    .orderBy('id')
    .execute();
  const messageRows =
    queryRows.length === 0
      ? []
      : await db
          .selectFrom('query_messages as m')
          .leftJoin('users as u', 'u.id', 'm.author_user_id')
          .selectAll('m')
          .select('u.name as author_name')
          .where(
            'm.query_id',
            'in',
            queryRows.map((query) => query.id),
          )
          .orderBy('m.id')
          .execute();

  // Newest first per subject: the first row met for a subject is the one printed.
  const signatureRows = await db
    .selectFrom('signatures')
    .select([
      'subject_id',
      'printed_name',
      'signer_role',
      'signed_at',
      'meaning',
      'invalidated_at',
      'invalidated_reason',
    ])
    .where('subject_id', 'in', ids)
    .orderBy('subject_id')
    .orderBy('signed_at', 'desc')
    .orderBy('id', 'desc')
    .execute();

  const auditRows = scope.audit
    ? await db
        .selectFrom('audit_events as a')
        .leftJoin('users as u', 'u.id', 'a.actor_user_id')
        .select([
          'a.subject_id',
          'a.entity_id',
          'a.actor_label',
          'u.name as actor_name',
          'a.occurred_at',
          'a.reason',
          'a.before',
          'a.after',
        ])
        .where('a.subject_id', 'in', ids)
        .where('a.event_type', '=', 'data.item_changed')
        .orderBy('a.id')
        .execute()
    : [];

  const subjects = new Map<number, CasebookSubject>(
    subjectRows.map((row) => [
      row.id,
      {
        id: row.id,
        screeningNumber: row.screening_number,
        initials: row.initials,
        status: row.status,
        consentDate: row.consent_date,
        randomizationNumber: row.randomization_number ?? null,
        definitionVersion: row.definition_version,
        siteId: row.site_id,
        forms: [],
        holds: [],
        queries: [],
        signature: null,
        audit: [],
        unscheduledVisits: [],
      },
    ]),
  );
  for (const row of unscheduledRows) {
    subjects.get(row.subject_id)?.unscheduledVisits.push({
      visitKey: unscheduledVisitKey(row.repeat_key),
      repeatKey: row.repeat_key,
      visitDate: row.visit_date,
      reason: row.reason,
    });
  }
  const forms = new Map<number, CasebookForm>();
  for (const row of formRows) {
    const form: CasebookForm = {
      visitKey: row.visit_key,
      formKey: row.form_key,
      version: row.version,
      definitionVersion: row.definition_version,
      savedAt: row.saved_at,
      savedBy: row.saved_by,
      values: new Map(),
      sdv: new Map(),
    };
    forms.set(row.id, form);
    subjects.get(row.subject_id)?.forms.push(form);
  }
  for (const row of valueRows) {
    forms.get(row.form_instance_id)?.values.set(row.item_key, { value: row.value, derived: row.derived });
  }
  for (const row of markRows) {
    forms
      .get(row.form_instance_id)
      ?.sdv.set(row.item_key, { state: row.state, by: row.verified_by, at: row.verified_at });
  }
  for (const subject of subjects.values()) {
    for (const row of holdRows) {
      // The study's and the site's holds over it, and every hold on the subject itself or on one of
      // its forms (each form shows its own).
      const overItsSite = holdCovers({ level: row.level, siteId: row.site_id }, { siteId: subject.siteId });
      if (!overItsSite && row.subject_id !== subject.id) continue;
      subject.holds.push({
        kind: row.kind,
        level: row.level,
        visitKey: row.visit_key,
        formKey: row.form_key,
        placedAt: row.placed_at,
        placedBy: row.placed_by,
      });
    }
  }
  const threads = new Map<number, { query: QueryRow; messages: MessageWithAuthor[] }>();
  for (const query of queryRows) {
    const thread = { query, messages: [] };
    threads.set(query.id, thread);
    subjects.get(query.subject_id)?.queries.push(thread);
  }
  for (const message of messageRows) threads.get(message.query_id)?.messages.push(message);
  for (const row of signatureRows) {
    const subject = subjects.get(row.subject_id);
    if (!subject || subject.signature) continue;
    const meaning = (typeof row.meaning === 'string' ? JSON.parse(row.meaning) : row.meaning) as {
      ko?: unknown;
      en?: unknown;
    };
    subject.signature = {
      printedName: row.printed_name,
      role: row.signer_role,
      signedAt: row.signed_at,
      meaning: { ko: String(meaning?.ko ?? ''), en: String(meaning?.en ?? '') },
      invalidatedAt: row.invalidated_at,
      invalidatedReason: row.invalidated_reason,
    };
  }
  for (const row of auditRows) {
    if (row.subject_id === null || row.entity_id === null) continue;
    subjects.get(row.subject_id)?.audit.push({
      path: row.entity_id,
      at: row.occurred_at,
      user: row.actor_name ?? (row.actor_label || SYSTEM),
      before: row.before,
      after: row.after,
      reason: row.reason,
    });
  }
  await loadCasebookPhotos(db, [...subjects.values()]);
  return [...subjects.values()];
}
