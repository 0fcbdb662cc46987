import type { GroupVisibleRole, Role } from '@cdms/contract';
import { groupVisibleRoleChoices } from '@cdms/contract';
import type { Kysely, Transaction } from 'kysely';
import { can, permissionMatrix } from '../auth/permissions.ts';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * The site staff who see an emergency-unblinded subject's group at that subject's site: its PI and
 * the people treating the subject with the PI. Not the monitor (CRA), who is the sponsor's.
 */
const unblindedSiteRoles: readonly Role[] = ['PI', 'SI', 'CRC'];

/** The study's blinding setting: the roles that may see groups (`studies.group_visible_roles`). */
export async function groupVisibleRolesOf(db: Db, studyId: number): Promise<GroupVisibleRole[]> {
  const study = await db
    .selectFrom('studies')
    .select('group_visible_roles')
    .where('id', '=', studyId)
    .executeTakeFirst();
  const listed = new Set(study?.group_visible_roles ?? []);
  return groupVisibleRoleChoices.filter((role) => listed.has(role));
}

/**
 * Whether the group may be written into the randomization form: every role that reads subjects may
 * know it. Form data goes out through many read-outs (the form, casebook PDF, ODM/CSV/XLSX exports,
 * review listings, the audit trail, reports), so a group that even one reader of the subject may not
 * know never enters the form: it stays in the allocation list, and the read-outs that carry a group
 * (the subject page, the randomize answer, the summary by arm) add it only for a reader who may know.
 */
export function everyReaderMayKnow(visibleRoles: readonly string[]): boolean {
  return permissionMatrix['subject.read'].every(
    (role) => role === 'UNBLINDED' || visibleRoles.includes(role),
  );
}

/**
 * Whether the reader may know every randomized subject's group in the study: the unblinded desk
 * (`group.read`) always, and any role the study lists in its blinding setting. Keeping the allocation
 * list (`randomization.manage`: DM, ADMIN) does not make one know groups: the list's status never
 * shows them (blinding/README.md).
 */
export function mayKnowAllGroups(
  principal: Principal,
  studyId: number,
  visibleRoles: readonly string[],
): boolean {
  if (can(principal, 'group.read', { studyId })) return true;
  const access = principal.studies.get(studyId);
  if (!access) return false;
  return [...access.roles.keys()].some((role) => visibleRoles.includes(role));
}

/**
 * The one decision of who may know a subject's group (issue 51: a user who may not know a group never
 * receives one through any route). Without a subject: the study-wide answer (`mayKnowAllGroups`).
 * With one: also its PI and site staff after its blind was broken (emergency unblinding).
 */
export async function mayKnowGroup(
  db: Db,
  principal: Principal,
  studyId: number,
  subject?: { id: number; site_id: number },
): Promise<boolean> {
  if (mayKnowAllGroups(principal, studyId, await groupVisibleRolesOf(db, studyId))) return true;
  if (!subject) return false;
  const access = principal.studies.get(studyId);
  const atSite = [...(access?.roles ?? [])].some(
    ([role, sites]) => unblindedSiteRoles.includes(role) && (sites === 'all' || sites.has(subject.site_id)),
  );
  if (!atSite) return false;
  const unblinding = await db
    .selectFrom('subject_unblindings')
    .select('id')
    .where('subject_id', '=', subject.id)
    .executeTakeFirst();
  return unblinding !== undefined;
}
