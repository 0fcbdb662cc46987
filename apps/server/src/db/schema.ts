import type { Role, StudyKind, StudyStatus, TrainingQuiz } from '@cdms/contract';
import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

/**
 * Row types of every table, as Kysely sees them. The migrations in ./migrations are the source of
 * truth; this file mirrors them. Dates (`date` columns) are read as 'YYYY-MM-DD' strings and
 * timestamps as Date objects, on both drivers (see database.ts).
 */
export interface Database {
  app_meta: AppMetaTable;
  users: UsersTable;
  sessions: SessionsTable;
  studies: StudiesTable;
  sites: SitesTable;
  memberships: MembershipsTable;
  membership_sites: MembershipSitesTable;
  audit_events: AuditEventsTable;
  audit_chain_head: AuditChainHeadTable;
  audit_checkpoint_head: AuditCheckpointHeadTable;
  backup_schedule: BackupScheduleTable;
  login_failures: LoginFailuresTable;
  rate_limit_counters: RateLimitCountersTable;
  study_definitions: StudyDefinitionsTable;
  study_design_drafts: StudyDesignDraftsTable;
  study_design_draft_changes: StudyDesignDraftChangesTable;
  study_design_reviews: StudyDesignReviewsTable;
  study_design_review_comments: StudyDesignReviewCommentsTable;
  study_amendments: StudyAmendmentsTable;
  study_amendment_sites: StudyAmendmentSitesTable;
  amendment_impacts: AmendmentImpactsTable;
  amendment_migrations: AmendmentMigrationsTable;
  monitoring_limits: MonitoringLimitsTable;
  monitoring_runs: MonitoringRunsTable;
  monitoring_indicator_days: MonitoringIndicatorDaysTable;
  monitoring_signals: MonitoringSignalsTable;
  retired_item_values: RetiredItemValuesTable;
  amendment_impact_rows: AmendmentImpactRowsTable;
  study_views: StudyViewsTable;
  notices: NoticesTable;
  uploaded_images: UploadedImagesTable;
  subjects: SubjectsTable;
  subject_facts: SubjectFactsTable;
  readiness_totals: ReadinessTotalsTable;
  subject_fact_totals: SubjectFactTotalsTable;
  consent_month_totals: ConsentMonthTotalsTable;
  visit_alarm_totals: VisitAlarmTotalsTable;
  subject_list_totals: SubjectListTotalsTable;
  sdv_site_totals: SdvSiteTotalsTable;
  subject_visit_windows: SubjectVisitWindowsTable;
  subject_visits: SubjectVisitsTable;
  subject_number_counters: SubjectNumberCountersTable;
  form_instances: FormInstancesTable;
  item_values: ItemValuesTable;
  queries: QueriesTable;
  query_list_totals: QueryListTotalsTable;
  query_messages: QueryMessagesTable;
  form_comments: FormCommentsTable;
  randomization_slots: RandomizationSlotsTable;
  subject_unblindings: SubjectUnblindingsTable;
  signatures: SignaturesTable;
  user_second_factors: UserSecondFactorsTable;
  pending_logins: PendingLoginsTable;
  second_factor_recovery_codes: SecondFactorRecoveryCodesTable;
  system_settings: SystemSettingsTable;
  holds: HoldsTable;
  sdv_marks: SdvMarksTable;
  review_marks: ReviewMarksTable;
  coding_dictionaries: CodingDictionariesTable;
  coding_terms: CodingTermsTable;
  coding_synonyms: CodingSynonymsTable;
  coding_assignments: CodingAssignmentsTable;
  sdv_plans: SdvPlansTable;
  data_exports: DataExportsTable;
  data_export_chunks: DataExportChunksTable;
  lab_ranges: LabRangesTable;
  lab_results: LabResultsTable;
  report_rows: ReportRowsTable;
  report_row_totals: ReportRowTotalsTable;
  notifications: NotificationsTable;
  notification_preferences: NotificationPreferencesTable;
  training_modules: TrainingModulesTable;
  training_completions: TrainingCompletionsTable;
  attachments: AttachmentsTable;
  attachment_chunks: AttachmentChunksTable;
  form_photos: FormPhotosTable;
  guidelines: GuidelinesTable;
  task_notices: TaskNoticesTable;
  unscheduled_visits: UnscheduledVisitsTable;
  sae_reports: SaeReportsTable;
  sae_report_versions: SaeReportVersionsTable;
}

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Timestamp = ColumnType<Date, Date | string, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

/** Facts about this installation, written once (installation id, when it was created). */
export interface AppMetaTable {
  key: string;
  value: string;
  created_at: CreatedAt;
}

export interface UsersTable {
  id: Generated<number>;
  email: string;
  name: string;
  contact: Generated<string>;
  locale: Generated<'ko' | 'en'>;
  active: Generated<boolean>;
  is_admin: Generated<boolean>;
  password_hash: string;
  password_changed_at: ColumnType<Date, Date | string | undefined, Date | string>;
  last_login_at: NullableTimestamp;
  previous_login_at: NullableTimestamp;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}
export type UserRow = Selectable<UsersTable>;

export interface SessionsTable {
  id_hash: string;
  user_id: number;
  csrf_token: string;
  created_at: CreatedAt;
  last_seen_at: Timestamp;
  idle_expires_at: Timestamp;
  absolute_expires_at: Timestamp;
  ip: string;
  user_agent: string;
}
export type SessionRow = Selectable<SessionsTable>;

