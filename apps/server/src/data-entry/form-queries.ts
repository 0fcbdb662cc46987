import type {
  AuditEntry,
  FormComment,
  FormDataResponse,
  HoldInForce,
  OverviewResponse,
} from '@cdms/contract';
import { todayInKorea } from '@cdms/contract';
import {
  computeStatusMatrix,
  evaluateSubject,
  type FormValues,
  isSigningForm,
  isValidDate,
  type StoredFormStates,
  type StudyDefinition,
  type SubjectData,
  type SubjectEvaluation,
} from '@cdms/study';
import { type Kysely, sql, type Transaction } from 'kysely';
import { jsonArrayFrom, jsonObjectFrom } from 'kysely/helpers/postgres';
import { actorRoleIn } from '../audit/actor-role.ts';
import { can } from '../auth/permissions.ts';
import { loadStudyRoles, type Principal, studyRandomizes } from '../auth/principal.ts';
import { type CompiledRow, compiledOnce } from '../db/compiled-once.ts';
import type { Database } from '../db/schema.ts';
import { holdsOverSubjectQuery, presentHold } from '../holds/hold-presenter.ts';
import { withFormHoldsAndSdv } from '../holds/read-extensions.ts';
import { AppError } from '../http/errors.ts';
import {
  labRangeSubjectOf,
  loadSiteLabRanges,
  rangesFittingSubject,
} from '../lab-range-rules/applicable-lab-ranges.ts';
import { formSdvOf, markableFormOf, type SdvMarkWithVerifier, sdvMarksQuery } from '../sdv-state/form-sdv.ts';
import { sdvPlanOf, sdvPlanQuery } from '../sdv-state/sdv-plan.ts';
import type { SdvPlanRule } from '../sdv-state/sdv-rules.ts';
import { siteRankSql } from '../sdv-state/sdv-sql.ts';
import { awaitsRandomization, isRandomized } from '../subjects/randomization-state.ts';
import { presentSubject, type SubjectWithSite } from '../subjects/subject-access.ts';
import { listUnscheduledVisits } from '../unscheduled-visits/unscheduled-visits.ts';
import { loadSubjectData, type SavedSubjectData } from './form-data.ts';
import { formKeyOf } from './load-subject-for-save.ts';

export async function subjectOverview(
  db: Kysely<Database>,
  principal: Principal,
  subject: SubjectWithSite,
  definition: StudyDefinition,
  definitionVersion: string,
): Promise<Omit<OverviewResponse, 'marks' | 'holds' | 'holdAbilities' | 'blinding'>> {
  const stored = await loadSubjectData(db, subject.id);
  // The matrix counts missing items of saved forms only (an unsaved form shows "none").
  const evaluation = evaluateSubject(definition, stored.entered, {
    today: todayInKorea(),
    forms: (visitKey, formKey) => stored.instances.get(formKeyOf(visitKey, formKey))?.has_data === true,
    itemStates: false,
  });
  const open = await openQueryCounts(db, subject.id);
  const unscheduledVisits = await listUnscheduledVisits(db, subject.id);
  const writer = can(principal, 'subject.write', { studyId: subject.study_id, siteId: subject.site_id });
  const states: StoredFormStates = {};
  for (const instance of stored.instances.values()) {
    states[instance.visit_key] ??= {};
    (states[instance.visit_key] as StoredFormStates[string])[instance.form_key] = {
      saved: instance.has_data,
      openQueryCount: open.get(formKeyOf(instance.visit_key, instance.form_key)) ?? 0,
    };
  }
  return {
    subject: presentSubject(subject),
    definitionVersion,
    unscheduledVisits,
    visitDates: scheduledVisitDates(definition, stored.entered, subject.consent_date),
    unscheduledVisitAbilities: {
      add: definition.unscheduledVisit !== undefined && writer,
      delete: writer,
    },
    matrix: computeStatusMatrix(
      definition,
      evaluation,
      states,
      unscheduledVisits.map((visit) => visit.visitKey),
    ),
  };
}

/** The saved date of each scheduled visit (the definition's visit-date item), the consent visit's consent date. */
export function scheduledVisitDates(
  definition: StudyDefinition,
  entered: SubjectData,
  consentDate: string,
): Record<string, string> {
  const dates: Record<string, string> = {};
  const source = definition.visitDate;
  for (const visit of definition.visits) {
    const value = source ? entered[visit.key]?.[source.form]?.[source.item] : undefined;
    if (isValidDate(value)) dates[visit.key] = value;
    else if (visit.group === 'consent') dates[visit.key] = consentDate;
  }
  return dates;
}

