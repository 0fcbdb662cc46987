import { type Membership, type Role, siteScopedRoles } from '@cdms/contract';
import type { Kysely, Transaction } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { deleteRowAudited } from '../audit/audited-row.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { areSitesOfStudy } from '../studies/site-of-study.ts';

export async function listMemberships(db: Kysely<Database>, studyId: number): Promise<Membership[]> {
  const rows = await db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select([
      'memberships.id',
      'memberships.user_id',
      'memberships.study_id',
      'memberships.role',
      'users.name',
      'users.email',
    ])
    .where('memberships.study_id', '=', studyId)
    .orderBy('users.name')
    .orderBy('memberships.role')
    .execute();
  const sites =
    rows.length === 0
      ? []
      : await db
          .selectFrom('membership_sites')
          .select(['membership_id', 'site_id'])
          .where(
            'membership_id',
            'in',
            rows.map((row) => row.id),
          )
          .execute();
  return rows.map((row) => ({
    id: row.id,
    userId: row.user_id,
    userName: row.name,
    userEmail: row.email,
    studyId: row.study_id,
    role: row.role,
    siteIds: sites
      .filter((site) => site.membership_id === row.id)
      .map((site) => site.site_id)
      .sort((a, b) => a - b),
  }));
}

/** Site roles need at least one site of this study; DM and ADMIN cover every site and name none. */
async function checkSites(
  trx: Transaction<Database>,
  studyId: number,
  role: Role,
  siteIds: number[],
): Promise<number[]> {
  const unique = [...new Set(siteIds)].sort((a, b) => a - b);
  if (!siteScopedRoles.includes(role)) {
    if (unique.length > 0) throw new AppError(422, 'sites_not_allowed');
    return [];
  }
  if (unique.length === 0) throw new AppError(422, 'sites_required');
  if (!(await areSitesOfStudy(trx, studyId, unique))) throw new AppError(422, 'unknown_site');
  return unique;
}

/**
 * Adds a membership in the caller's transaction, audited: the members page's command, and study
 * creation's first members (`create-study.ts`). The user and the study must exist; a site role
 * needs sites of the study. The same user and role twice fails with a unique violation
 * (`membership_exists`).
 */
export async function insertMembership(
  trx: Transaction<Database>,
  actor: AuditActor,
  studyId: number,
  input: { userId: number; role: Role; siteIds: number[] },
): Promise<number> {
  const siteIds = await checkSites(trx, studyId, input.role, input.siteIds);
  const membership = await trx
    .insertInto('memberships')
    .values({ user_id: input.userId, study_id: studyId, role: input.role })
    .returning('id')
    .executeTakeFirstOrThrow();
  await insertMembershipSites(trx, membership.id, siteIds);
  await recordAudit(trx, actor, {
    type: 'membership.created',
    entityType: 'membership',
    entityId: membership.id,
    studyId,
    after: auditedMembership({ ...input, siteIds }),
  });
  return membership.id;
}

export async function createMembership(
  db: Kysely<Database>,
  actor: AuditActor,
  studyId: number,
  input: { userId: number; role: Role; siteIds: number[] },
): Promise<Membership> {
  try {
    const id = await inTransaction(db, async (trx) => {
      const study = await trx.selectFrom('studies').select('id').where('id', '=', studyId).executeTakeFirst();
      const user = await trx
        .selectFrom('users')
        .select('id')
        .where('id', '=', input.userId)
        .executeTakeFirst();
      if (!study || !user) throw new AppError(404, 'not_found');
      return insertMembership(trx, actor, studyId, input);
    });
    return await findMembership(db, studyId, id);
  } catch (error) {
    if (isMembershipConflict(error)) throw new AppError(409, 'membership_exists');
    throw error;
  }
}

/** Whether the error is the unique violation of one user holding one role twice in a study. */
export function isMembershipConflict(error: unknown): boolean {
  return isUniqueViolation(error, 'memberships_user_study_role_unique');
}

async function findMembership(
  db: Kysely<Database>,
  studyId: number,
  membershipId: number,
): Promise<Membership> {
  const membership = (await listMemberships(db, studyId)).find((row) => row.id === membershipId);
  if (!membership) throw new AppError(404, 'not_found');
  return membership;
}

export async function updateMembershipSites(
  db: Kysely<Database>,
  actor: AuditActor,
  studyId: number,
  membershipId: number,
  siteIdsInput: number[],
): Promise<Membership> {
  const before = await findMembership(db, studyId, membershipId);
  await inTransaction(db, async (trx) => {
    const siteIds = await checkSites(trx, studyId, before.role, siteIdsInput);
    await trx.deleteFrom('membership_sites').where('membership_id', '=', membershipId).execute();
    await insertMembershipSites(trx, membershipId, siteIds);
    await recordAudit(trx, actor, {
      type: 'membership.updated',
      entityType: 'membership',
      entityId: membershipId,
      studyId,
      before: auditedMembership(before),
      after: auditedMembership({ ...before, siteIds }),
    });
  });
  return findMembership(db, studyId, membershipId);
}

export async function deleteMembership(
  db: Kysely<Database>,
  actor: AuditActor,
  studyId: number,
  membershipId: number,
): Promise<void> {
  const before = await findMembership(db, studyId, membershipId);
  await inTransaction(db, async (trx) => {
    await deleteRowAudited(
      trx,
      actor,
      { table: 'memberships', id: membershipId },
      { type: 'membership.deleted', studyId, before: auditedMembership(before) },
    );
  });
}

async function insertMembershipSites(trx: Transaction<Database>, membershipId: number, siteIds: number[]) {
  if (siteIds.length === 0) return;
  await trx
    .insertInto('membership_sites')
    .values(siteIds.map((siteId) => ({ membership_id: membershipId, site_id: siteId })))
    .execute();
}

/** What the audit trail keeps of a membership: whose it is, its role and its sites. */
function auditedMembership(membership: { userId: number; role: Role; siteIds: number[] }) {
  return { userId: membership.userId, role: membership.role, siteIds: membership.siteIds };
}
