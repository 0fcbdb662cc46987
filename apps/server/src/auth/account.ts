import { passwordIssues } from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { updateRowAudited } from '../audit/audited-row.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { isCommonPassword } from './common-passwords.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import type { Principal } from './principal.ts';
import { deleteUserSessions } from './sessions.ts';

/**
 * The user changes their own password: the current one must be right, the new one must meet the
 * policy; every other session of the user ends (the current one stays).
 */
export async function changeOwnPassword(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  input: { currentPassword: string; newPassword: string },
): Promise<void> {
  const user = principal.user;
  if (!(await verifyPassword(user.password_hash, input.currentPassword))) {
    await recordAudit(db, actor, {
      type: 'auth.password_change_failed',
      entityType: 'user',
      entityId: user.id,
    });
    throw new AppError(422, 'current_password_incorrect');
  }
  const issues = passwordIssues(input.newPassword, user.email);
  if (issues.length > 0) throw new AppError(422, 'password_policy', {}, { issues });
  if (isCommonPassword(input.newPassword)) throw new AppError(422, 'password_too_common');
  if (input.currentPassword === input.newPassword) throw new AppError(422, 'password_unchanged');

  const passwordHash = await hashPassword(input.newPassword);
  await inTransaction(db, async (trx) => {
    const now = new Date();
    await trx
      .updateTable('users')
      .set({ password_hash: passwordHash, password_changed_at: now, updated_at: now })
      .where('id', '=', user.id)
      .execute();
    await deleteUserSessions(trx, user.id, principal.session.id_hash);
    await recordAudit(trx, actor, {
      type: 'auth.password_changed',
      entityType: 'user',
      entityId: user.id,
      after: { otherSessionsEnded: true },
    });
  });
}

export async function updateOwnContact(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  contact: string,
): Promise<void> {
  const before = principal.user.contact;
  if (before === contact) return;
  await inTransaction(db, async (trx) => {
    await updateRowAudited(
      trx,
      actor,
      { table: 'users', id: principal.user.id, set: { contact, updated_at: new Date() } },
      { type: 'auth.contact_changed', before: { contact: before }, after: { contact } },
    );
  });
}
