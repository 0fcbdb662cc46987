import { type Role, type SiteSummary, siteScopedRoles } from '@cdms/contract';

/** PI, SI, CRC and CRA work at named sites; DM and ADMIN see every site and name none (the server's rule). */
export function roleNeedsSites(role: Role): boolean {
  return siteScopedRoles.includes(role);
}

/** The codes of the given sites, in the study's site order; an id the study no longer has is skipped. */
export function siteCodes(siteIds: readonly number[], sites: readonly SiteSummary[]): string[] {
  const chosen = new Set(siteIds);
  return sites.filter((site) => chosen.has(site.id)).map((site) => site.code);
}

/**
 * The form's site-choice error, before asking the server: a site role needs at least one site.
 * (A DM/ADMIN role never sends sites, so it cannot break the opposite rule.)
 */
export function siteChoiceError(
  role: Role,
  siteIds: readonly number[],
): 'validation.sitesRequired' | undefined {
  return roleNeedsSites(role) && siteIds.length === 0 ? 'validation.sitesRequired' : undefined;
}
