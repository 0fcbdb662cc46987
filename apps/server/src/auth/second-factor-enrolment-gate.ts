import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Principal } from './principal.ts';
import { readTwoFactorSetting } from './two-factor-setting.ts';

/**
 * The routes a signed-in user who must enrol a second factor may still call: who am I, sign out, keep
 * the session alive, and enrolment itself. Every other route answers 403
 * second_factor_enrolment_required (authenticate.ts) until the enrolment is confirmed.
 */
const ALLOWED_BEFORE_ENROLMENT = new Set([
  'GET /api/auth/me',
  'POST /api/auth/logout',
  'POST /api/auth/renew',
  'POST /api/auth/second-factor/enrolment',
  'POST /api/auth/second-factor/enrolment/confirm',
]);

export function allowedBeforeEnrolment(method: string, routeUrl: string | undefined): boolean {
  return ALLOWED_BEFORE_ENROLMENT.has(`${method} ${routeUrl ?? ''}`);
}

/** Whether the user's role falls under the setting: a system administrator, or ADMIN or DM in any study. */
export function holdsRoleThatMayRequireSecondFactor(principal: Principal): boolean {
  if (principal.user.is_admin) return true;
  return [...principal.studies.values()].some((study) => study.roles.has('ADMIN') || study.roles.has('DM'));
}

/** Whether the system setting requires this user to have a second factor. */
export async function secondFactorRequiredFor(db: Kysely<Database>, principal: Principal): Promise<boolean> {
  if (!holdsRoleThatMayRequireSecondFactor(principal)) return false;
  return (await readTwoFactorSetting(db)).requiredForAdminAndDm;
}

/**
 * Required for the user and not yet confirmed: the session is held to enrolment. The setting and the
 * user's factor come with the session's own statement (principal.ts `loadSessionPrincipal`).
 */
export function secondFactorEnrolmentRequired(
  principal: Principal,
  known: { secondFactorRequiredForAdminAndDm: boolean; secondFactorConfirmed: boolean },
): boolean {
  if (!holdsRoleThatMayRequireSecondFactor(principal)) return false;
  return known.secondFactorRequiredForAdminAndDm && !known.secondFactorConfirmed;
}
