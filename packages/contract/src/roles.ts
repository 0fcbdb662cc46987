import { z } from 'zod';

/** Study roles (product.md "Who uses it"). A user holds one or more per study. */
export const roles = ['PI', 'SI', 'CRC', 'CRA', 'DM', 'ADMIN'] as const;
export const roleSchema = z.enum(roles);
export type Role = z.infer<typeof roleSchema>;

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
  'randomization.manage',
  'report.read',
  'lab.manage',
  'enrollment.plan',
  'alarm_log.read',
  'training.manage',
  'summary.by_group',
] as const;
export const actionSchema = z.enum(actions);
export type Action = z.infer<typeof actionSchema>;
