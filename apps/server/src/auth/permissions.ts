import type { Action, Role } from '@cdms/contract';
import { actions } from '@cdms/contract';

/**
 * The permission matrix of product.md, the one place it is written. Every route asks `can`; the
 * browser receives the result as each membership's `abilities` and never decides for itself.
 */
export const permissionMatrix: Record<Action, readonly Role[]> = {
  // The sponsor's desks (issue 51) read the data they code, assess or analyse, and never write it.
  'subject.read': ['PI', 'SI', 'CRC', 'CRA', 'DM', 'ADMIN', 'CODER', 'SAFETY', 'UNBLINDED'],
  'subject.write': ['PI', 'SI', 'CRC'],
  // The issue names PI and CRC: deleting a subject registered in error (only one without data).
  'subject.delete': ['PI', 'CRC'],
  'subject.randomize': ['PI', 'SI', 'CRC'],
  'casebook.sign': ['PI'],
  'query.open': ['CRA', 'DM'],
  'query.answer': ['PI', 'SI', 'CRC'],
  'query.manage': ['CRA', 'DM'],
  'sdv.mark': ['CRA'],
  // The issue names DM and ADMIN as the keepers of the targeted SDV plan.
  'sdv.plan': ['DM', 'ADMIN'],
  'freeze.manage': ['CRA', 'DM'],
  'lock.manage': ['DM'],
  'notice.write': ['CRA', 'DM', 'ADMIN'],
  'data.export': ['DM', 'ADMIN'],
  'study.administer': ['ADMIN'],
  // Issue 45: a study's design (its definition document) is built by data management and administrators.
  'study.design': ['DM', 'ADMIN'],
  // The issue names ADMIN and DM as the keepers of the allocation list.
  'randomization.manage': ['DM', 'ADMIN'],
  // Reports read subject data, so everyone who reads it may read them, each over their own sites
  // (`siteScope`): monitors and data management review the study with them, and the site staff chase
  // their own missing forms, deviations and adverse events (product.md: read within scope, every role).
  'report.read': ['PI', 'SI', 'CRC', 'CRA', 'DM', 'ADMIN', 'SAFETY', 'UNBLINDED'],
  // Issue 17: normal ranges are study set-up kept by data management (DM, ADMIN); every member reads them.
  'lab.manage': ['DM', 'ADMIN'],
  // Issue 17: each site's enrollment target is study planning, kept by data management.
  'enrollment.plan': ['DM', 'ADMIN'],
  // Issue 18: the alarm log is in the CRA menu; it names recipients and addresses of site staff, so
  // it is for those who run the study (monitors over their sites, data management, administrators).
  'alarm_log.read': ['CRA', 'DM', 'ADMIN'],
  // Issue 18 item 5: training modules, the completion matrix and the training gate are kept by DM and ADMIN.
  'training.manage': ['DM', 'ADMIN'],
  // Issue 43 item 11: aggregate efficacy by arm (the summary's outcomes and key measures split by group) is
  // not a subject's assigned group. Knowing one subject's group (the study's group-visibility setting:
  // site staff of an open-label device trial) does not unblind the trial; comparing the arms' outcomes
  // while it runs does. Data management and the unblinded desk (statistician, DMC; issue 51) read it;
  // monitors and site staff never, whatever the setting.
  'summary.by_group': ['DM', 'UNBLINDED'],
  // Issue 50 item 4: review listings are the data review of monitors (over their sites) and data
  // management (REDCap's and OpenClinica's data managers ask for it); marking rows reviewed is theirs.
  'review.mark': ['CRA', 'DM'],
  // Issue 50: central monitoring's signals (read, turned into queries, notes or dismissed) and runs
  // are for those who monitor the study: CRA over their sites, DM and ADMIN over all. Site staff read
  // their own sites' indicators only (`subject.read`).
  'monitoring.review': ['CRA', 'DM', 'ADMIN'],
  // Issue 50: the quality tolerance limits are study set-up kept by data management.
  'monitoring.limits': ['DM', 'ADMIN'],
  // Issue 51 item 1: the site starts and writes an SAE report (the event's seriousness starts it); only
  // the PI submits it, with an e-signature; the sponsor's safety desk acknowledges. Reading a report is
  // for everyone who handles it: the site, its monitor, data management, the safety desk.
  'sae.report': ['PI', 'SI', 'CRC'],
  'sae.submit': ['PI'],
  'sae.acknowledge': ['SAFETY'],
  'sae.read': ['PI', 'SI', 'CRC', 'CRA', 'DM', 'ADMIN', 'SAFETY'],
  // Issue 51 item 2: coders code verbatim terms; the sponsor's licensed dictionaries are loaded by its
  // coders and administrators.
  'coding.code': ['CODER'],
  'coding.dictionaries': ['CODER', 'ADMIN'],
  // Issue 51 item 3: only the investigator breaks the blind of one subject, in an emergency.
  'blind.break': ['PI'],
  // Issue 51 item 3: who knows a subject's assigned group whatever the study's blinding: the unblinded
  // desk (statistician, pharmacist, DMC). Other roles know it only where the study's blinding lets them
  // (randomization/may-know-group.ts) or for a subject whose blind was broken.
  'group.read': ['UNBLINDED'],
};

/** The sites a role covers in a study: a list for site roles, every site for DM and ADMIN. */
export type SiteScope = 'all' | ReadonlySet<number>;

export interface StudyAccess {
  studyId: number;
  /** Each role the user holds in the study, with the sites it covers. */
  roles: ReadonlyMap<Role, SiteScope>;
}

export interface AccessHolder {
  studies: ReadonlyMap<number, StudyAccess>;
}

export interface Scope {
  studyId: number;
  /** The site of the record acted on; omitted for study-wide actions. */
  siteId?: number;
}

/** May this user do `action` in this study (and at this site, when one is given)? */
export function can(holder: AccessHolder, action: Action, scope: Scope): boolean {
  const access = holder.studies.get(scope.studyId);
  if (!access) return false;
  for (const [role, sites] of access.roles) {
    if (!permissionMatrix[action].includes(role)) continue;
    if (scope.siteId === undefined || sites === 'all' || sites.has(scope.siteId)) return true;
  }
  return false;
}

/**
 * The sites where the user may do `action` in the study: the union over the roles that grant it.
 * Every query that lists or reads subject data filters by this.
 */
export function siteScope(holder: AccessHolder, action: Action, studyId: number): SiteScope {
  const access = holder.studies.get(studyId);
  const sites = new Set<number>();
  if (!access) return sites;
  for (const [role, roleSites] of access.roles) {
    if (!permissionMatrix[action].includes(role)) continue;
    if (roleSites === 'all') return 'all';
    for (const site of roleSites) sites.add(site);
  }
  return sites;
}

/** Every action the user holds somewhere in the study (sent to the browser as abilities). */
export function abilities(holder: AccessHolder, studyId: number): Action[] {
  return actions.filter((action) => can(holder, action, { studyId }));
}
