import type { Role, SiteSummary, StudyMembership } from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { Database, SessionRow, UserRow } from '../db/schema.ts';
import { type AccessHolder, abilities, type SiteScope, type StudyAccess } from './permissions.ts';

/** A study as the signed-in user sees it: their roles, their sites. */
export interface PrincipalStudy extends StudyAccess {
  code: string;
  title: string;
  status: 'active' | 'ended';
  /** The sites the user covers in this study (every site when a role covers all). */
  sites: SiteSummary[];
}

/** The signed-in user of a request: who they are, their session, what they may reach. */
export interface Principal extends AccessHolder {
  user: UserRow;
  session: SessionRow;
  studies: ReadonlyMap<number, PrincipalStudy>;
}

const siteRoles: readonly Role[] = ['PI', 'SI', 'CRC', 'CRA'];

/** Loads a user's memberships with their sites, in two queries. */
export async function loadPrincipal(
  db: Kysely<Database>,
  user: UserRow,
  session: SessionRow,
): Promise<Principal> {
  const memberships = await db
    .selectFrom('memberships')
    .innerJoin('studies', 'studies.id', 'memberships.study_id')
    .select([
      'memberships.id',
      'memberships.role',
      'memberships.study_id',
      'studies.code',
      'studies.title',
      'studies.status',
    ])
    .where('memberships.user_id', '=', user.id)
    .orderBy('studies.id')
    .execute();
  const studyIds = [...new Set(memberships.map((membership) => membership.study_id))];
  const studySites =
    studyIds.length === 0
      ? []
      : await db
          .selectFrom('sites')
          .select(['id', 'study_id', 'code', 'name', 'institution_number'])
          .where('study_id', 'in', studyIds)
          .orderBy('institution_number')
          .execute();
  const membershipSites =
    memberships.length === 0
      ? []
      : await db
          .selectFrom('membership_sites')
          .select(['membership_id', 'site_id'])
          .where(
            'membership_id',
            'in',
            memberships.map((membership) => membership.id),
          )
          .execute();

  const studies = new Map<number, PrincipalStudy>();
  for (const membership of memberships) {
    let study = studies.get(membership.study_id);
    if (!study) {
      study = {
        studyId: membership.study_id,
        code: membership.code,
        title: membership.title,
        status: membership.status,
        roles: new Map<Role, SiteScope>(),
        sites: [],
      };
      studies.set(membership.study_id, study);
    }
    const scope: SiteScope = siteRoles.includes(membership.role)
      ? new Set(
          membershipSites.filter((row) => row.membership_id === membership.id).map((row) => row.site_id),
        )
      : 'all';
    (study.roles as Map<Role, SiteScope>).set(membership.role, scope);
  }
  for (const study of studies.values()) {
    const scopes = [...study.roles.values()];
    const covered = scopes.includes('all')
      ? null
      : new Set(scopes.flatMap((scope) => [...(scope as ReadonlySet<number>)]));
    study.sites = studySites
      .filter((site) => site.study_id === study.studyId && (covered === null || covered.has(site.id)))
      .map((site) => ({
        id: site.id,
        code: site.code,
        name: site.name,
        institutionNumber: site.institution_number,
      }));
  }
  return { user, session, studies };
}

/** The memberships part of GET /api/auth/me. */
export function presentMemberships(principal: Principal): StudyMembership[] {
  return [...principal.studies.values()].map((study) => ({
    studyId: study.studyId,
    studyCode: study.code,
    studyTitle: study.title,
    studyStatus: study.status,
    roles: [...study.roles.keys()],
    sites: study.sites,
    abilities: abilities(principal, study.studyId),
  }));
}