export interface StudiesTable {
  id: Generated<number>;
  code: string;
  title: string;
  content: Generated<string>;
  approaches: ColumnType<('PI' | 'CRA')[], ('PI' | 'CRA')[] | undefined, ('PI' | 'CRA')[]>;
  /** 'design': only its designers (DM, ADMIN) see it and no subject can be registered (issue 45). */
  status: Generated<StudyStatus>;
  registered_on: ColumnType<string, string | undefined, string>;
  /** Whether the group is written into the randomization form: every reader of the subject may know it. */
  show_randomization_group: Generated<boolean>;
  /** The roles that may see a subject's assigned group (blinding/README.md); UNBLINDED always may. */
  group_visible_roles: ColumnType<string[], string[] | undefined, string[]>;
  training_gates_data_entry: Generated<boolean>;
  protocol_number: Generated<string>;
  title_en: Generated<string>;
  sponsor: Generated<string>;
  kind: Generated<StudyKind>;
  /** When an administrator approved the design and opened the study for data entry. */
  went_live_at: NullableTimestamp;
  /** The roles its current definition declares (`roles` keys), written with each publication. */
  design_roles: ColumnType<string[], string[] | undefined, string[]>;
  /** Templates of its subjects' numbers (`number-formats.ts` in the contract). */
  screening_number_format: Generated<string>;
  randomization_number_format: Generated<string>;
  /** Off: no randomization, even when its design declares a randomization role. */
  randomization_enabled: Generated<boolean>;
  /** Issue 48: a design draft is published only with an approved review. */
  design_approval_required: Generated<boolean>;
  created_at: CreatedAt;
}
export type StudyRow = Selectable<StudiesTable>;

export interface SitesTable {
  id: Generated<number>;
  study_id: number;
  code: string;
  name: string;
  institution_number: string;
  /** Issue 17: randomized subjects the site is to enrol; null: the definition's per-site default. */
  enrollment_target: ColumnType<number | null, number | null | undefined, number | null>;
  created_at: CreatedAt;
}
export type SiteRow = Selectable<SitesTable>;

export interface MembershipsTable {
  id: Generated<number>;
  user_id: number;
  study_id: number;
  role: Role;
  created_at: CreatedAt;
}

export interface MembershipSitesTable {
  membership_id: number;
  site_id: number;
}

export interface AuditEventsTable {
  id: number;
  occurred_at: Date;
  event_type: string;
  actor_user_id: number | null;
  actor_label: string;
  /** The study role(s) the actor held for the record's study and site, e.g. "CRC" or "PI,SI". */
  actor_role: string | null;
  entity_type: string;
  entity_id: string | null;
  study_id: number | null;
  site_id: number | null;
  subject_id: number | null;
  before: unknown;
  after: unknown;
  reason: string | null;
  ip: string;
  request_id: string;
  previous_hash: string;
  hash: string;
}
export type AuditEventRow = Selectable<AuditEventsTable>;
export type NewAuditEventRow = Insertable<AuditEventsTable>;

export interface AuditChainHeadTable {
  singleton: boolean;
  last_id: number;
  last_hash: string;
}

/**
 * How many signed checkpoints were written to AUDIT_CHECKPOINT_FILE, and the last one's HMAC and
 * anchored record (migration 2026-12-06T1210): `audit verify` fails when the file has lost them.
 * One row, moved only by `record_audit_checkpoint`, one checkpoint at a time.
 */
export interface AuditCheckpointHeadTable {
  singleton: boolean;
  written: number;
  last_hmac: string | null;
  last_audit_event_id: number | null;
}

/**
 * Failed logins: per (email, client address), and per email across every address with client_ip ''
 * (see auth/login-throttle.ts).
 */
export interface LoginFailuresTable {
  email: string;
  client_ip: string;
  failure_count: number;
  first_failure_at: Date;
  locked_until: Date | null;
}

export interface RateLimitCountersTable {
  key: string;
  window_start: Date;
  count: number;
}

export interface StudyDefinitionsTable {
  id: Generated<number>;
  study_id: number;
  version: string;
  /** The StudyDefinition JSON (packages/study); written as a JSON string, read as an object. */
  definition: ColumnType<unknown, string, never>;
  /** Unique in any database: the key of the parsed copy a process keeps (studies/study-definitions.ts). */
  uid: Generated<string>;
  created_at: CreatedAt;
}

/** Issue 48 item 6: the designer's draft of a study, saved as it goes (one per study). */
export interface StudyDesignDraftsTable {
  study_id: number;
  revision: number;
  /** The document being designed, written as a JSON string, read as an object; it may have problems. */
  definition: ColumnType<unknown, string, string>;
  based_on_hash: ColumnType<string | null, string | null | undefined, string | null>;
  saved_by: number;
  saved_at: Timestamp;
}

/**
 * An amendment of a live study (issue 49): number, reason and declarations; while a draft, the next
 * version is the study's design draft. `to_version` and `content_hash` are set at publish.
 */
export interface StudyAmendmentsTable {
  id: Generated<number>;
  study_id: number;
  number: string;
  reason: string;
  status: Generated<'draft' | 'published' | 'discarded'>;
  /** packages/study's `AmendmentDeclarations`, written as a JSON string. */
  declarations: ColumnType<unknown, string | undefined, string>;
  from_version: string;
  to_version: ColumnType<string | null, string | null | undefined, string | null>;
  content_hash: ColumnType<string | null, string | null | undefined, string | null>;
  opened_by: number;
  opened_at: CreatedAt;
  published_by: ColumnType<number | null, number | null | undefined, number | null>;
  published_at: NullableTimestamp;
  /** When it was published or discarded. */
  closed_at: NullableTimestamp;
}

/** Per site, the date its ethics approval of an amendment takes effect (YYYY-MM-DD; null: none yet). */
export interface StudyAmendmentSitesTable {
  amendment_id: number;
  site_id: number;
  effective_on: ColumnType<string | null, string | null | undefined, string | null>;
}

/** The last impact analysis of a draft amendment: what it read and its counts (issue 49 item 3). */
/** A migration job of a published amendment (amendment-migration/): its scope, progress and lease. */
export interface AmendmentMigrationsTable {
  id: Generated<number>;
  amendment_id: number;
  study_id: number;
  scope: 'study' | 'site' | 'subject';
  site_id: number | null;
  subject_id: number | null;
  status: Generated<'queued' | 'running' | 'done'>;
  total: Generated<number>;
  migrated: Generated<number>;
  held: Generated<number>;
  /** The subjects the move refused, [{ subjectPk, subjectId, code, params }] (their count: the job's failures), written as a JSON string. */
  failures: ColumnType<unknown, string | undefined, string>;
  last_subject_id: Generated<number>;
  lease_until: Date | null;
  requested_by: number | null;
  created_at: CreatedAt;
  finished_at: Date | null;
}