async function openQueryCounts(db: Kysely<Database>, subjectId: number): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('queries')
    .select(['visit_key', 'form_key', (eb) => eb.fn.countAll<number>().as('count')])
    .where('subject_id', '=', subjectId)
    .where('status', 'in', ['open', 'answered'])
    .groupBy(['visit_key', 'form_key'])
    .execute();
  return new Map(rows.map((row) => [formKeyOf(row.visit_key, row.form_key), Number(row.count)]));
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
  saved?: { data: SavedSubjectData; evaluation: SubjectEvaluation; surroundings?: Promise<FormSurroundings> },
): Promise<FormDataResponse> {
  // Right after a save, the save's own data and evaluation are the committed state: no second read.
  const stored: SavedSubjectData = saved?.data ?? (await loadSubjectData(db, subject.id));
  const instance = stored.instances.get(formKeyOf(visitKey, formKey));
  const evaluation =
    saved?.evaluation ??
    evaluateSubject(definition, stored.entered, {
      today: todayInKorea(),
      forms: (formVisitKey, formFormKey) => formVisitKey === visitKey && formFormKey === formKey,
      itemStates: false,
    });
  const form = evaluation.forms.find((f) => f.visitKey === visitKey && f.formKey === formKey);
  const entered = (stored.entered[visitKey]?.[formKey] ?? {}) as FormValues;
  // Queries, comments, holds and SDV: one statement, which a save sent with its commit.
  const around =
    (await saved?.surroundings) ??
    presentFormSurroundings(
      await db
        .executeQuery(formSurroundingsStatement(db, subject, visitKey, formKey, instance?.id ?? null))
        .then((answer) => answer.rows),
    );
  // The labTest form carries the site's ranges for this subject with their dates, so the browser flags
  // H/L as one types, against the range in force on the specimen date being typed.
  const labRanges =
    formKey === definition.roles?.labPanel?.form
      ? rangesFittingSubject(
          await loadSiteLabRanges(db, subject.site_id),
          labRangeSubjectOf(definition, subject.site_id, evaluation.data),
        )
      : [];
  // Holds, SDV marks and what they allow are issue 15's (holds/read-extensions.ts); the SDV is
  // counted over the instance and entered values read above.
  const storedForm = { instanceId: instance?.id ?? null, values: entered };
  const markable = markableFormOf(definition, visitKey, formKey, storedForm, around.marks);
  return withFormHoldsAndSdv(
    principal,
    subject,
    {
      subject: presentSubject(subject),
      visitKey,
      formKey,
      values: instance?.has_data ? { ...entered, ...(form?.derived ?? {}) } : {},
      derived: instance?.has_data ? (form?.derived ?? {}) : {},
      status: (instance?.status as FormDataResponse['status'] | undefined) ?? 'none',
      version: instance?.version ?? 0,
      definitionVersion: instance?.definition_version ?? definitionVersion,
      queries: around.queries,
      comments: around.comments,
      labRanges,
      outcomes: instance?.has_data
        ? (form?.outcomes ?? []).map((outcome) => ({
            outcomeId: outcome.outcomeId,
            kind: outcome.kind,
            message: outcome.message,
            target: outcome.target ?? null,
          }))
        : [],
      abilities: {
        // The signing form is filled by the PI's signature only: its saves and resets are refused (422).
        edit:
          !isSigningForm(definition, visitKey, formKey) &&
          can(principal, 'subject.write', { studyId: subject.study_id, siteId: subject.site_id }),
        randomize:
          visitKey === definition.roles?.randomization?.visit &&
          formKey === definition.roles.randomization.form &&
          studyRandomizes(principal, subject.study_id) &&
          can(principal, 'subject.randomize', { studyId: subject.study_id, siteId: subject.site_id }) &&
          awaitsRandomization(subject.status, await isRandomized(db, subject.id)),
        openQuery: can(principal, 'query.open', { studyId: subject.study_id, siteId: subject.site_id }),
      },
    },
    { holds: around.holds, sdv: formSdvOf(markable, around.plan, around.rank) },
  );
}

