import { z } from 'zod';
import { actions, roles } from './role-names.ts';

export { type Action, actions, menuTypeOfRole, type Role, roles, siteScopedRoles } from './role-names.ts';

export const roleSchema = z.enum(roles);
export const actionSchema = z.enum(actions);
