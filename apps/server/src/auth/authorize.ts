import type { Action } from '@cdms/contract';
import { AppError } from '../http/errors.ts';
import { can, type Scope } from './permissions.ts';
import type { Principal } from './principal.ts';

/**
 * The one authorization check (issue 44 item 3): outside a study nothing of it exists for the caller
 * (404, whether or not the study does), and inside it the permission matrix must allow the action at
 * the scope (403). `'member'` asks only for the membership. Routes declare their access
 * (`config.access`, enforced by `route-access.ts`); a command whose scope depends on what it loads —
 * the site of a subject or of a range — calls this itself.
 */
export function authorize(principal: Principal, action: Action | 'member', scope: Scope): void {
  if (!principal.studies.has(scope.studyId)) throw new AppError(404, 'not_found');
  if (action !== 'member' && !can(principal, action, scope)) throw new AppError(403, 'forbidden');
}