/** A value an amendment retired from its form: kept as it was, never deleted. */
export interface RetiredItemValuesTable {
  id: Generated<number>;
  subject_id: number;
  amendment_id: number;
  visit_key: string;
  form_key: string;
  item_path: string;
  value: ColumnType<unknown, string, string>;
  derived: boolean;
  definition_version: string;
  retired_at: CreatedAt;
}

export interface AmendmentImpactsTable {
  amendment_id: number;
  draft_revision: number;
  inputs_hash: string;
  /** amendment-impact's `ImpactSummary`, written as a JSON string. */
  summary: ColumnType<unknown, string, string>;
  computed_by: number;
  computed_at: ColumnType<Date, Date | string, Date | string>;
}

/** One row of an impact analysis (amendment-impact's `ImpactRow`). */
export interface AmendmentImpactRowsTable {
  id: Generated<number>;
  amendment_id: number;
  subject_id: number;
  site_id: number;
  screening_number: string;
  visit_key: string | null;
  form_key: string | null;
  item_key: string | null;
  kind: string;
  /** JSON values, written as JSON strings (null: none). */
  before: ColumnType<unknown, string | null, string | null>;
  after: ColumnType<unknown, string | null, string | null>;
}

/** Who saved each revision of a draft and what it changed (`DefinitionDiffLine`s in ko and en). */
export interface StudyDesignDraftChangesTable {
  study_id: number;
  revision: number;
  saved_by: number;
  saved_at: Timestamp;
  lines: ColumnType<unknown, string, never>;
  line_count: number | null;
}

/** Issue 48 item 7: a review of a design draft and its e-signed approval. */
export interface StudyDesignReviewsTable {
  id: Generated<number>;
  study_id: number;
  revision: number;
  requested_by: number;
  requested_at: Timestamp;
  approved_by: ColumnType<number | null, number | null | undefined, number | null>;
  approved_at: NullableTimestamp;
  approved_revision: ColumnType<number | null, number | null | undefined, number | null>;
  approved_hash: ColumnType<string | null, string | null | undefined, string | null>;
  closed_at: NullableTimestamp;
}

export interface StudyDesignReviewCommentsTable {
  id: Generated<number>;
  review_id: number;
  element: string;
  text: string;
  revision: number;
  author_id: number;
  created_at: Timestamp;
}

export interface StudyViewsTable {
  user_id: number;
  study_id: number;
  viewed_at: Timestamp;
}

export interface NoticesTable {
  id: Generated<number>;
  study_id: number | null;
  title: string;
  content_html: string;
  pinned: Generated<boolean>;
  visible: Generated<boolean>;
  author_user_id: number;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
  deleted_at: NullableTimestamp;
}
export type NoticeRow = Selectable<NoticesTable>;

export interface UploadedImagesTable {
  id: Generated<string>;
  content_type: string;
  bytes: Uint8Array;
  size: number;
  uploaded_by: number;
  created_at: CreatedAt;
}

export type SubjectStatus = 'screening' | 'screening_failure' | 'ongoing' | 'complete' | 'dropout';

export interface SubjectsTable {
  id: Generated<number>;
  study_id: number;
  site_id: number;
  screening_number: string;
  initials: string;
  consent_date: string;
  status: Generated<SubjectStatus>;
  created_at: CreatedAt;
  created_by: number;
  deleted_at: NullableTimestamp;
  /** The definition version its data entry uses; null: the study's newest (amendment-migration/). */
  definition_version: ColumnType<string | null, string | null | undefined, string | null>;
}
export type SubjectRow = Selectable<SubjectsTable>;

/** The read model's row per subject (src/read-model/): facts computed from the data at every write. */
export interface SubjectFactsTable {
  subject_id: number;
  study_id: number;
  site_id: number;
  /** The site's code, copied so the list's site sort has an index (kept by updateSite on a rename). */
  site_code: string;
  screening_number: string;
  initials: string;
  /** Screening number, randomization number and initials lowercased, one a line: the list's search. */
  search_text: string;
  status: SubjectStatus;
  consent_date: string;
  registered_on: string;
  randomization_number: string | null;
  randomized_at: Date | null;
  gender: string | null;
  age: number | null;
  first_visit_key: string | null;
  first_visit_date: string | null;
  last_visit_key: string | null;
  last_visit_date: string | null;
  /** The last visit's place in the current definition (1-based; unknown keys after all): the list's sort. */
  last_visit_order: number | null;
  adverse_event_count: number;
  serious_adverse_event_count: number;
  open_query_count: number;
  answered_query_count: number;
  manual_open_query_count: number;
  manual_answered_query_count: number;
  signature_state: 'none' | 'signed' | 'invalidated';
  screening_failure_reason: string | null;
  dropout_reason: string | null;
  saved_form_count: number;
  /** `ageBandOf(age)`: the dashboard's age band (an `AGE_BANDS` key or `notEntered`). */
  age_band: string;
  /** YYYY-MM of the consent date: the dashboard's month of enrolment. */
  consent_month: string;
  /** SDV against the plan (sdv/sdv-sql.ts): the subject's place at its site by registration order… */
  sdv_site_rank: number;
  /** …and its counts: entered items in the plan, verified, changed since verified; forms with planned items, complete. */
  sdv_planned_items: number;
  sdv_verified_items: number;
  sdv_changed_items: number;
  sdv_planned_forms: number;
  sdv_complete_forms: number;
  /** Saved forms missing required items (status 'dash'): the readiness board's blocker. */
  forms_missing_required: number;
  /**
   * The first day a visit still to be done in follow-up is overdue (over those windows, the earliest
   * of the later of the opening and the day after the closing), null when none: the subject has
   * overdue visits on `today` when this is <= today. Stored as a date because it does not change
   * with today (migration 2026-12-06T1920).
   */
  overdue_from: string | null;
}
export type SubjectFactsRow = Selectable<SubjectFactsTable>;

