/**
 * The study roles and actions as plain values, without zod: the web's signed-in shell reads them
 * (menus, abilities) before it needs any schema, and a module with no zod call stays out of the
 * zod chunk (the package has no side effects, so a bundler takes only the modules whose exports are
 * used). Their schemas are in roles.ts, which re-exports these.
 */
/**
 * Study roles (product.md "Who uses it"). A user holds one or more per study. Issue 51 added the
 * sponsor's three study-wide desks: CODER (medical coding), SAFETY (the safety desk that receives and
 * acknowledges SAE reports) and UNBLINDED (statistician, pharmacist or DMC: sees groups and results by arm).
 */
export const roles = ['PI', 'SI', 'CRC', 'CRA', 'DM', 'ADMIN', 'CODER', 'SAFETY', 'UNBLINDED'] as const;
export type Role = (typeof roles)[number];

/** Roles that work at particular sites; DM and ADMIN see every site of the study. */
export const siteScopedRoles: readonly Role[] = ['PI', 'SI', 'CRC', 'CRA'];

/** The menu set a role uses (prototype-spec §2: PI and CRA menus). */
export const menuTypeOfRole: Record<Role, 'PI' | 'CRA'> = {
  PI: 'PI',
  SI: 'PI',
  CRC: 'PI',
  CRA: 'CRA',
  DM: 'CRA',
  ADMIN: 'CRA',
  CODER: 'CRA',
  SAFETY: 'CRA',
  UNBLINDED: 'CRA',
};

/**
 * Everything a user may be allowed to do in a study (product.md permission matrix). The server
 * decides who may do which (apps/server/src/auth/permissions.ts) and sends each user the list of
 * actions they hold per study as "abilities"; the browser only reads that list.
 */
export const actions = [
  'subject.read',
  'subject.write',
  'subject.delete',
  'subject.randomize',
  'casebook.sign',
  'query.open',
  'query.answer',
  'query.manage',
  'sdv.mark',
  'sdv.plan',
  'freeze.manage',
  'lock.manage',
  'notice.write',
  'data.export',
  'study.administer',
  'study.design',
  'randomization.manage',
  'report.read',
  'lab.manage',
  'enrollment.plan',
  'alarm_log.read',
  'training.manage',
  'summary.by_group',
  'review.mark',
  'monitoring.review',
  'monitoring.limits',
  'sae.report',
  'sae.submit',
  'sae.acknowledge',
  'sae.read',
  'coding.code',
  'coding.dictionaries',
  'blind.break',
  'group.read',
] as const;
export type Action = (typeof actions)[number];
