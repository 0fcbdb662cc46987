import type { Role } from '@cdms/contract';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';

/** DM and ADMIN cover every site of their study; the other roles the sites of their membership. */
const studyWideRoles: readonly Role[] = ['DM', 'ADMIN'];

/**
 * The active members a task notice is addressed to: holding one of `roles` (any role when none is
 * named) and covering one of `siteIds` (any site when none is named; DM and ADMIN cover every site).
 */
export async function taskNoticeRecipients(
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
