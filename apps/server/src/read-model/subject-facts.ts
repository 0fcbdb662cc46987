import type { SignatureState, SubjectStatus } from '@cdms/contract';
import {
  type Code,
  computeVisitSchedule,
  getFormLayout,
  getItemCodes,
  type StudyDefinition,
  type VisitScheduleEntry,
} from '@cdms/study';
import { type ExpressionBuilder, type Kysely, sql, type Transaction } from 'kysely';
import { jsonObjectFrom } from 'kysely/helpers/postgres';
import type { SiteScope } from '../auth/permissions.ts';
import type { Database } from '../db/schema.ts';
import { sdvPlanOf, sdvPlanQuery } from '../sdv-state/sdv-plan.ts';
import { loadSubjectSdvCounts, NO_SDV, type SubjectSdvCounts } from '../sdv-state/subject-sdv-counts.ts';
import { signatureStateSql } from '../signature-state/signature-data.ts';
import { formatRandomizationNumber } from '../subjects/randomization-state.ts';
import { factSourceForms } from '../subjects/subject-fact-sources.ts';
import { type SavedForm, type VisitFacts, visitFactsOf } from '../subjects/visit-facts.ts';

/**
 * The facts about each subject that lists, exports, the dashboard and the visit alarms show: one
 * place reads them from the stored data, so every screen counts the same way. Loads only the forms
 * these facts come from, for every subject in scope, in a handful of queries.
 */

export interface SubjectFacts {
  id: number;
  screeningNumber: string;
  initials: string;
  siteId: number;
  siteCode: string;
  siteName: string;
  institutionNumber: string;
  status: SubjectStatus;
  consentDate: string;
  /** When the subject was registered (the screening number given). */
  registeredAt: Date;
  randomizationNumber: string | null;
  randomizedAt: Date | null;
  gender: string | null;
  age: number | null;
  /** Actual visit dates by visit key (from each visit's visit-date item). */
  visitDates: Record<string, string>;
  /** The first and the last visit done (with a visit date), in the definition's visit order. */
  firstVisit: VisitDone | null;
  lastVisit: VisitDone | null;
  /** Every scheduled visit with its window and status as of `today`. */
  schedule: VisitScheduleEntry[];
  /** Each scheduled visit's missing forms and protocol deviations (`visit-facts.ts`). */
  visits: VisitFacts[];
  adverseEventCount: number;
  seriousAdverseEventCount: number;
  openQueryCount: number;
  answeredQueryCount: number;
  /** Of those, the monitors' manual queries (the rest come from the study's checks). */
  manualOpenQueryCount: number;
  manualAnsweredQueryCount: number;
  signature: SignatureState;
  screeningFailureReason: string | null;
  dropoutReason: string | null;
  /** Saved forms (eCRF pages with data). */
  savedFormCount: number;
  /** Of those, the forms missing required items (status 'dash'). */
  formsMissingRequired: number;
  /** SDV against the study's plan (sdv/subject-sdv-counts.ts). */
  sdv: SubjectSdvCounts;
}

export interface VisitDone {
  visitKey: string;
  date: string;
}

export interface SubjectFactsQuery {
  studyId: number;
  /** The sites the reader may see (from `siteScope`). */
  sites: SiteScope;
  definition: StudyDefinition;
  /** Today in UTC+9 (YYYY-MM-DD), for the visit schedule. */
  today: string;
  /** Only these subjects (all in scope when omitted). */
  subjectIds?: number[];
  /**
   * Take the SDV counts from the subjects' stored read-model rows instead of counting them again:
   * for a save that cannot have changed them (`writeForm`: the form's entered items kept, no
   * verification reset). A subject without a stored row is counted.
   */
  storedSdv?: boolean;
}

type Executor = Kysely<Database> | Transaction<Database>;