/**
 * Sums of `subject_facts` per group of subjects alike in what the dashboard tells apart, as
 * append-only deltas a trigger writes on every change of a facts row (migration 2026-11-30T1000):
 * a group's total is the sum of its rows (read-model/subject-fact-totals.ts).
 */
export interface SubjectFactTotalsTable {
  study_id: number;
  site_id: number;
  status: SubjectStatus;
  randomized: boolean;
  gender: string | null;
  age_band: string;
  subjects: number;
  adverse_events: number;
  serious_adverse_events: number;
  subjects_with_adverse_events: number;
  subjects_with_serious_adverse_events: number;
  open_queries: number;
  answered_queries: number;
  manual_open_queries: number;
  manual_answered_queries: number;
  saved_forms: number;
  sdv_planned_forms: number;
  sdv_complete_forms: number;
}

/** Subjects per site and month of consent (YYYY-MM), as deltas like `subject_fact_totals`. */
export interface ConsentMonthTotalsTable {
  study_id: number;
  site_id: number;
  consent_month: string;
  subjects: number;
}

/**
 * Visit windows that raise or may raise an alarm, as deltas like `subject_fact_totals` (migration
 * 2026-11-30T1200): `outOfWindow` per site; `pending` (not done, subject in follow-up) per site and
 * window dates, whose state (overdue, due, due soon) is worked out from today when read.
 */
export interface VisitAlarmTotalsTable {
  study_id: number;
  site_id: number;
  kind: 'outOfWindow' | 'pending';
  earliest_date: string | null;
  latest_date: string | null;
  windows: number;
}

/**
 * Subjects per site, status and signed or not, as deltas like `subject_fact_totals` (migration
 * 2026-11-30T1300): the subject list's total for a status or signature filter.
 */
export interface SubjectListTotalsTable {
  study_id: number;
  site_id: number;
  status: SubjectStatus;
  signed: boolean;
  subjects: number;
}

/**
 * Subjects per site with their SDV counts, and how many of them each of the SDV list's state filters
 * keeps, as deltas like `subject_fact_totals` (migration 2026-12-06T1900): the SDV progress by site
 * and the list's total for a filter.
 */
export interface SdvSiteTotalsTable {
  study_id: number;
  site_id: number;
  subjects: number;
  /** Every planned form complete (`sdv_complete_forms = sdv_planned_forms`). */
  complete_subjects: number;
  /** Fewer forms complete than planned. */
  incomplete_subjects: number;
  /** Some item changed since verified. */
  changed_subjects: number;
  planned_items: number;
  verified_items: number;
  changed_items: number;
  planned_forms: number;
  complete_forms: number;
}

/**
 * The readiness board's per-site figures the other totals do not hold, as deltas like
 * `subject_fact_totals` (migration 2026-12-06T1920): subjects per site, whether nothing stored holds
 * them back from a lock (`lock_clear`: signed, no query, no form missing items, SDV complete) and
 * from which day a visit of theirs is overdue (only when `lock_clear`), whether their signature was
 * invalidated; with their forms missing required items.
 */
export interface ReadinessTotalsTable {
  study_id: number;
  site_id: number;
  lock_clear: boolean;
  invalidated: boolean;
  overdue_from: string | null;
  subjects: number;
  forms_missing_required: number;
}

/** The read model's scheduled visits with a window (alarms are computed from these in SQL). */
export interface SubjectVisitWindowsTable {
  subject_id: number;
  visit_key: string;
  study_id: number;
  site_id: number;
  visit_order: number;
  /** The subject's screening number: the alarm list's tie-break, sorted without a join. */
  screening_number: string;
  subject_status: SubjectStatus;
  actual_date: string | null;
  expected_date: string;
  earliest_date: string;
  latest_date: string;
}
export type SubjectVisitWindowRow = Selectable<SubjectVisitWindowsTable>;

/** The read model's scheduled visits, each with its forms' gaps and deviations (the reports read these). */
export interface SubjectVisitsTable {
  subject_id: number;
  visit_key: string;
  visit_date: string | null;
  window_closes: string | null;
  empty_forms: string[];
  incomplete_forms: string[];
  /** What the study's roles yield at the visit (`VisitRoleFacts`); written as a JSON string. */
  role_facts: ColumnType<VisitRoleFacts, string, string>;
}
export type SubjectVisitRow = Selectable<SubjectVisitsTable>;
export type PregnancyTestMissing = 'notRecorded' | 'noResult';

/**
 * The facts the study's roles yield at a visit, each present only when found: the read model stores
 * them as one JSON value (`subject_visits.role_facts`), so a study with other roles needs no new column.
 */
export interface VisitRoleFacts {
  /** `eligibility`: the criteria (item keys joined by ", ") failing while the decision says eligible. */
  eligibleFailingCriteria?: string;
  /** `treatmentApplication`: the date the treatment was applied, when it differs from the visit date. */
  treatmentAppliedOn?: string;
  /** `pregnancyTest`: a woman's test not recorded, or of childbearing potential without a result. */
  pregnancyTestMissing?: PregnancyTestMissing;
  /** `healing`: the outcome code saved at this visit, as the summary counts it. */
  healingOutcome?: string;
  /** `keyMeasures`: each measure's saved number by item key, as the summary averages them. */
  measures?: Record<string, number>;
}

/** The reports' rows (issue 46): which report lists them (`read-model/report-rows.ts`). */
export type ReportRowsReport =
  | 'adverseEvents'
  | 'eventsOfInterest'
  | 'protocolDeviations'
  | 'missingForms'
  | 'enrollment'
  | 'queryAging'
  | 'visitCompletion'
  | 'healingOutcomes'
  | 'keyMeasures'
  | 'keyMeasureChanges';

