import {
  type Action,
  type GuardedWrite,
  type HoldKind,
  holdCovers,
  type Role,
  refuseUnderHolds,
  type SiteSummary,
  type StudyMembership,
  type StudyStatus,
} from '@cdms/contract';
import { type Expression, type Kysely, sql } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import { compiledOnce } from '../db/compiled-once.ts';
import type { Database, SessionRow, UserRow } from '../db/schema.ts';
import {
  type AccessHolder,
  abilities,
  permissionMatrix,
  type SiteScope,
  type StudyAccess,
  siteScope,
} from './permissions.ts';

/** A study as the signed-in user sees it: their roles, their sites. */
export interface PrincipalStudy extends StudyAccess {
  code: string;
  title: string;
  /** The English title; empty when the study has none (the Korean one stands in). */
  titleEn: string;
  status: StudyStatus;
  /** The study's setting: site staff's data writes wait for their required training. */
  trainingGatesDataEntry: boolean;
  /**
   * The roles the study's current definition declares (`studies.design_roles`), without
   * `randomization` when the study was created with randomization off.
   */
  designRoles: readonly string[];
}

/**
 * Whether the study randomizes for this user: its design declares randomization and it was not created
 * with randomization off (both folded into `designRoles`). The one rule the dashboard, the summary and
 * the form's randomize button follow; the browser reads the same `designRoles` from `/api/auth/me`.
 */
export function studyRandomizes(
  principal: { studies: ReadonlyMap<number, PrincipalStudy> },
  studyId: number,
): boolean {
  return principal.studies.get(studyId)?.designRoles.includes('randomization') ?? false;
}

/** The signed-in user of a request: who they are, their session, what they may reach. */
export interface Principal extends AccessHolder {
  user: UserRow;
  session: SessionRow;
  studies: ReadonlyMap<number, PrincipalStudy>;
}

const siteRoles: readonly Role[] = ['PI', 'SI', 'CRC', 'CRA'];

/** The roles that see and build a study while it is in design. */
const designerRoles: readonly Role[] = permissionMatrix['study.design'];

/** The sites a role covers: the membership's sites for site roles, every site for DM and ADMIN. */
function scopeOf(role: Role, siteIds: readonly number[]): SiteScope {
  return siteRoles.includes(role) ? new Set(siteIds) : 'all';
}

/**
 * The study roles several users hold today in the given studies (user id → study id → roles with
 * their sites), in one query: for records that did not store the role they were written under.
 */
export async function loadStudyRoles(
  db: Kysely<Database>,
  userIds: readonly number[],
  studyIds: readonly number[],
): Promise<Map<number, Map<number, { roles: Map<Role, SiteScope> }>>> {
  const result = new Map<number, Map<number, { roles: Map<Role, SiteScope> }>>();
  if (userIds.length === 0 || studyIds.length === 0) return result;
  const rows = await db
    .selectFrom('memberships')
    .leftJoin('membership_sites', 'membership_sites.membership_id', 'memberships.id')
    .select(['memberships.user_id', 'memberships.study_id', 'memberships.role', 'membership_sites.site_id'])
    .where('memberships.user_id', 'in', [...userIds])
    .where('memberships.study_id', 'in', [...studyIds])
    .execute();
  const sites = new Map<string, { userId: number; studyId: number; role: Role; siteIds: number[] }>();
  for (const row of rows) {
    const key = `${row.user_id}|${row.study_id}|${row.role}`;
    const entry = sites.get(key) ?? {
      userId: row.user_id,
      studyId: row.study_id,
      role: row.role,
      siteIds: [],
    };
    if (row.site_id !== null) entry.siteIds.push(row.site_id);
    sites.set(key, entry);
  }
  for (const entry of sites.values()) {
    const studies = result.get(entry.userId) ?? new Map<number, { roles: Map<Role, SiteScope> }>();
    result.set(entry.userId, studies);
    const study = studies.get(entry.studyId) ?? { roles: new Map<Role, SiteScope>() };
    studies.set(entry.studyId, study);
    study.roles.set(entry.role, scopeOf(entry.role, entry.siteIds));
  }
  return result;
}

/**
 * A user's memberships with their site ids, for one user id (a value or a column of the outer query).
 * The studies' sites themselves are not read here: every request runs this, and only `/api/auth/me`
 * shows them (`studySitesOf`) — a data manager of 20 studies of 20 sites paid for 400 sites of JSON on
 * each request (issue 45 item 6).
 */