function asRecord(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function asText(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

function asNumber(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** The subject's open or answered queries (of one kind, or all), as a subquery of the subject row. */
function queryCount(
  eb: ExpressionBuilder<Database, 'subjects'>,
  status: 'open' | 'answered',
  kind?: 'manual',
) {
  let query = eb
    .selectFrom('queries')
    .select((inner) => inner.fn.countAll<number>().as('count'))
    .whereRef('queries.subject_id', '=', 'subjects.id')
    .where('queries.status', '=', status);
  if (kind) query = query.where('queries.kind', '=', kind);
  return query;
}

/**
 * Whether the facts read this form's values (entered or derived): the visit-date form of every
 * visit and the forms of the study's roles (`factSourceForms`: demographics, adverse events, end of
 * study, deviations and clinical figures).
 * `loadSubjectFacts` reads exactly these forms' values; a save of any other form changes no fact
 * through its values (`writeForm` then keeps the subject's read-model rows as they are).
 */
export function isFactSourceForm(definition: StudyDefinition, visitKey: string, formKey: string): boolean {
  return (
    formKey === (definition.visitDate?.form ?? '') ||
    factSourceForms(definition).some(
      (source) => source.formKey === formKey && (source.visitKey === null || source.visitKey === visitKey),
    )
  );
}

/**
 * What the facts take from the form instances (the `saved_forms` column below): the forms that hold
 * data, each with whether it misses required items (status 'dash'). `writeForm` takes it before and
 * after a save and compares the two (`sameSavedForms`); `statuses` are the forms' statuses as the
 * save left them, where they differ from the rows. A map, not a joined and sorted text: a save
 * builds it twice over the subject's ~40 forms (1.5 % of the server's busy time as text, issue 12).
 */
export function savedFormsFact(
  instances: ReadonlyMap<string, { has_data: boolean; status: string }>,
  statuses?: ReadonlyMap<string, string>,
): Map<string, boolean> {
  const fact = new Map<string, boolean>();
  for (const [key, instance] of instances) {
    if (instance.has_data) fact.set(key, (statuses?.get(key) ?? instance.status) === 'dash');
  }
  return fact;
}

/** Whether two `savedFormsFact`s hold the same forms, each missing items or not alike. */
export function sameSavedForms(a: ReadonlyMap<string, boolean>, b: ReadonlyMap<string, boolean>): boolean {
  if (a.size !== b.size) return false;
  for (const [key, dash] of a) {
    if (b.get(key) !== dash) return false;
  }
  return true;
}

/** Facts of every subject in scope (deleted subjects left out), ordered by screening number. */
export async function loadSubjectFacts(db: Executor, query: SubjectFactsQuery): Promise<SubjectFacts[]> {
  const { sites } = query;
  const visitDateSource = query.definition.visitDate;
  if (sites !== 'all' && sites.size === 0) return [];
  if (query.subjectIds !== undefined && query.subjectIds.length === 0) return [];
  let subjectQuery = db
    .selectFrom('subjects')
    .innerJoin('sites', 'sites.id', 'subjects.site_id')
    .innerJoin('studies', 'studies.id', 'subjects.study_id')
    .leftJoin('randomization_slots', 'randomization_slots.subject_id', 'subjects.id')
    .select([
      'subjects.id',
      'subjects.screening_number',
      'subjects.initials',
      'subjects.site_id',
      'subjects.status',
      'subjects.consent_date',
      'subjects.created_at',
      'sites.code as site_code',
      'sites.name as site_name',
      'sites.institution_number',
      'randomization_slots.sequence as randomization_sequence',
      'studies.randomization_number_format',
      'randomization_slots.assigned_at as randomized_at',
      // Counted per subject in the same statement (index lookups on the subject's rows): a save
      // refreshes one subject's facts, and every round trip there is paid on every save.
      (eb) => queryCount(eb, 'open').as('open_queries'),
      (eb) => queryCount(eb, 'answered').as('answered_queries'),
      (eb) => queryCount(eb, 'open', 'manual').as('manual_open_queries'),
      (eb) => queryCount(eb, 'answered', 'manual').as('manual_answered_queries'),
      // The saved forms themselves (visit, form, required items missing), for the count and the
      // visits' missing forms (`visit-facts.ts`), in the same statement for the same reason
      // (`savedFormsFact` says the same of a save's instances).
      sql<[string, string, boolean][] | null>`(select json_agg(json_build_array(fi.visit_key, fi.form_key,
        fi.status = 'dash')) from form_instances fi where fi.subject_id = subjects.id and fi.has_data)`.as(
        'saved_forms',
      ),
      signatureStateSql.as('signature_state'),
      // The study's SDV plan (one row, the same for every subject) for the SDV counts below.
      jsonObjectFrom(sdvPlanQuery(db, query.studyId)).as('sdv_plan'),
      // The values the facts come from (visit dates, demographics, adverse events, end of study,
      // deviations), as [visit, form, item, value] rows, in the same statement for the same reason.
      (eb) =>
        eb
          .selectFrom('item_values')
          .innerJoin('form_instances', 'form_instances.id', 'item_values.form_instance_id')
          .select(
            sql<
              [string, string, string, unknown][] | null
            >`json_agg(json_build_array(form_instances.visit_key,
              form_instances.form_key, item_values.item_key, item_values.value))`.as('values'),
          )
          .whereRef('form_instances.subject_id', '=', 'subjects.id')
          // The forms of `isFactSourceForm`.
          .where((inner) =>
            inner.or([
              inner('form_instances.form_key', '=', visitDateSource?.form ?? ''),
              ...factSourceForms(query.definition).map((source) =>
                source.visitKey === null
                  ? inner('form_instances.form_key', '=', source.formKey)
                  : inner.and([
                      inner('form_instances.visit_key', '=', source.visitKey),
                      inner('form_instances.form_key', '=', source.formKey),
                    ]),
              ),
            ]),
          )
          .as('fact_values'),
    ])
    .$if(query.storedSdv === true, (qb) =>
      qb.select((eb) =>
        jsonObjectFrom(
          eb
            .selectFrom('subject_facts')
            .select([
              'subject_facts.sdv_site_rank as site_rank',
              'subject_facts.sdv_planned_items as planned_items',
              'subject_facts.sdv_verified_items as verified_items',
              'subject_facts.sdv_changed_items as changed_items',
              'subject_facts.sdv_planned_forms as planned_forms',
              'subject_facts.sdv_complete_forms as complete_forms',
            ])
            .whereRef('subject_facts.subject_id', '=', 'subjects.id'),
        ).as('stored_sdv'),
      ),
    )
    .where('subjects.study_id', '=', query.studyId)
    .where('subjects.deleted_at', 'is', null)
    .orderBy('subjects.screening_number');
  if (sites !== 'all') subjectQuery = subjectQuery.where('subjects.site_id', 'in', [...sites]);
  if (query.subjectIds) subjectQuery = subjectQuery.where('subjects.id', 'in', query.subjectIds);
  const subjects = await subjectQuery.execute();
  if (subjects.length === 0) return [];

  const formsBySubject = new Map<number, Record<string, Record<string, Record<string, unknown>>>>();
  for (const subject of subjects) {
    const visits: Record<string, Record<string, Record<string, unknown>>> = {};
    formsBySubject.set(subject.id, visits);
    for (const [visitKey, formKey, itemKey, value] of subject.fact_values ?? []) {
      visits[visitKey] ??= {};
      const visit = visits[visitKey] as Record<string, Record<string, unknown>>;
      visit[formKey] ??= {};
      (visit[formKey] as Record<string, unknown>)[itemKey] = value;
    }
  }

  const plan = sdvPlanOf(subjects[0]?.sdv_plan);
  const uncounted = subjects.filter((subject) => !subject.stored_sdv).map((subject) => subject.id);
  const sdvOf = await loadSubjectSdvCounts(db, query.studyId, query.definition, uncounted, plan);

  // Where the facts live: the study's roles (a study without one has that fact empty).
  const { demographics, adverseEvents, endOfStudy } = query.definition.roles ?? {};
  return subjects.map((subject): SubjectFacts => {
    const forms = formsBySubject.get(subject.id) ?? {};
    /** A role's item value at the role's visit (undefined without the role). */
    const roleValue = (role: { visit: string; form: string } | undefined, itemKey: string | undefined) =>
      role && itemKey !== undefined ? asRecord(forms[role.visit]?.[role.form])[itemKey] : undefined;
    const events = roleValue(adverseEvents, adverseEvents?.rows);
    const eventRows = Array.isArray(events) ? events.map(asRecord) : [];
    const visitDates: Record<string, string> = {};
    for (const [visitKey, visitForms] of Object.entries(forms)) {
      const date = asText(asRecord(visitForms[visitDateSource?.form ?? ''])[visitDateSource?.item ?? '']);
      if (date) visitDates[visitKey] = date;
    }
    const savedForms = (subject.saved_forms ?? []).map(
      ([visitKey, formKey, missingRequired]): SavedForm => ({ visitKey, formKey, missingRequired }),
    );
    const schedule = computeVisitSchedule(query.definition, forms, { today: query.today });
    const gender = asText(roleValue(demographics, demographics?.sex));
    const visitsDone = query.definition.visits
      .filter((visit) => visitDates[visit.key] !== undefined)
      .map((visit): VisitDone => ({ visitKey: visit.key, date: visitDates[visit.key] as string }));
    return {
      id: subject.id,
      screeningNumber: subject.screening_number,
      initials: subject.initials,
      siteId: subject.site_id,
      siteCode: subject.site_code,
      siteName: subject.site_name,
      institutionNumber: subject.institution_number,
      status: subject.status,
      consentDate: subject.consent_date,
      registeredAt: subject.created_at,
      randomizationNumber:
        subject.randomization_sequence === null
          ? null
          : formatRandomizationNumber(
              subject.randomization_number_format,
              subject.institution_number,
              subject.randomization_sequence,
            ),
      randomizedAt: subject.randomized_at,
      gender,
      age: asNumber(roleValue(demographics, demographics?.age)),
      visitDates,
      firstVisit: visitsDone[0] ?? null,
      lastVisit: visitsDone.at(-1) ?? null,
      schedule,
      visits: visitFactsOf(query.definition, { forms, savedForms, gender, schedule }),
      adverseEventCount: eventRows.length,
      seriousAdverseEventCount: adverseEvents
        ? eventRows.filter((row) => row[adverseEvents.serious] === 'Y').length
        : 0,
      openQueryCount: Number(subject.open_queries ?? 0),
      answeredQueryCount: Number(subject.answered_queries ?? 0),
      manualOpenQueryCount: Number(subject.manual_open_queries ?? 0),
      manualAnsweredQueryCount: Number(subject.manual_answered_queries ?? 0),
      signature: subject.signature_state,
      screeningFailureReason:
        subject.status === 'screening_failure'
          ? asText(roleValue(endOfStudy, endOfStudy?.screeningFailureReason))
          : null,
      dropoutReason:
        subject.status === 'dropout' ? asText(roleValue(endOfStudy, endOfStudy?.dropoutReason)) : null,
      savedFormCount: savedForms.length,
      formsMissingRequired: savedForms.filter((form) => form.missingRequired).length,
      sdv: subject.stored_sdv ?? sdvOf.get(subject.id) ?? NO_SDV,
    };
  });
}

/** The code lists behind the coded facts, from the definition (labels follow the study's wording). */
export interface SubjectFactCodes {
  gender: Code[];
  screeningFailureReason: Code[];
  dropoutReason: Code[];
}

export function subjectFactCodes(definition: StudyDefinition): SubjectFactCodes {
  const { demographics, endOfStudy } = definition.roles ?? {};
  const codesOf = (
    role: { visit: string; form: string } | undefined,
    itemKey: string | undefined,
  ): Code[] => {
    if (!role || itemKey === undefined) return [];
    const location = getFormLayout(definition, role.visit, role.form)?.items.get(itemKey);
    return location ? getItemCodes(definition, location.item) : [];
  };
  return {
    gender: codesOf(demographics, demographics?.sex),
    screeningFailureReason: codesOf(endOfStudy, endOfStudy?.screeningFailureReason),
    dropoutReason: codesOf(endOfStudy, endOfStudy?.dropoutReason),
  };
}