/**
 * The read model's rows of the listing reports, per subject (`read-model/report-rows.ts`): each
 * report's page read in its order from an index, its counts from `report_row_totals`.
 */
export interface ReportRowsTable {
  subject_id: number;
  report: ReportRowsReport;
  row_key: string;
  study_id: number;
  site_id: number;
  /** What the report counts by beside the site: a visit, a month, a day (`read-model/report-rows.ts`). */
  group_key: string;
  /** What the report filters and counts by (seriousness, kind, empty or incomplete, an event). */
  bucket: string;
  /** The row counts from this date on (a form of a visit not done, once its window closed); null: now. */
  counts_from: string | null;
  sort_date: string | null;
  site_code: string;
  screening_number: string;
  sort_rest: string;
  /** What the report shows of the row beyond its subject and site; written as a JSON string. */
  payload: ColumnType<Record<string, unknown>, string, string>;
  /** A number the report averages, summed in the totals (`value_sum`); null for most rows. */
  value: number | null;
}

/** `report_rows` counted per group: append-only deltas of a trigger, folded by the compaction. */
export interface ReportRowTotalsTable {
  study_id: number;
  site_id: number;
  report: ReportRowsReport;
  /** What the report counts by beside the site: a visit, a month, a day (`read-model/report-rows.ts`). */
  group_key: string;
  bucket: string;
  counts_from: string | null;
  rows: number;
  value_sum: number;
}

/**
 * The read model's numeric lab results (issue 43 item 13): each with the range in force on its
 * specimen date and its flag, kept by the save and by range changes; the lab page lists these.
 */
export interface LabResultsTable {
  form_instance_id: number;
  test_key: string;
  result_item: string;
  subject_id: number;
  study_id: number;
  site_id: number;
  site_code: string;
  screening_number: string;
  visit_key: string;
  test_order: number;
  specimen_date: string | null;
  value: number;
  sex: 'M' | 'F' | null;
  age: number | null;
  unit: string | null;
  low: number | null;
  high: number | null;
  flag: 'H' | 'L' | 'N' | null;
  normal: string | null;
  significance: string | null;
}
export type LabResultStoredRow = Selectable<LabResultsTable>;

export interface SubjectNumberCountersTable {
  study_id: number;
  site_id: number;
  last_number: number;
}

/**
 * One form of one visit of a subject. Indexed by (subject_id, visit_key, form_key) (unique) and, for
 * instances with data, by (form_key, subject_id) — one form across the trial (form-tables/).
 */
export interface FormInstancesTable {
  id: Generated<number>;
  subject_id: number;
  visit_key: string;
  form_key: string;
  version: Generated<number>;
  has_data: Generated<boolean>;
  status: Generated<string>;
  definition_version: string;
  saved_at: ColumnType<Date, Date | string | undefined, Date | string>;
  /** When the form was first saved (central monitoring's data-entry lag); the row's other times are its last save's. */
  first_saved_at: ColumnType<Date, Date | string | undefined, Date | string>;
  saved_by: number | null;
}
export type FormInstanceRow = Selectable<FormInstancesTable>;

export interface ItemValuesTable {
  form_instance_id: number;
  item_key: string;
  /** JSON value; written as a JSON string. */
  value: ColumnType<unknown, string, string>;
  derived: Generated<boolean>;
  definition_version: string;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
  updated_by: number | null;
}

export interface QueriesTable {
  id: Generated<number>;
  study_id: number;
  site_id: number;
  subject_id: number;
  visit_key: string;
  form_key: string;
  item_path: string;
  check_id: string | null;
  kind: 'system' | 'manual';
  status: 'open' | 'answered' | 'closed' | 'cancelled';
  message: ColumnType<{ ko: string; en: string }, string, string>;
  opened_at: CreatedAt;
  opened_by: number | null;
  closed_at: NullableTimestamp;
  /** Who is asked to act next. */
  assignee: Generated<'site' | 'monitor' | 'dataManagement'>;
  /** Sent back to open at least once. */
  reopened: Generated<boolean>;
  last_message_at: ColumnType<Date, Date | string | undefined, Date | string>;
  message_count: Generated<number>;
  /** A system query a person closed while its check still failed (not raised again until the value changes). */
  closed_over_check: Generated<boolean>;
  /** The subject's screening number, copied by a trigger when the row is inserted (the list's subject order). */
  screening_number: ColumnType<string, never, never>;
}
/** A query as its readers use it; the subject's screening number is read from the subject. */
export type QueryRow = Omit<Selectable<QueriesTable>, 'screening_number'>;

/**
 * The query list's counts for its usual filters: queries per site, status, kind and assignee, as
 * append-only deltas a trigger on `queries` writes (a total is the sum of its group's rows), folded
 * by `compactSubjectFactTotals` (migration 2026-12-06T1940).
 */
export interface QueryListTotalsTable {
  study_id: number;
  site_id: number;
  status: QueriesTable['status'];
  kind: QueriesTable['kind'];
  assignee: 'site' | 'monitor' | 'dataManagement';
  queries: number;
}

/** One message of a query's thread (issue 14). */
export interface QueryMessagesTable {
  id: Generated<number>;
  query_id: number;
  kind: 'opened' | 'answer' | 'comment' | 'close' | 'cancel' | 'reopen' | 'value_changed' | 'closed_by_check';
  text: ColumnType<{ ko: string; en: string }, string, string>;
  /** Null for the system's messages. */
  author_user_id: number | null;
  /** The study role the author acted in, as held then. */
  author_role: string | null;
  created_at: CreatedAt;
  proposed_value: ColumnType<string | number | boolean | null, string | null | undefined, string | null>;
  /** `text`'s ko and en lowercased, generated by the database: what the query list's word search reads. */
  search_ko: ColumnType<string | null, never, never>;
  search_en: ColumnType<string | null, never, never>;
}
/** A message as its readers use it (the search copies aside). */
export type QueryMessageRow = Omit<Selectable<QueryMessagesTable>, 'search_ko' | 'search_en'>;