function membershipsOf(db: Kysely<Database>, userId: number | Expression<number>) {
  return db
    .selectFrom('memberships')
    .innerJoin('studies', 'studies.id', 'memberships.study_id')
    .select((inner) => [
      'memberships.id',
      'memberships.role',
      'memberships.study_id',
      'studies.code',
      'studies.title',
      'studies.title_en',
      'studies.status',
      'studies.training_gates_data_entry',
      'studies.design_roles',
      'studies.randomization_enabled',
      jsonArrayFrom(
        inner
          .selectFrom('membership_sites')
          .select('membership_sites.site_id')
          .whereRef('membership_sites.membership_id', '=', 'memberships.id'),
      ).as('membership_sites'),
    ])
    .where('memberships.user_id', '=', userId)
    .orderBy('studies.id');
}

type MembershipRow = Awaited<ReturnType<ReturnType<typeof membershipsOf>['execute']>>[number];

/** Loads a user's memberships with their sites in one query. */
export async function loadPrincipal(
  db: Kysely<Database>,
  user: UserRow,
  session: SessionRow,
): Promise<Principal> {
  const memberships = await membershipsOf(db, user.id).execute();
  return principalOf(user, session, memberships);
}

/** What a request's session cookie leads to, read in one statement (`loadSessionPrincipal`). */
export interface SessionPrincipal {
  principal: Principal;
  /** The system setting: ADMIN and DM must have a second factor (admin/two-factor-setting.ts). */
  secondFactorRequiredForAdminAndDm: boolean;
  /** The user has a confirmed second factor. */
  secondFactorConfirmed: boolean;
}

/**
 * `loadSessionPrincipal`'s statement: the session of a token hash with its user and what the gates
 * need. `top` starts the statement (it may carry a WITH clause); subqueries are built from `db`.
 */
function sessionPrincipalQuery(top: Kysely<Database>, db: Kysely<Database>, idHash: string) {
  return top
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .selectAll('users')
    .select((eb) => [
      // The session's columns under other names: the user's row keeps the plain ones.
      'sessions.id_hash as session_id_hash',
      'sessions.user_id as session_user_id',
      'sessions.csrf_token as session_csrf_token',
      'sessions.created_at as session_created_at',
      'sessions.last_seen_at as session_last_seen_at',
      'sessions.idle_expires_at as session_idle_expires_at',
      'sessions.absolute_expires_at as session_absolute_expires_at',
      'sessions.ip as session_ip',
      'sessions.user_agent as session_user_agent',
      jsonArrayFrom(membershipsOf(db, sql.ref<number>('users.id'))).as('memberships'),
      eb
        .selectFrom('system_settings')
        .select('system_settings.second_factor_required_for_admin_dm')
        .as('second_factor_required'),
      eb
        .exists(
          eb
            .selectFrom('user_second_factors')
            .select('user_second_factors.user_id')
            .whereRef('user_second_factors.user_id', '=', 'users.id')
            .where('user_second_factors.confirmed_at', 'is not', null),
        )
        .as('second_factor_confirmed'),
    ])
    .where('sessions.id_hash', '=', idHash);
}

/** Built once each (`compiledOnce`): every request runs one of them. */
const sessionPrincipalStatement = compiledOnce((db, params: { idHash: string }) =>
  sessionPrincipalQuery(db, db, params.idHash),
);

/**
 * The same for a write, which is activity: a data-modifying CTE pushes the session's idle expiry out
 * by the idle timeout (never past its absolute end) when the session is live, its account active and
 * the request carries the session's CSRF token — the conditions under which `authenticate` lets a
 * write through — and when that moves the expiry by more than `minimumGainSeconds`
 * (`SESSION_EXTENSION_STEP_SECONDS`; 0 when renewing). The tokens are compared as SHA-256
 * digests, so the comparison's time says nothing about the token. `extended_idle_expires_at` is
 * the new expiry, null when nothing was extended; the rest of the statement reads the session as
 * it was (one snapshot). A write had a statement of its own for this (issue 12: every round trip
 * costs both the server and PostgreSQL).
 */
