import type { Role } from '@cdms/contract';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';

/** DM and ADMIN cover every site of their study; the other roles the sites of their membership. */
const studyWideRoles: readonly Role[] = ['DM', 'ADMIN'];

/**
 * The active users holding one of `roles` in the study and covering the site: whom a notification
 * about something at that site is for.
 */
export async function membersAtSite(
  db: Kysely<Database> | Transaction<Database>,
  studyId: number,
  siteId: number,
  roles: readonly Role[],
): Promise<number[]> {
  if (roles.length === 0) return [];
  return activeMembers(db, studyId, roles, [siteId]);
}

/**
 * The active members holding one of `roles` (any role when none is named) and covering one of
 * `siteIds` (any site when none is named), in user id order.
 */
export async function activeMembers(
  db: Kysely<Database> | Transaction<Database>,
  studyId: number,
  roles: readonly Role[],
  siteIds: readonly number[],
): Promise<number[]> {
  let query = db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select('u.id')
    .distinct()
    .where('m.study_id', '=', studyId)
    .where('u.active', '=', true);
  if (roles.length > 0) query = query.where('m.role', 'in', roles);
  if (siteIds.length > 0)
    query = query.where((eb) =>
      eb.or([
        eb('m.role', 'in', studyWideRoles),
        eb.exists(
          eb
            .selectFrom('membership_sites as ms')
            .select('ms.site_id')
            .whereRef('ms.membership_id', '=', 'm.id')
            .where('ms.site_id', 'in', siteIds),
        ),
      ]),
    );
  const rows = await query.orderBy('u.id').execute();
  return rows.map((row) => row.id);
}