export interface FormCommentsTable {
  id: Generated<number>;
  subject_id: number;
  visit_key: string;
  form_key: string;
  section_key: string;
  text: string;
  created_at: CreatedAt;
  created_by: number;
}

/** Emergency unblinding: the subjects whose blind their PI broke, one row each (blinding/). */
export interface SubjectUnblindingsTable {
  id: Generated<number>;
  study_id: number;
  site_id: number;
  subject_id: number;
  reason: string;
  unblinded_by: number;
  unblinded_at: CreatedAt;
}

export interface RandomizationSlotsTable {
  id: Generated<number>;
  study_id: number;
  site_id: number;
  sequence: number;
  treatment_group: 'treatment' | 'control';
  block_number: number;
  /** 'generated:<seed>' or 'import'. */
  source: string;
  created_at: CreatedAt;
  subject_id: number | null;
  assigned_at: NullableTimestamp;
  assigned_by: number | null;
}

export interface SignaturesTable {
  id: Generated<number>;
  study_id: number;
  subject_id: number;
  signed_by: number;
  /** The signer's name as printed on the signature manifestation. */
  printed_name: string;
  /** The role that allowed the signature, as held at signing. */
  signer_role: Role | null;
  /** What the signature means, { ko, en }. */
  meaning: ColumnType<unknown, string, string>;
  /** SHA-256 of the canonical JSON of the subject's data at signing. */
  data_hash: string;
  signed_at: CreatedAt;
  invalidated_at: NullableTimestamp;
  invalidated_reason: string | null;
}

/** A user's TOTP secret; confirmed_at null = enrolment started but not yet confirmed with a code. */
export interface UserSecondFactorsTable {
  user_id: number;
  secret: string;
  created_at: Date;
  confirmed_at: Date | null;
  last_time_step: number | null;
}
export type UserSecondFactorRow = Selectable<UserSecondFactorsTable>;

/** A password accepted, waiting for the second factor (token stored hashed). */
export interface PendingLoginsTable {
  token_hash: string;
  user_id: number;
  expires_at: Date;
}

/** A one-time recovery code of a user's second factor (hash only); used_at set once it is spent. */
export interface SecondFactorRecoveryCodesTable {
  id: Generated<number>;
  user_id: number;
  code_hash: string;
  created_at: Date;
  used_at: Date | null;
}

/** Issue 52: when a scheduled backup was last taken by one of the processes (one row). */
export interface BackupScheduleTable {
  singleton: Generated<boolean>;
  last_claimed_at: Date | null;
}