const extendingSessionPrincipalStatement = compiledOnce(
  (
    db,
    params: { idHash: string; csrfToken: string; now: Date; idleSeconds: number; minimumGainSeconds: number },
  ) => {
    const extendedExpiry = sql<Date>`least(${params.now}::timestamptz + make_interval(secs => ${params.idleSeconds}), sessions.absolute_expires_at)`;
    const extending = db.with('extended', (cte) =>
      cte
        .updateTable('sessions')
        .set({ idle_expires_at: extendedExpiry, last_seen_at: params.now })
        .where('sessions.id_hash', '=', params.idHash)
        .where(
          sql<boolean>`sessions.idle_expires_at < ${extendedExpiry} - make_interval(secs => ${params.minimumGainSeconds})`,
        )
        .where('sessions.idle_expires_at', '>', params.now)
        .where('sessions.absolute_expires_at', '>', params.now)
        .where(
          sql<boolean>`sha256(convert_to(sessions.csrf_token, 'UTF8')) = sha256(convert_to(${params.csrfToken}, 'UTF8'))`,
        )
        .where(({ exists, selectFrom }) =>
          exists(
            selectFrom('users')
              .select('users.id')
              .whereRef('users.id', '=', 'sessions.user_id')
              .where('users.active', '=', true),
          ),
        )
        .returning('sessions.idle_expires_at'),
    );
    // The CTE is named in raw SQL only, so the statement goes on with the plain tables' types.
    return sessionPrincipalQuery(extending as unknown as Kysely<Database>, db, params.idHash).select(
      sql<Date | null>`(select extended.idle_expires_at from extended)`.as('extended_idle_expires_at'),
    );
  },
);

/**
 * The session of a token hash with its user, the user's memberships and what the second-factor
 * gate needs, in one statement: every authenticated request runs it, and on a busy server each
 * round trip costs both sides (issue 12). Expired sessions are returned too: the caller ends them.
 */
export async function loadSessionPrincipal(
  db: Kysely<Database>,
  idHash: string,
  /** A write's activity: extend the session's idle expiry in the same statement (see above). */
  extension?: { csrfToken: string; now: Date; idleSeconds: number; minimumGainSeconds: number },
): Promise<(SessionPrincipal & { extendedUntil: Date | null }) | undefined> {
  const [found] = extension
    ? await extendingSessionPrincipalStatement(db, { idHash, ...extension })
    : (await sessionPrincipalStatement(db, { idHash })).map((row) => ({
        ...row,
        extended_idle_expires_at: null,
      }));
  if (!found) return undefined;
  const { extended_idle_expires_at, ...row } = found;
  const {
    session_id_hash,
    session_user_id,
    session_csrf_token,
    session_created_at,
    session_last_seen_at,
    session_idle_expires_at,
    session_absolute_expires_at,
    session_ip,
    session_user_agent,
    memberships,
    second_factor_required,
    second_factor_confirmed,
    ...user
  } = row;
  const session: SessionRow = {
    id_hash: session_id_hash,
    user_id: session_user_id,
    csrf_token: session_csrf_token,
    created_at: session_created_at,
    last_seen_at: session_last_seen_at,
    idle_expires_at: session_idle_expires_at,
    absolute_expires_at: session_absolute_expires_at,
    ip: session_ip,
    user_agent: session_user_agent,
  };
  return {
    principal: principalOf(user, session, memberships),
    secondFactorRequiredForAdminAndDm: second_factor_required === true,
    secondFactorConfirmed: Boolean(second_factor_confirmed),
    extendedUntil: extended_idle_expires_at === null ? null : new Date(extended_idle_expires_at),
  };
}

function principalOf(user: UserRow, session: SessionRow, memberships: readonly MembershipRow[]): Principal {
  const studies = new Map<number, PrincipalStudy>();
  for (const membership of memberships) {
    // A study in design is its designers' alone: other members see it once it goes live (issue 45).
    if (membership.status === 'design' && !designerRoles.includes(membership.role)) continue;
    let study = studies.get(membership.study_id);
    if (!study) {
      study = {
        studyId: membership.study_id,
        code: membership.code,
        title: membership.title,
        titleEn: membership.title_en,
        status: membership.status,
        trainingGatesDataEntry: membership.training_gates_data_entry,
        // A study created without randomization lacks the feature as if its design had no
        // randomization role: the abilities (`presentMemberships`) and the menus follow.
        designRoles: membership.randomization_enabled
          ? membership.design_roles
          : membership.design_roles.filter((role) => role !== 'randomization'),
        roles: new Map<Role, SiteScope>(),
      };
      studies.set(membership.study_id, study);
    }
    const scope = scopeOf(
      membership.role,
      membership.membership_sites.map((row) => row.site_id),
    );
    (study.roles as Map<Role, SiteScope>).set(membership.role, scope);
  }
  return { user, session, studies };
}

