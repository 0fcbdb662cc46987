import type { AuditTrailFilter, AuditTrailRow, Role } from '@cdms/contract';
import type { StudyDefinition } from '@cdms/study';
import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import type { SiteScope } from '../auth/permissions.ts';
import type { Principal } from '../auth/principal.ts';
import { groupVisibleRolesOf, mayKnowAllGroups } from '../blinding/may-know-group.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { currentStudyDefinition } from '../studies/study-definitions.ts';
import { auditEventLabel } from './audit-event-labels.ts';
import { describeAuditEvent } from './describe-audit-event.ts';

/**
 * The shared part of the audit review read-outs (the page and the CSV): who may read the study's
 * trail and which records, the filters as SQL over `audit_events` and its indexes, and a record as a
 * row a person reads.
 */

/** The roles that review the trail; the site roles (PI, SI, CRC) do not. */
const reviewerRoles: readonly Role[] = ['CRA', 'DM', 'ADMIN'];

export interface AuditReviewContext {
  studyId: number;
  studyCode: string;
  /** 'all' for DM and ADMIN; the monitored sites for a CRA (plus the records that name no site). */
  scope: SiteScope;
  /** The sites the reader may pick in the filter, by code. */
  sites: { id: number; code: string }[];
  /**
   * Whether the reader may know randomization groups (blinding/may-know-group.ts). Records written
   * before issue 51 name the group in `subject.randomized`; for anyone else it is left out of the
   * record, and out of what the text search looks in.
   */
  mayKnowGroups: boolean;
}

/**
 * Members only (a stranger gets 404, as for any study they are not in), reviewers only (403). DM and
 * ADMIN read the whole study; a CRA the sites they monitor, since a monitor reviews their own sites.
 */
export async function auditReviewContext(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
): Promise<AuditReviewContext> {
  const study = principal.studies.get(studyId);
  if (!study) throw new AppError(404, 'not_found');
  let scope: SiteScope | null = null;
  for (const [role, sites] of study.roles) {
    if (!reviewerRoles.includes(role)) continue;
    if (sites === 'all') {
      scope = 'all';
      break;
    }
    scope = new Set([...(scope === null ? [] : (scope as ReadonlySet<number>)), ...sites]);
  }
  if (scope === null) throw new AppError(403, 'forbidden');
  let sitesQuery = db
    .selectFrom('sites')
    .select(['id', 'code'])
    .where('study_id', '=', studyId)
    .orderBy('code');
  if (scope !== 'all') sitesQuery = sitesQuery.where('id', 'in', [0, ...scope]);
  const mayKnowGroups = mayKnowAllGroups(principal, studyId, await groupVisibleRolesOf(db, studyId));
  return { studyId, studyCode: study.code, scope, sites: await sitesQuery.execute(), mayKnowGroups };
}

// The target of a record: item and form records name it in entity_id (`visit.form.item`, `visit.form`);
// queries, SDV and holds carry visitKey/formKey in after (or before). One expression per part, used
// both to filter and to show.
const visitKeyOf = sql<string | null>`(case when audit_events.entity_type in ('item', 'form')
  then split_part(audit_events.entity_id, '.', 1)
  else coalesce(audit_events.after->>'visitKey', audit_events.before->>'visitKey') end)`;
const formKeyOf = sql<string | null>`(case when audit_events.entity_type in ('item', 'form')
  then split_part(audit_events.entity_id, '.', 2)
  else coalesce(audit_events.after->>'formKey', audit_events.before->>'formKey') end)`;
const itemKeyOf = sql<string | null>`(case when audit_events.entity_type = 'item'
  then split_part(audit_events.entity_id, '.', 3)
  else coalesce(audit_events.after->>'itemKey', audit_events.after->>'itemPath', audit_events.before->>'itemPath') end)`;

/** A record's `after` as the reader may see it: a randomization's group only for who may know it. */
function afterShown(context: AuditReviewContext) {
  return context.mayKnowGroups
    ? sql<unknown>`audit_events.after`
    : sql<unknown>`(case when audit_events.event_type = 'subject.randomized'
        then audit_events.after - 'group' else audit_events.after end)`;
}

function startOfKoreaDay(date: string): Date {
  return new Date(`${date}T00:00:00+09:00`);
}

