import { randomBytes } from 'node:crypto';
import {
  type AdminUser,
  type createUserRequestSchema,
  passwordIssues,
  type UpdateUserRequest,
} from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { isCommonPassword } from '../auth/common-passwords.ts';
import { hashPassword } from '../auth/passwords.ts';
import type { Principal } from '../auth/principal.ts';
import { confirmedSecondFactor } from '../auth/second-factor.ts';
import { deleteUserSessions } from '../auth/sessions.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database, UserRow } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';

export type CreateUserInput = z.output<typeof createUserRequestSchema>;

/** A user as the admin pages read it: the audited view, with its id, lock, last login and second factor. */
export function presentAdminUser(
  user: UserRow,
  lockedUntil: Date | null = null,
  secondFactorEnrolled = false,
): AdminUser {
  return {
    id: user.id,
    ...auditView(user),
    lockedUntil: lockedUntil && lockedUntil > new Date() ? lockedUntil.toISOString() : null,
    lastLoginAt: user.last_login_at?.toISOString() ?? null,
    createdAt: user.created_at.toISOString(),
    secondFactorEnrolled,
  };
}

/** The audited view of a user: never the password hash. */
function auditView(user: UserRow) {
  return {
    email: user.email,
    name: user.name,
    contact: user.contact,
    locale: user.locale,
    active: user.active,
    isAdmin: user.is_admin,
  };
}

export async function listUsers(db: Kysely<Database>): Promise<AdminUser[]> {
  const users = await db.selectFrom('users').selectAll().orderBy('id').execute();
  const locks = await db
    .selectFrom('login_failures')
    .select(['email', 'locked_until'])
    .where('locked_until', 'is not', null)
    // Locks of one email at one address; the email-wide row ('') only slows logins, it locks nothing.
    .where('client_ip', '!=', '')
    .orderBy('locked_until')
    .execute();
  // The latest lock of the email at any address (later entries overwrite earlier ones).
  const lockedUntil = new Map(locks.map((lock) => [lock.email, lock.locked_until]));
  const enrolled = new Set(
    (
      await db
        .selectFrom('user_second_factors')
        .select('user_id')
        .where('confirmed_at', 'is not', null)
        .execute()
    ).map((row) => row.user_id),
  );
  return users.map((user) =>
    presentAdminUser(user, lockedUntil.get(user.email) ?? null, enrolled.has(user.id)),
  );
}

export async function createUser(
  db: Kysely<Database>,
  actor: AuditActor,
  input: CreateUserInput,
): Promise<AdminUser> {
  const issues = passwordIssues(input.password, input.email);
  if (issues.length > 0) throw new AppError(422, 'password_policy', {}, { issues });
  if (isCommonPassword(input.password)) throw new AppError(422, 'password_too_common');
  const passwordHash = await hashPassword(input.password);
  try {
    return await inTransaction(db, async (trx) => {
      const user = await trx
        .insertInto('users')
        .values({
          email: input.email,
          name: input.name,
          contact: input.contact,
          locale: input.locale,
          is_admin: input.isAdmin,
          password_hash: passwordHash,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await recordAudit(trx, actor, {
        type: 'user.created',
        entityType: 'user',
        entityId: user.id,
        after: auditView(user),
      });
      return presentAdminUser(user);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError(409, 'email_taken');
    throw error;
  }
}

export async function updateUser(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  userId: number,
  input: UpdateUserRequest,
): Promise<AdminUser> {
  if (userId === principal.user.id && (input.active === false || input.isAdmin === false)) {
    throw new AppError(422, 'cannot_change_own_admin');
  }
  try {
    return await inTransaction(db, async (trx) => {
      const before = await trx
        .selectFrom('users')
        .selectAll()
        .where('id', '=', userId)
        .forUpdate()
        .executeTakeFirst();
      if (!before) throw new AppError(404, 'not_found');
      const after = await trx
        .updateTable('users')
        .set({
          ...(input.email === undefined ? {} : { email: input.email }),
          ...(input.name === undefined ? {} : { name: input.name }),
          ...(input.contact === undefined ? {} : { contact: input.contact }),
          ...(input.locale === undefined ? {} : { locale: input.locale }),
          ...(input.active === undefined ? {} : { active: input.active }),
          ...(input.isAdmin === undefined ? {} : { is_admin: input.isAdmin }),
          updated_at: new Date(),
        })
        .where('id', '=', userId)
        .returningAll()
        .executeTakeFirstOrThrow();
      // A deactivated account is signed out everywhere at once.
      if (before.active && !after.active) await deleteUserSessions(trx, userId);
      await recordAudit(trx, actor, {
        type: 'user.updated',
        entityType: 'user',
        entityId: userId,
        before: auditView(before),
        after: auditView(after),
      });
      const factor = await confirmedSecondFactor(trx, userId);
      return presentAdminUser(after, null, factor !== undefined);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError(409, 'email_taken');
    throw error;
  }
}

/** A readable random password: 16 characters from an alphabet without look-alikes, with a digit. */
export function generateTemporaryPassword(): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKMNPQRSTUVWXYZ23456789';
  for (;;) {
    const bytes = randomBytes(16);
    const password = [...bytes].map((byte) => alphabet[byte % alphabet.length]).join('');
    if (passwordIssues(password).length === 0) return password;
  }
}

/** Sets a new random password, ends the user's sessions and lifts a lockout. */
export async function resetUserPassword(
  db: Kysely<Database>,
  actor: AuditActor,
  userId: number,
): Promise<string> {
  const temporaryPassword = generateTemporaryPassword();
  const passwordHash = await hashPassword(temporaryPassword);
  await inTransaction(db, async (trx) => {
    const user = await trx
      .selectFrom('users')
      .select(['id', 'email'])
      .where('id', '=', userId)
      .executeTakeFirst();
    if (!user) throw new AppError(404, 'not_found');
    const now = new Date();
    await trx
      .updateTable('users')
      .set({ password_hash: passwordHash, password_changed_at: now, updated_at: now })
      .where('id', '=', userId)
      .execute();
    await deleteUserSessions(trx, userId);
    await trx.deleteFrom('login_failures').where('email', '=', user.email).execute();
    await recordAudit(trx, actor, {
      type: 'user.password_reset',
      entityType: 'user',
      entityId: userId,
      after: { sessionsEnded: true },
    });
  });
  return temporaryPassword;
}
