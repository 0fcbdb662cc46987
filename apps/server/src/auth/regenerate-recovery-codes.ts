import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import type { Database, UserRow } from '../db/schema.ts';
import { replaceRecoveryCodes } from './recovery-codes.ts';
import { withPasswordAndCode } from './second-factor-reverification.ts';

/**
 * A fresh set of recovery codes (the old ones stop working at once), for a user who has used or lost
 * theirs. Password and a current app code required; the new codes are returned once.
 */
export async function regenerateRecoveryCodes(
  db: Kysely<Database>,
  user: UserRow,
  actor: AuditActor,
  answers: { password: string; code: string },
  now = new Date(),
): Promise<{ recoveryCodes: string[] }> {
  return withPasswordAndCode(
    db,
    user,
    actor,
    answers,
    (trx) => replaceRecoveryCodes(trx, actor, user.id, now, 'auth.second_factor_recovery_codes_regenerated'),
    now,
  );
}
