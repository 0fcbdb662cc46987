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
  const rows = await db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select('u.id')
    .distinct()
    .where('m.study_id', '=', studyId)
    .where('m.role', 'in', roles)
    .where('u.active', '=', true)
    .where((eb) =>
      eb.or([
        eb('m.role', 'in', studyWideRoles),
        eb.exists(
          eb
            .selectFrom('membership_sites as ms')
            .select('ms.site_id')
            .whereRef('ms.membership_id', '=', 'm.id')
            .where('ms.site_id', '=', siteId),
        ),
      ]),
    )
    .orderBy('u.id')
    .execute();
  return rows.map((row) => row.id);
}
