import type { Kysely, Transaction } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';

type Executor = Kysely<Database> | Transaction<Database>;

export interface TwoFactorSetting {
  /** System administrators and holders of ADMIN or DM in any study must have a second factor. */
  requiredForAdminAndDm: boolean;
}

/** The current setting (the one row of system_settings, made by its migration). */
export async function readTwoFactorSetting(executor: Executor): Promise<TwoFactorSetting> {
  const row = await executor
    .selectFrom('system_settings')
    .select('second_factor_required_for_admin_dm')
    .executeTakeFirstOrThrow();
  return { requiredForAdminAndDm: row.second_factor_required_for_admin_dm };
}

/**
 * A system administrator turns the requirement on or off. Audited with before and after; an unchanged
 * value writes nothing. Turning it on signs nobody out: the next request of an affected user without a
 * factor is held to enrolment (auth/second-factor-enrolment-gate.ts).
 */
export async function updateTwoFactorSetting(
  db: Kysely<Database>,
  actor: AuditActor,
  setting: TwoFactorSetting,
  now = new Date(),
): Promise<TwoFactorSetting> {
  return inTransaction(db, async (trx) => {
    const before = await trx
      .selectFrom('system_settings')
      .select('second_factor_required_for_admin_dm')
      .forUpdate()
      .executeTakeFirstOrThrow();
    if (before.second_factor_required_for_admin_dm === setting.requiredForAdminAndDm) return setting;
    await trx
      .updateTable('system_settings')
      .set({ second_factor_required_for_admin_dm: setting.requiredForAdminAndDm, updated_at: now })
      .execute();
    await recordAudit(trx, actor, {
      type: 'system.settings_changed',
      entityType: 'system',
      entityId: 'second_factor_required_for_admin_dm',
      before: { secondFactorRequiredForAdminAndDm: before.second_factor_required_for_admin_dm },
      after: { secondFactorRequiredForAdminAndDm: setting.requiredForAdminAndDm },
    });
    return setting;
  });
}