/**
 * The sites the user covers in each of their studies (every site of the study when a role covers
 * all), by institution number, in one query: what `/api/auth/me` shows with the memberships.
 */
export async function studySitesOf(
  db: Kysely<Database>,
  principal: Principal,
): Promise<Map<number, SiteSummary[]>> {
  const studyIds = [...principal.studies.keys()];
  const sites = new Map<number, SiteSummary[]>(studyIds.map((id) => [id, []]));
  if (studyIds.length === 0) return sites;
  const rows = await db
    .selectFrom('sites')
    .select(['id', 'study_id', 'code', 'name', 'institution_number'])
    .where('study_id', 'in', studyIds)
    .orderBy('institution_number')
    .orderBy('id')
    .execute();
  for (const row of rows) {
    const scopes = [...(principal.studies.get(row.study_id)?.roles.values() ?? [])];
    const covered = scopes.some((scope) => scope === 'all' || scope.has(row.id));
    if (covered)
      sites.get(row.study_id)?.push({
        id: row.id,
        code: row.code,
        name: row.name,
        institutionNumber: row.institution_number,
      });
  }
  return sites;
}

/** The membership abilities that are writes a freeze or lock can refuse, each with its write (lock-rules.ts). */
const guardedWriteOfAction: Partial<Record<Action, GuardedWrite>> = {
  'subject.write': 'subject.create',
  'subject.delete': 'subject.delete',
  'subject.randomize': 'subject.randomize',
  'casebook.sign': 'casebook.sign',
  'query.open': 'query.open',
  'query.answer': 'query.answer',
  'query.manage': 'query.manage',
  'sdv.mark': 'sdv.mark',
};

/**
 * The abilities that need a feature of the study's design: without the role (issue 45 item 3) the
 * study has no randomization, no lab ranges to keep, no casebook signature, and the browser is not
 * offered them. (The commands refuse them on their own: there is nothing to act on.)
 */
const designRoleOfAction: Partial<Record<Action, string>> = {
  'subject.randomize': 'randomization',
  'randomization.manage': 'randomization',
  'lab.manage': 'labPanel',
  'casebook.sign': 'signing',
};

/** A freeze or lock of a whole study or site in force: what can take a membership's ability away. */
export interface StudyOrSiteHold {
  studyId: number;
  /** Null for the study's own hold. */
  siteId: number | null;
  kind: HoldKind;
  level: 'study' | 'site';
}

/**
 * The memberships part of GET /api/auth/me. An ability is what the user may do somewhere in the study
 * (issue 43 item 14): a write a hold can refuse counts only while one of the sites the role covers for it
 * is held neither by its own freeze or lock nor by the study's — so a study lock takes "add subject" off
 * the subject list, as the server would refuse it.
 */
export function presentMemberships(
  principal: Principal,
  studySites: ReadonlyMap<number, SiteSummary[]>,
  holds: readonly StudyOrSiteHold[] = [],
): StudyMembership[] {
  return [...principal.studies.values()].map((study) => {
    const sites = studySites.get(study.studyId) ?? [];
    const studyHolds = holds.filter((hold) => hold.studyId === study.studyId);
    const heldAtEverySite = (action: Action): boolean => {
      const write = guardedWriteOfAction[action];
      if (!write || studyHolds.length === 0) return false;
      const scope = siteScope(principal, action, study.studyId);
      const siteIds = scope === 'all' ? sites.map((site) => site.id) : [...scope];
      return siteIds.every(
        (siteId) =>
          refuseUnderHolds(
            write,
            studyHolds.filter((hold) => holdCovers(hold, { siteId })),
          ) !== null,
      );
    };
    return {
      studyId: study.studyId,
      studyCode: study.code,
      studyTitle: study.title,
      studyTitleEn: study.titleEn,
      studyStatus: study.status,
      roles: [...study.roles.keys()],
      sites,
      abilities: abilities(principal, study.studyId).filter((action) => {
        const role = designRoleOfAction[action];
        return !heldAtEverySite(action) && (role === undefined || study.designRoles.includes(role));
      }),
      designRoles: [...study.designRoles],
    };
  });
}
