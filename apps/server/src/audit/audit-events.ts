import type { Role } from '@cdms/contract';

/**
 * Every kind of audit event, by name. A new kind of change gets a name here first, so the audit
 * review screens can list and translate them all.
 */
export const auditEventTypes = [
  'auth.login_succeeded',
  'auth.login_failed',
  'auth.account_locked',
  'auth.logout',
  'auth.password_changed',
  'auth.password_change_failed',
  'auth.contact_changed',
  'auth.second_factor_enrolment_started',
  'auth.second_factor_enrolled',
  'auth.second_factor_requested',
  'auth.second_factor_failed',
  'auth.second_factor_recovery_code_used',
  'auth.second_factor_recovery_codes_regenerated',
  'auth.second_factor_turned_off',
  'auth.second_factor_check_failed',
  'user.created',
  'user.updated',
  'user.password_reset',
  'user.second_factor_reset',
  'user.notification_preferences_changed',
  'system.settings_changed',
  'site.created',
  'site.updated',
  'site.enrollment_target_changed',
  'membership.created',
  'membership.updated',
  'membership.deleted',
  'study.created',
  'study.definition_published',
  'study.went_live',
  'study.design_draft_saved',
  'study.design_review_requested',
  'study.design_review_commented',
  'study.design_approved',
  'study.design_settings_changed',
  'study.amendment_opened',
  'study.amendment_changed',
  'study.amendment_discarded',
  'study.amendment_published',
  'study.migration_started',
  'subject.migrated',
  'notice.created',
  'notice.updated',
  'notice.deleted',
  'image.uploaded',
  'subject.created',
  'subject.deleted',
  'subjects.exported',
  'subject.status_changed',
  'subject.randomized',
  'randomization.list_created',
  'randomization.settings_changed',
  'subject.unblinded',
  'subject.unblinding_failed',
  'signature.signed',
  'signature.failed',
  'signature.invalidated',
  'data.item_changed',
  'data.form_reset',
  'visit.unscheduled_added',
  'visit.unscheduled_deleted',
  'query.opened',
  'query.answered',
  'query.commented',
  'query.closed',
  'query.cancelled',
  'query.reopened',
  'queries.exported',
  'report.exported',
  'odm.exported',
  'tables.exported',
  'audit.exported',
  'casebook.exported',
  'data_export.started',
  'data_export.finished',
  'data_export.failed',
  'data_export.cancelled',
  'data_export.downloaded',
  'comment.added',
  'hold.placed',
  'hold.lifted',
  'sdv.verified',
  'sdv.unverified',
  'sdv.reset',
  'sdv.plan_changed',
  'review.marked',
  'review.queries_raised',
  'review_listing.exported',
  'lab_range.created',
  'lab_range.updated',
  'lab_range.retired',
  'lab_results.exported',
  'alarm_log.exported',
  'training_module.created',
  'training_module.updated',
  'training.completed',
  'training.quiz_failed',
  'training.certificate_exported',
  'training.record_exported',
  'training.matrix_exported',
  'training.settings_changed',
  'attachment.uploaded',
  'attachment.downloaded',
  'form_photo.uploaded',
  'form_photo.viewed',
  'guideline.created',
  'guideline.updated',
  'guideline.published',
  'guideline.retired',
  'guideline.revised',
  'guideline.deleted',
  'task_notice.created',
  'task_notice.sent',
  'monitoring.limits_changed',
  'monitoring.signal_queried',
  'monitoring.signal_noted',
  'monitoring.signal_dismissed',
  'coding.auto_coded',
  'coding.queued',
  'coding.removed',
  'coding.coded',
  'coding.query_sent',
  'coding.dictionary_loaded',
  'coding.synonyms_loaded',
  'coding.dictionary_upgraded',
  'coding.recoded',
  'sae.started',
  'sae.draft_saved',
  'sae.awareness_changed',
  'sae.submitted',
  'sae.signature_failed',
  'sae.follow_up_started',
  'sae.acknowledged',
  'sae.exported',
] as const;

export type AuditEventType = (typeof auditEventTypes)[number];

/** Who did it and from where; every command receives this with its request. */
export interface AuditActor {
  userId: number | null;
  /** The actor as a person reads it: the account email, or what was typed at a failed login. */
  label: string;
  ip: string;
  requestId: string;
  /**
   * The study roles the actor holds (a principal's `studies`): a record of a study names the role
   * its actor held there at the time (`actor-role.ts`). None for the system and for sign-in events.
   */
  studyRoles?: StudyRoles;
}

/** Study id → the roles held in it, each with the sites it covers ('all' for study-wide roles). */
export type StudyRoles = ReadonlyMap<number, { roles: ReadonlyMap<Role, 'all' | ReadonlySet<number>> }>;

export interface AuditEventInput {
  type: AuditEventType;
  entityType:
    | 'user'
    | 'session'
    | 'study'
    | 'site'
    | 'membership'
    | 'study_definition'
    | 'study_design_draft'
    | 'study_amendment'
    | 'study_design_review'
    | 'notice'
    | 'image'
    | 'subject'
    | 'item'
    | 'form'
    | 'visit'
    | 'query'
    | 'comment'
    | 'randomization'
    | 'signature'
    | 'hold'
    | 'sdv_plan'
    | 'lab_range'
    | 'training_module'
    | 'data_export'
    | 'attachment'
    | 'form_photo'
    | 'guideline'
    | 'task_notice'
    | 'monitoring_signal'
    | 'monitoring_limits'
    | 'coding_assignment'
    | 'coding_dictionary'
    | 'sae_report'
    | 'system';
  entityId?: string | number | null;
  studyId?: number | null;
  siteId?: number | null;
  subjectId?: number | null;
  before?: unknown;
  after?: unknown;
  reason?: string | null;
}

/** The system itself (seed, migrations, CLI without a user). */
export function systemActor(label = 'system'): AuditActor {
  return { userId: null, label, ip: '', requestId: '' };
}