/** The installation's settings: one row. */
export interface SystemSettingsTable {
  singleton: Generated<boolean>;
  second_factor_required_for_admin_dm: Generated<boolean>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** A freeze or lock (issue 15); in force while `lifted_at` is null. */
export interface HoldsTable {
  id: Generated<number>;
  study_id: number;
  kind: 'frozen' | 'locked';
  level: 'form' | 'subject' | 'site' | 'study';
  site_id: number | null;
  subject_id: number | null;
  visit_key: string | null;
  form_key: string | null;
  /** The target as one text: 'study', 'site:3', 'subject:7', 'form:7:v2:vitalSigns'. */
  target_key: string;
  placed_by: number;
  placed_at: CreatedAt;
  placed_reason: string;
  lifted_by: number | null;
  lifted_at: NullableTimestamp;
  lifted_reason: string | null;
}
export type HoldRow = Selectable<HoldsTable>;

/** One verified item of a saved form (issue 15); 'changed' = the value changed since it was verified. */
export interface SdvMarksTable {
  form_instance_id: number;
  item_key: string;
  study_id: number;
  site_id: number;
  subject_id: number;
  state: 'verified' | 'changed';
  /** The value as verified; written as a JSON string. */
  verified_value: ColumnType<unknown, string, string>;
  verified_by: number;
  verified_at: Timestamp;
  changed_at: NullableTimestamp;
}
export type SdvMarkRow = Selectable<SdvMarksTable>;

/** A review listing's row marked reviewed (issue 50 item 4): the form instance's version at review. */
export interface ReviewMarksTable {
  form_instance_id: number;
  /** The listing: the form's key, or `form__group` for a repeating group's. */
  listing: string;
  study_id: number;
  site_id: number;
  subject_id: number;
  reviewed_version: number;
  reviewed_by: number;
  reviewed_at: Timestamp;
}

/** A study's targeted SDV plan (issue 15); a study without a row verifies every item. */
export interface SdvPlansTable {
  study_id: number;
  mode: 'all' | 'critical';
  first_subjects_per_site: number;
  updated_by: number;
  updated_at: Timestamp;
}

/** An export job (issue 16): what was asked, where it stands, and the finished file's facts. */
export interface DataExportsTable {
  id: Generated<number>;
  study_id: number;
  requested_by: number;
  format: string;
  /** The scope and options asked for (data-exports/export-formats.ts); written as a JSON string. */
  options: ColumnType<unknown, string, never>;
  /** The values of the definition's personal-data items are withheld from the file (issue 47). */
  mask_personal_data: ColumnType<boolean, boolean | undefined, never>;
  state: 'queued' | 'running' | 'done' | 'failed' | 'cancelled';
  values_total: number | null;
  values_done: Generated<number>;
  subjects_done: Generated<number>;
  error: string | null;
  created_at: CreatedAt;
  started_at: NullableTimestamp;
  heartbeat_at: NullableTimestamp;
  finished_at: NullableTimestamp;
  runner: string | null;
  file_name: string | null;
  content_type: string | null;
  byte_size: number | null;
  sha256: string | null;
}
export type DataExportRow = Selectable<DataExportsTable>;

/** A finished (or being written) export's bytes, in order; at most about 1 MB a row. */
export interface DataExportChunksTable {
  export_id: number;
  seq: number;
  bytes: Uint8Array;
}

/** A site's normal range of one lab test (issue 17), in force from a date; retired ranges are never applied. */
export interface LabRangesTable {
  id: Generated<number>;
  study_id: number;
  site_id: number;
  test_key: string;
  unit: string;
  low: number | null;
  high: number | null;
  sex: 'M' | 'F' | null;
  age_min: number | null;
  age_max: number | null;
  effective_from: string;
  created_by: number;
  created_at: CreatedAt;
  updated_by: number;
  updated_at: Timestamp;
  retired_at: NullableTimestamp;
}

type OptionalText = ColumnType<string | null, string | null | undefined, string | null>;

/** Issue 18: the notification outbox and alarm log (migration 2026-11-27T1600). */
export interface NotificationsTable {
  id: Generated<number>;
  study_id: number | null;
  site_id: number | null;
  event_type: string;
  channel: 'email' | 'sms';
  recipient_user_id: number | null;
  recipient_address: string;
  /** As sent, in the recipient's language. */
  subject: string;
  /** The subject in both languages ({ko, en}) for the alarm log's reader; null on rows older than it. */
  subject_texts: ColumnType<{ ko: string; en: string } | null, string | null | undefined, string | null>;
  body: string;
  status: Generated<'queued' | 'sending' | 'sent' | 'failed' | 'not_sent'>;
  attempts: Generated<number>;
  next_attempt_at: ColumnType<Date, Date | string | undefined, Date | string>;
  claimed_by: OptionalText;
  claimed_at: NullableTimestamp;
  /** What a mail server answered, as it came. */
  last_error: OptionalText;
  /** A reason CDMS gives itself (delivery-failure-reasons.ts), rendered in the reader's language. */
  last_error_code: OptionalText;
  dedupe_key: OptionalText;
  created_at: CreatedAt;
  sent_at: NullableTimestamp;
}
export type NotificationRow = Selectable<NotificationsTable>;

export interface NotificationPreferencesTable {
  user_id: number;
  event_type: string;
  email: boolean;
}

/** Issue 18 item 5: a training module of a study (migration 2026-11-28T1100). */
export interface TrainingModulesTable {
  id: Generated<number>;
  study_id: number;
  title: string;
  content_html: string;
  roles: ColumnType<Role[], Role[], Role[]>;
  /** The quiz with its answers (jsonb), written as JSON text. */
  quiz: ColumnType<TrainingQuiz | null, string | null, string | null>;
  version: Generated<number>;
  state: 'draft' | 'published';
  published_at: NullableTimestamp;
  created_by: number;
  created_at: CreatedAt;
  updated_by: number;
  updated_at: Timestamp;
}
export type TrainingModuleRow = Selectable<TrainingModulesTable>;

/** One user's completion of one module at one version (quiz score in percent, if it had one). */
export interface TrainingCompletionsTable {
  id: Generated<number>;
  module_id: number;
  user_id: number;
  version: number;
  score: number | null;
  completed_at: CreatedAt;
}
/** Issue 18: files attached to study documents (migration 2026-11-28T1000). */
export interface AttachmentsTable {
  id: Generated<string>;
  study_id: number;
  owner_kind: OptionalText;
  owner_id: ColumnType<number | null, number | null | undefined, number | null>;
  file_name: string;
  content_type: string;
  size: number;
  sha256: string;
  uploaded_by: number;
  created_at: CreatedAt;
}

/** Issue 43: an attachment's bytes in order, by its content's SHA-256 (migration 2026-12-06T1100). */
export interface AttachmentChunksTable {
  sha256: string;
  seq: number;
  bytes: Uint8Array;
}

/** Issue 19: eardrum photographs of a subject's form (migration 2026-11-29T1100). */
export interface FormPhotosTable {
  id: Generated<number>;
  study_id: number;
  subject_id: number;
  visit_key: string;
  form_key: string;
  content_type: string;
  width: number;
  height: number;
  size: number;
  sha256: string;
  bytes: Uint8Array;
  source_type: 'jpeg' | 'png' | 'heic';
  uploaded_by: number;
  created_at: CreatedAt;
}

/** Issue 18: study guidelines (migration 2026-11-28T1010). */
export interface GuidelinesTable {
  id: Generated<number>;
  study_id: number;
  guide_type: 'protocol' | 'crf_guideline' | 'lab_manual' | 'other';
  title: string;
  content_html: string;
  version: string;
  effective_date: string;
  alarm_start: string | null;
  alarm_end: string | null;
  state: Generated<'draft' | 'published' | 'retired'>;
  supersedes_id: number | null;
  author_user_id: number;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
  published_at: NullableTimestamp;
  retired_at: NullableTimestamp;
}
export type GuidelineRow = Selectable<GuidelinesTable>;

/** Issue 18: task notices (migration 2026-11-28T1020). */
export interface TaskNoticesTable {
  id: Generated<number>;
  study_id: number;
  alarm_type: 'general' | 'schedule' | 'safety' | 'data_entry' | 'training';
  title: string;
  content: string;
  roles: ColumnType<string[], string, string>;
  site_ids: ColumnType<number[], string, string>;
  period_start: string;
  period_end: string;
  email: boolean;
  sms: boolean;
  enqueued_at: NullableTimestamp;
  recipient_count: number | null;
  author_user_id: number;
  created_at: CreatedAt;
}
export type TaskNoticeRow = Selectable<TaskNoticesTable>;

/**
 * An unscheduled visit of a subject (issue 19 item 1): its data are under the visit key
 * `unscheduled-<repeat_key>`; deleted ones keep their row so a repeat key is never reused.
 */
export interface UnscheduledVisitsTable {
  id: Generated<number>;
  study_id: number;
  subject_id: number;
  repeat_key: number;
  /** 'YYYY-MM-DD'. */
  visit_date: string;
  reason: string;
  created_by: number;
  created_at: CreatedAt;
  deleted_by: number | null;
  deleted_at: NullableTimestamp;
  deletion_reason: string | null;
}
export type UnscheduledVisitRow = Selectable<UnscheduledVisitsTable>;

/** Central monitoring (issue 50): a study's quality tolerance limit of one indicator (migration 2026-12-07T2300). */
export interface MonitoringLimitsTable {
  study_id: number;
  key: string;
  warning: number;
  limit: number;
  direction: 'high' | 'low';
  minimum_denominator: number;
  updated_by: number;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** A study's monitoring run: one row per study, claimed with a lease (central-monitoring/run-monitoring-turn.ts). */
export interface MonitoringRunsTable {
  study_id: number;
  state: 'queued' | 'running' | 'done' | 'failed';
  queued_at: ColumnType<Date, Date | string | undefined, Date | string>;
  requested_by: number | null;
  started_at: NullableTimestamp;
  finished_at: NullableTimestamp;
  lease_until: NullableTimestamp;
  progress_done: ColumnType<number, number | undefined, number>;
  progress_total: ColumnType<number, number | undefined, number>;
  /** The study's newest audit record id when the run started (bigint: read as a string on PostgreSQL). */
  data_mark: ColumnType<string | number, string | number | undefined, string | number>;
  error: string | null;
}

/** Each day's last run's value of one indicator at one site (site_id 0: the whole study). */
export interface MonitoringIndicatorDaysTable {
  study_id: number;
  site_id: number;
  key: string;
  day: string;
  value: number | null;
  numerator: number;
  denominator: number;
  subjects: ColumnType<number, number | undefined, number>;
}

/** A statistical signal, kept across runs by its fingerprint (central-monitoring/store-signals.ts). */
export interface MonitoringSignalsTable {
  id: Generated<number>;
  study_id: number;
  site_id: number;
  fingerprint: string;
  kind: string;
  strength: number;
  active: ColumnType<boolean, boolean | undefined, boolean>;
  state: ColumnType<
    'open' | 'queried' | 'noted' | 'dismissed',
    'open' | 'queried' | 'noted' | 'dismissed' | undefined,
    'open' | 'queried' | 'noted' | 'dismissed'
  >;
  title: ColumnType<{ ko: string; en: string }, string, string>;
  explanation: ColumnType<{ ko: string; en: string }, string, string>;
  items: ColumnType<unknown, string, string>;
  subjects: ColumnType<unknown, string, string>;
  numbers: ColumnType<Record<string, number>, string, string>;
  chart: ColumnType<unknown, string, string>;
  resolution: ColumnType<unknown, string | null | undefined, string | null>;
  found_at: ColumnType<Date, Date | string | undefined, Date | string>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** A study's loaded coding dictionary version (issue 51, coding/): one active per kind. */
export interface CodingDictionariesTable {
  id: Generated<number>;
  study_id: number;
  kind: 'meddra' | 'whodrug';
  version: string;
  file_name: string;
  term_count: number;
  active: Generated<boolean>;
  loaded_by: number;
  loaded_at: Timestamp;
}
/** A dictionary term flattened for search: an LLT (its primary path) or a drug name (its ATC codes). */
export interface CodingTermsTable {
  id: Generated<number>;
  dictionary_id: number;
  /** The LLT code, or the 11-digit drug code. */
  code: string;
  language: string;
  name: string;
  /** `normalizeVerbatim(name)`: exact matches and searches compare this. */
  name_norm: string;
  current: boolean;
  /** The term's path (contract `CodingPath`); written as a JSON string. */
  path: ColumnType<unknown, string, string>;
}
/** A study's synonym list entry: a verbatim (normalized) that codes to one code. */
export interface CodingSynonymsTable {
  study_id: number;
  kind: 'meddra' | 'whodrug';
  verbatim_norm: string;
  verbatim: string;
  code: string;
  loaded_by: number;
  loaded_at: Timestamp;
}
/** One verbatim occurrence (a row of the role's group in a form instance) and its code. */
export interface CodingAssignmentsTable {
  id: Generated<number>;
  study_id: number;
  site_id: number;
  subject_id: number;
  form_instance_id: number;
  visit_key: string;
  form_key: string;
  group_key: string;
  row_index: number;
  item_key: string;
  kind: 'meddra' | 'whodrug';
  verbatim: string;
  status: 'auto' | 'manual' | 'pending' | 'query';
  code: string | null;
  /** The code's path as coded (contract `CodingPath`); written as a JSON string. */
  path: ColumnType<unknown, string | null, string | null>;
  dictionary_id: number | null;
  coded_by: number | null;
  coded_at: NullableTimestamp;
  query_id: number | null;
  version: Generated<number>;
  updated_at: Timestamp;
}
export type CodingAssignmentRow = Selectable<CodingAssignmentsTable>;

/** Issue 51: an SAE report, one per serious adverse event (the row of the adverse events' group). */
export interface SaeReportsTable {
  id: Generated<number>;
  study_id: number;
  site_id: number;
  subject_id: number;
  visit_key: string;
  form_key: string;
  /** The event's row in the repeating group, 1-based. */
  event_number: number;
  /** The event's term as last saved on the form (the role's `term`; '' without one). */
  term: Generated<string>;
  status: Generated<'draft' | 'submitted' | 'acknowledged'>;
  awareness_at: Timestamp;
  /** awareness_at + 24 hours. */
  due_at: Timestamp;
  current_version: Generated<number>;
  row_version: Generated<number>;
  first_submitted_at: NullableTimestamp;
  created_at: CreatedAt;
}

/** One version of an SAE report: 1 the initial report, later ones follow-ups. */
export interface SaeReportVersionsTable {
  report_id: number;
  version: number;
  content: ColumnType<unknown, string, string>;
  saved_by: number | null;
  saved_at: Timestamp;
  submitted_by: number | null;
  submitted_name: string | null;
  submitted_at: NullableTimestamp;
  /** What the signature means, { ko, en }. */
  signature_meaning: ColumnType<unknown, string | null | undefined, string | null>;
  acknowledged_by: number | null;
  acknowledged_name: string | null;
  acknowledged_at: NullableTimestamp;
}
