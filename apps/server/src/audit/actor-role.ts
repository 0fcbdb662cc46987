import { type Role, roles } from '@cdms/contract';
import type { StudyRoles } from './audit-events.ts';

/**
 * The role an audit record names for its actor: the study roles the person holds in the record's
 * study that cover the record's site (every role of the study when the record names no site), in
 * the contract's order, joined by commas ("CRC", "PI,SI"). Null without a study or such a role.
 * Used when a record is written (from the request's principal) and when an older record without a
 * stored role is shown (from the memberships).
 */
export function actorRoleIn(
  studyRoles: StudyRoles | undefined,
  studyId: number | null | undefined,
  siteId: number | null | undefined,
): string | null {
  if (studyId === null || studyId === undefined) return null;
  const held = studyRoles?.get(studyId)?.roles;
  if (!held) return null;
  const covering = roles.filter((role: Role) => {
    const sites = held.get(role);
    if (sites === undefined) return false;
    return siteId === null || siteId === undefined || sites === 'all' || sites.has(siteId);
  });
  return covering.length > 0 ? covering.join(',') : null;
}