/** A type, not an interface: `compiledOnce` takes a record of named values. */
type SurroundingsParams = {
  subjectId: number;
  studyId: number;
  siteId: number;
  visitKey: string;
  formKey: string;
};

/** `loadFormSurroundings`' statement; without an instance (the form never saved) there are no marks. */
function formSurroundingsQuery(db: Kysely<Database>, params: SurroundingsParams, instanceId: number | null) {
  return db
    .selectFrom('subjects')
    .select([
      jsonArrayFrom(formQueriesQuery(db, params.subjectId, params.visitKey, params.formKey)).as('queries'),
      jsonArrayFrom(commentsQuery(db, params.subjectId, params.visitKey, params.formKey)).as('comments'),
      jsonArrayFrom(
        holdsOverSubjectQuery(db, { id: params.subjectId, study_id: params.studyId, site_id: params.siteId }),
      ).as('holds'),
      instanceId === null
        ? sql<[]>`'[]'::json`.as('marks')
        : jsonArrayFrom(sdvMarksQuery(db, instanceId)).as('marks'),
      sql<number>`${siteRankSql('subjects')}::int`.as('rank'),
      jsonObjectFrom(sdvPlanQuery(db, params.studyId)).as('plan'),
    ])
    .where('subjects.id', '=', params.subjectId);
}

/** Built once each (`compiledOnce`): every form read and save answers with one of them. */
const formSurroundings = compiledOnce((db, params: SurroundingsParams & { instanceId: number }) =>
  formSurroundingsQuery(db, params, params.instanceId),
);
const formSurroundingsBeforeFirstSave = compiledOnce((db, params: SurroundingsParams) =>
  formSurroundingsQuery(db, params, null),
);

/** What the form's answer shows beside its values (`formSurroundingsStatement`). */
export interface FormSurroundings {
  queries: FormDataResponse['queries'];
  comments: FormComment[];
  holds: HoldInForce[];
  marks: SdvMarkWithVerifier[];
  rank: number;
  plan: SdvPlanRule;
}

/**
 * What the form's answer shows beside its values, read in one statement (on the 2-core machine of
 * issue 12 every round trip costs both the server and PostgreSQL): the form's queries and comments,
 * the holds in force over the subject, the SDV marks of the form's instance (none before its first
 * save), the subject's rank at its site and the study's SDV plan. A form read runs it; a save sends
 * it in its transaction with its commit (`saveForm`). `presentFormSurroundings` reads its rows.
 */
export function formSurroundingsStatement(
  executor: Kysely<Database> | Transaction<Database>,
  subject: SubjectWithSite,
  visitKey: string,
  formKey: string,
  instanceId: number | null,
) {
  const params = {
    subjectId: subject.id,
    studyId: subject.study_id,
    siteId: subject.site_id,
    visitKey,
    formKey,
  };
  return instanceId === null
    ? formSurroundingsBeforeFirstSave.bind(executor, params)
    : formSurroundings.bind(executor, { ...params, instanceId });
}

type FormSurroundingsRow = CompiledRow<ReturnType<typeof formSurroundingsStatement>>;

/**
 * `formSurroundingsStatement`'s answer as the form screen shows it. `json_agg` gives timestamps as
 * PostgreSQL's text (microseconds, the session's offset): `new Date` reads them to the millisecond,
 * as the drivers read a timestamp column, before the presenters turn them into ISO strings.
 */
export function presentFormSurroundings(rows: readonly FormSurroundingsRow[]): FormSurroundings {
  const [row] = rows;
  if (!row) throw new AppError(404, 'not_found');
  return {
    queries: row.queries.map((query) => ({
      id: query.id,
      itemPath: query.item_path,
      kind: query.kind,
      status: query.status,
      checkId: query.check_id,
      message: query.message,
      openedAt: new Date(query.opened_at).toISOString(),
      messageCount: query.message_count,
    })),
    comments: row.comments.map((comment) =>
      presentComment({ ...comment, created_at: new Date(comment.created_at) }),
    ),
    holds: row.holds.map((hold) =>
      presentHold({
        ...hold,
        placed_at: new Date(hold.placed_at),
        lifted_at: hold.lifted_at === null ? null : new Date(hold.lifted_at),
      }),
    ),
    marks: row.marks.map((mark) => ({
      ...mark,
      verified_at: new Date(mark.verified_at),
      changed_at: mark.changed_at === null ? null : new Date(mark.changed_at),
    })),
    rank: row.rank,
    plan: sdvPlanOf(row.plan),
  };
}

