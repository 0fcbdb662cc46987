import { type MenuType, menuTypeOfRole, type StudySummary } from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { Principal } from '../auth/principal.ts';
import type { Database, StudyRow } from '../db/schema.ts';

function presentStudy(principal: Principal, study: StudyRow): StudySummary {
  const roles = [...(principal.studies.get(study.id)?.roles.keys() ?? [])];
  const held = new Set<MenuType>(roles.map((role) => menuTypeOfRole[role]));
  return {
    id: study.id,
    code: study.code,
    title: study.title,
    content: study.content,
    status: study.status,
    registeredOn: study.registered_on,
    approaches: study.approaches.filter((approach) => held.has(approach)),
    roles,
  };
}

/** The studies the user is a member of, active or ended, optionally filtered by a search text. */
export async function listStudies(
  db: Kysely<Database>,
  principal: Principal,
  filter: { status: 'active' | 'ended'; search?: string | undefined },
): Promise<StudySummary[]> {
  const ids = [...principal.studies.keys()];
  if (ids.length === 0) return [];
  // The work list holds the studies in design too (only their designers are members of them here).
  const statuses = filter.status === 'active' ? (['active', 'design'] as const) : (['ended'] as const);
  let query = db.selectFrom('studies').selectAll().where('id', 'in', ids).where('status', 'in', statuses);
  if (filter.search) {
    const pattern = `%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) =>
      eb.or([eb('title', 'ilike', pattern), eb('content', 'ilike', pattern), eb('code', 'ilike', pattern)]),
    );
  }
  const rows = await query.orderBy('registered_on', 'desc').orderBy('id', 'desc').execute();
  return rows.map((row) => presentStudy(principal, row));
}

const RECENT_LIMIT = 8;

export async function recordStudyView(db: Kysely<Database>, userId: number, studyId: number): Promise<void> {
  const now = new Date();
  await db
    .insertInto('study_views')
    .values({ user_id: userId, study_id: studyId, viewed_at: now })
    .onConflict((conflict) => conflict.columns(['user_id', 'study_id']).doUpdateSet({ viewed_at: now }))
    .execute();
}

/** The studies the user opened last, newest first (only those they are still a member of). */
export async function recentStudies(db: Kysely<Database>, principal: Principal): Promise<StudySummary[]> {
  const ids = [...principal.studies.keys()];
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('study_views')
    .innerJoin('studies', 'studies.id', 'study_views.study_id')
    .selectAll('studies')
    .where('study_views.user_id', '=', principal.user.id)
    .where('studies.id', 'in', ids)
    .orderBy('study_views.viewed_at', 'desc')
    .limit(RECENT_LIMIT)
    .execute();
  return rows.map((row) => presentStudy(principal, row));
}
