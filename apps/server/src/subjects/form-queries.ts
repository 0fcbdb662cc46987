import type { AuditEntry, FormComment, FormDataResponse, OverviewResponse } from '@cdms/contract';
import { randomizationForm, todayInKorea } from '@cdms/contract';
import {
  computeStatusMatrix,
  evaluateSubject,
  type FormValues,
  type StoredFormStates,
  type StudyDefinition,
} from '@cdms/study';
import type { Kysely } from 'kysely';
import { can } from '../auth/permissions.ts';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import { awaitsRandomization, isRandomized } from '../randomization/randomization.ts';
import { loadSubjectData } from './form-data.ts';
import { presentSubject, type SubjectWithSite } from './subject-access.ts';

export async function subjectOverview(
  db: Kysely<Database>,
  subject: SubjectWithSite,
  definition: StudyDefinition,
  definitionVersion: string,
): Promise<OverviewResponse> {
  const stored = await loadSubjectData(db, subject.id);
  const evaluation = evaluateSubject(definition, stored.entered, { today: todayInKorea() });
  const open = await openQueryCounts(db, subject.id);
  const states: StoredFormStates = {};
  for (const instance of stored.instances.values()) {
    states[instance.visit_key] ??= {};
    (states[instance.visit_key] as StoredFormStates[string])[instance.form_key] = {
      saved: instance.has_data,
      openQueryCount: open.get(`${instance.visit_key}.${instance.form_key}`) ?? 0,
    };
  }
  return {
    subject: presentSubject(subject),
    definitionVersion,
    matrix: computeStatusMatrix(definition, evaluation, states),
  };
}

async function openQueryCounts(db: Kysely<Database>, subjectId: number): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('queries')
    .select(['visit_key', 'form_key', (eb) => eb.fn.countAll<number>().as('count')])
    .where('subject_id', '=', subjectId)
    .where('status', 'in', ['open', 'answered'])
    .groupBy(['visit_key', 'form_key'])
    .execute();
  return new Map(rows.map((row) => [`${row.visit_key}.${row.form_key}`, Number(row.count)]));
}

/** Everything the form screen needs: values, derived values, status, version, queries, comments, abilities. */
export async function formData(
  db: Kysely<Database>,
  principal: Principal,
  subject: SubjectWithSite,
  definition: StudyDefinition,
  definitionVersion: string,
  visitKey: string,
  formKey: string,
): Promise<FormDataResponse> {
  const stored = await loadSubjectData(db, subject.id);
  const instance = stored.instances.get(`${visitKey}.${formKey}`);
  const evaluation = evaluateSubject(definition, stored.entered, { today: todayInKorea() });
  const form = evaluation.forms.find((f) => f.visitKey === visitKey && f.formKey === formKey);
  const entered = (stored.entered[visitKey]?.[formKey] ?? {}) as FormValues;
  const queries = await db
    .selectFrom('queries')
    .selectAll()
    .where('subject_id', '=', subject.id)
    .where('visit_key', '=', visitKey)
    .where('form_key', '=', formKey)
    .where('status', 'in', ['open', 'answered'])
    .orderBy('id')
    .execute();
  const comments = await listComments(db, subject.id, visitKey, formKey);
  return {
    subject: presentSubject(subject),
    visitKey,
    formKey,
    values: instance?.has_data ? { ...entered, ...(form?.derived ?? {}) } : {},
    derived: instance?.has_data ? (form?.derived ?? {}) : {},
    status: (instance?.status as FormDataResponse['status'] | undefined) ?? 'none',
    version: instance?.version ?? 0,
    definitionVersion: instance?.definition_version ?? definitionVersion,
    queries: queries.map((query) => ({
      id: query.id,
      itemPath: query.item_path,
      kind: query.kind,
      status: query.status,
      checkId: query.check_id,
      message: query.message,
      openedAt: query.opened_at.toISOString(),
    })),
    comments,
    outcomes: instance?.has_data
      ? (form?.outcomes ?? []).map((outcome) => ({
          outcomeId: outcome.outcomeId,
          kind: outcome.kind,
          message: outcome.message,
          target: outcome.target ?? null,
        }))
      : [],
    abilities: {
      edit: can(principal, 'subject.write', { studyId: subject.study_id, siteId: subject.site_id }),
      randomize:
        visitKey === randomizationForm.visitKey &&
        formKey === randomizationForm.formKey &&
        can(principal, 'subject.randomize', { studyId: subject.study_id, siteId: subject.site_id }) &&
        awaitsRandomization(subject.status, await isRandomized(db, subject.id)),
    },
  };
}

export async function listComments(
  db: Kysely<Database>,
  subjectId: number,
  visitKey: string,
  formKey: string,
): Promise<FormComment[]> {
  const rows = await db
    .selectFrom('form_comments')
    .innerJoin('users', 'users.id', 'form_comments.created_by')
    .select([
      'form_comments.id',
      'form_comments.section_key',
      'form_comments.text',
      'form_comments.created_at',
      'users.name',
    ])
    .where('form_comments.subject_id', '=', subjectId)
    .where('form_comments.visit_key', '=', visitKey)
    .where('form_comments.form_key', '=', formKey)
    .orderBy('form_comments.id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    sectionKey: row.section_key,
    text: row.text,
    author: row.name,
    createdAt: row.created_at.toISOString(),
  }));
}

/** The subject's data history from the audit trail, filterable by visit, form and item. */
export async function subjectAudit(
  db: Kysely<Database>,
  subjectId: number,
  filter: { visit?: string | undefined; form?: string | undefined; item?: string | undefined },
): Promise<AuditEntry[]> {
  let query = db
    .selectFrom('audit_events')
    .selectAll()
    .where('subject_id', '=', subjectId)
    .orderBy('id', 'desc')
    .limit(2000);
  const prefix = [filter.visit, filter.form, filter.item].filter((part) => part !== undefined && part !== '');
  if (prefix.length > 0) {
    const escaped = prefix.join('.').replace(/[\\%_]/g, (c) => `\\${c}`);
    query = query
      .where('entity_type', 'in', ['item', 'form', 'comment'])
      .where((eb) =>
        eb.or([eb('entity_id', '=', prefix.join('.')), eb('entity_id', 'like', `${escaped}.%`)]),
      );
  }
  const rows = await query.execute();
  return rows.map((row) => {
    const [visitKey, formKey, ...itemParts] = (
      row.entity_type === 'item' || row.entity_type === 'form' || row.entity_type === 'comment'
        ? (row.entity_id ?? '')
        : ''
    ).split('.');
    return {
      id: row.id,
      occurredAt: row.occurred_at.toISOString(),
      type: row.event_type,
      actor: row.actor_label,
      visitKey: visitKey || null,
      formKey: formKey || null,
      itemPath: itemParts.length > 0 ? itemParts.join('.') : null,
      before: row.before,
      after: row.after,
      reason: row.reason,
    };
  });
}