/** A form's queries in the order they were opened, as far as the form screen shows them. */
function formQueriesQuery(db: Kysely<Database>, subjectId: number, visitKey: string, formKey: string) {
  return db
    .selectFrom('queries')
    .select([
      'queries.id',
      'queries.item_path',
      'queries.kind',
      'queries.status',
      'queries.check_id',
      'queries.message',
      'queries.opened_at',
      'queries.message_count',
    ])
    .where('queries.subject_id', '=', subjectId)
    .where('queries.visit_key', '=', visitKey)
    .where('queries.form_key', '=', formKey)
    .orderBy('queries.id');
}

/** A form's section comments with their authors' names, in the order they were written. */
function commentsQuery(db: Kysely<Database>, subjectId: number, visitKey: string, formKey: string) {
  return db
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
    .orderBy('form_comments.id');
}

function presentComment(row: {
  id: number;
  section_key: string;
  text: string;
  created_at: Date;
  name: string;
}): FormComment {
  return {
    id: row.id,
    sectionKey: row.section_key,
    text: row.text,
    author: row.name,
    createdAt: row.created_at.toISOString(),
  };
}

export async function listComments(
  db: Kysely<Database>,
  subjectId: number,
  visitKey: string,
  formKey: string,
): Promise<FormComment[]> {
  const rows = await commentsQuery(db, subjectId, visitKey, formKey).execute();
  return rows.map((row) => presentComment(row));
}

/**
 * The subject's data history from the audit trail, filterable by visit, form and item (an item's
 * history is its value changes). Each entry names the person by name and by the study role they
 * acted in: the role the record stored, or for records older than that, the role their memberships
 * give them at the record's site. Never the account's e-mail.
 */
export async function subjectAudit(
  db: Kysely<Database>,
  subjectId: number,
  filter: { visit?: string | undefined; form?: string | undefined; item?: string | undefined },
  /** The reader may know the subject's group (blinding/): else a randomization record's is left out. */
  mayKnowGroup = false,
): Promise<AuditEntry[]> {
  let query = db
    .selectFrom('audit_events')
    .leftJoin('users', 'users.id', 'audit_events.actor_user_id')
    .selectAll('audit_events')
    .select('users.name as actor_name')
    .where('audit_events.subject_id', '=', subjectId)
    .orderBy('audit_events.id', 'desc')
    .limit(2000);
  const prefix = [filter.visit, filter.form, filter.item].filter((part) => part !== undefined && part !== '');
  if (prefix.length > 0) {
    const escaped = prefix.join('.').replace(/[\\%_]/g, (c) => `\\${c}`);
    query = query
      .where(
        'audit_events.entity_type',
        'in',
        filter.item !== undefined && filter.item !== '' ? ['item'] : ['item', 'form', 'comment'],
      )
      .where((eb) =>
        eb.or([
          eb('audit_events.entity_id', '=', prefix.join('.')),
          eb('audit_events.entity_id', 'like', `${escaped}.%`),
        ]),
      );
  }
  // Records written before issue 51 name the group in `subject.randomized`.
  const rows = (await query.execute()).map((row) =>
    !mayKnowGroup && row.event_type === 'subject.randomized' && isRecord(row.after) && 'group' in row.after
      ? { ...row, after: Object.fromEntries(Object.entries(row.after).filter(([key]) => key !== 'group')) }
      : row,
  );
  const unstored = rows.filter(
    (row) => row.actor_role === null && row.actor_user_id !== null && row.study_id !== null,
  );
  const memberships = await loadStudyRoles(
    db,
    [...new Set(unstored.map((row) => row.actor_user_id as number))],
    [...new Set(unstored.map((row) => row.study_id as number))],
  );
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
      actorName: row.actor_user_id === null ? null : row.actor_name,
      actorRole:
        row.actor_role ??
        (row.actor_user_id === null
          ? null
          : actorRoleIn(memberships.get(row.actor_user_id), row.study_id, row.site_id)),
      visitKey: visitKey || null,
      formKey: formKey || null,
      itemPath: itemParts.length > 0 ? itemParts.join('.') : null,
      before: row.before,
      after: row.after,
      reason: row.reason,
    };
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