/** The study's records the reader may see, filtered. Every filter is a condition on one study. */
export function filteredAuditEvents(
  db: Kysely<Database>,
  context: AuditReviewContext,
  filter: AuditTrailFilter,
) {
  let query = db
    .selectFrom('audit_events')
    .leftJoin('users', 'users.id', 'audit_events.actor_user_id')
    .leftJoin('sites', 'sites.id', 'audit_events.site_id')
    .leftJoin('subjects', 'subjects.id', 'audit_events.subject_id')
    .select([
      'audit_events.id',
      'audit_events.occurred_at',
      'audit_events.event_type',
      'audit_events.actor_user_id',
      'audit_events.actor_label',
      'audit_events.actor_role',
      'audit_events.entity_type',
      'audit_events.entity_id',
      'audit_events.site_id',
      'audit_events.subject_id',
      'audit_events.before',
      afterShown(context).as('after'),
      'audit_events.reason',
      'users.name as user_name',
      'sites.code as site_code',
      'subjects.screening_number',
      visitKeyOf.as('visit_key'),
      formKeyOf.as('form_key'),
      itemKeyOf.as('item_key'),
    ])
    .where('audit_events.study_id', '=', context.studyId);
  if (context.scope !== 'all') {
    const sites = [...context.scope];
    query = query.where((eb) =>
      sites.length === 0
        ? eb('audit_events.site_id', 'is', null)
        : eb.or([eb('audit_events.site_id', 'is', null), eb('audit_events.site_id', 'in', sites)]),
    );
  }
  if (filter.siteId !== undefined) {
    if (!context.sites.some((site) => site.id === filter.siteId)) throw new AppError(404, 'not_found');
    query = query.where('audit_events.site_id', '=', filter.siteId);
  }
  if (filter.from) query = query.where('audit_events.occurred_at', '>=', startOfKoreaDay(filter.from));
  if (filter.to) {
    const end = startOfKoreaDay(filter.to);
    end.setUTCDate(end.getUTCDate() + 1);
    query = query.where('audit_events.occurred_at', '<', end);
  }
  if (filter.userId !== undefined) query = query.where('audit_events.actor_user_id', '=', filter.userId);
  if (filter.subjectId !== undefined) query = query.where('audit_events.subject_id', '=', filter.subjectId);
  if (filter.eventType) query = query.where('audit_events.event_type', '=', filter.eventType);
  // Roles are stored as "PI,SI": the role is one of the comma-separated names.
  if (filter.role)
    query = query.where(sql<boolean>`${filter.role} = any(string_to_array(audit_events.actor_role, ','))`);
  // The target filters ride on the index the other filters pick, (study_id, id) at least, and are
  // checked per record; entity_id alone would miss the queries and holds that carry their target in after.
  if (filter.visitKey) query = query.where(sql<boolean>`${visitKeyOf} = ${filter.visitKey}`);
  if (filter.formKey) query = query.where(sql<boolean>`${formKeyOf} = ${filter.formKey}`);
  if (filter.itemKey) query = query.where(sql<boolean>`${itemKeyOf} = ${filter.itemKey}`);
  // strpos, not LIKE: the search is plain text, `%` and `_` in it mean themselves. The text is at most
  // AUDIT_TEXT_MAX characters and the scan stays within the study and the other filters.
  const text = filter.text?.toLowerCase();
  if (text) {
    query = query.where(
      sql<boolean>`strpos(lower(concat_ws(' ', audit_events.actor_label, users.name, audit_events.entity_id,
        audit_events.reason, audit_events.before::text, ${afterShown(context)}::text)), ${text}) > 0`,
    );
  }
  return query;
}

type AuditQuery = ReturnType<typeof filteredAuditEvents>;
export type AuditEventWithNames =
  AuditQuery extends SelectQueryBuilder<Database, never, infer Row> ? Row : never;

export async function countAuditEvents(query: AuditQuery): Promise<number> {
  const row = await query
    .clearSelect()
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

const SUMMARY_MAX = 300;

function valueText(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/**
 * A before/after value as a short text: a record of one value (item changes) shows the value itself,
 * others their fields as `key: value`; long texts are cut, the CSV and page never carry a whole blob.
 */
export function summarizeAuditValue(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  let text: string;
  if (typeof value === 'object' && !Array.isArray(value)) {
    const entries = Object.entries(value as Record<string, unknown>);
    text =
      entries.length === 1 && entries[0]?.[0] === 'value'
        ? valueText(entries[0][1])
        : entries.map(([key, child]) => `${key}: ${valueText(child)}`).join(', ');
  } else text = valueText(value);
  return text.length > SUMMARY_MAX ? `${text.slice(0, SUMMARY_MAX - 1)}…` : text;
}

/**
 * The definition that names the visits, forms and items of these rows: read only when a row names
 * one (a page of logins needs none), once per page or CSV chunk; the parsed definition is cached.
 */
export async function definitionForRows(
  db: Kysely<Database>,
  studyId: number,
  rows: readonly AuditEventWithNames[],
): Promise<StudyDefinition | undefined> {
  if (!rows.some((row) => row.visit_key || row.form_key)) return undefined;
  return (await currentStudyDefinition(db, studyId))?.definition;
}

export function presentAuditEvent(
  row: AuditEventWithNames,
  definition: StudyDefinition | undefined,
): AuditTrailRow {
  const hasTarget = row.entity_type === 'item' || row.entity_type === 'form';
  return {
    ...describeAuditEvent(row, definition),
    id: Number(row.id),
    occurredAt: new Date(row.occurred_at).toISOString(),
    eventType: row.event_type,
    eventLabel: auditEventLabel(row.event_type),
    userId: row.actor_user_id,
    userName: row.user_name ?? row.actor_label,
    role: row.actor_role,
    siteId: row.site_id,
    siteCode: row.site_code,
    subjectId: row.subject_id,
    screeningNumber: row.screening_number,
    visitKey: row.visit_key || null,
    formKey: row.form_key || null,
    itemKey: row.item_key || null,
    target: hasTarget ? row.entity_type : [row.entity_type, row.entity_id].filter(Boolean).join(' '),
    before: summarizeAuditValue(row.before),
    after: summarizeAuditValue(row.after),
    reason: row.reason,
  };
}
