import {
  type Role,
  roles as roleOrder,
  type TrainingMatrixResponse,
  type TrainingStatus,
  trainingMatrixQuerySchema,
} from '@cdms/contract';
import { type Kysely, sql } from 'kysely';
import type { z } from 'zod';
import { authorize } from '../auth/authorize.ts';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';

type MatrixQuery = z.output<typeof trainingMatrixQuerySchema>;
export type MatrixFilters = Pick<MatrixQuery, 'search' | 'status'>;

export function requireTrainingManager(principal: Principal, studyId: number): void {
  authorize(principal, 'training.manage', { studyId });
}

/**
 * The study's members (active accounts with a membership) × its published modules, with each cell's
 * status worked out in SQL: not required for the member's roles (null), completed at the current
 * version, outdated (completed an older one) or not done.
 */
function cellsSql(studyId: number) {
  return sql`
    with members as (
      select u.id as user_id, u.name, array_agg(distinct m.role) as roles
      from memberships m join users u on u.id = m.user_id
      where m.study_id = ${studyId} and u.active
      group by u.id, u.name
    ), cells as (
      select mem.user_id, tm.id as module_id,
        case
          when not (tm.roles && mem.roles::text[]) then null
          when c.version = tm.version then 'completed'
          when c.version is not null then 'outdated'
          else 'not_done'
        end as status,
        c.version as completed_version, c.completed_at
      from members mem
      cross join training_modules tm
      left join lateral (
        select tc.version, tc.completed_at from training_completions tc
        where tc.module_id = tm.id and tc.user_id = mem.user_id
        order by tc.version desc limit 1
      ) c on true
      where tm.study_id = ${studyId} and tm.state = 'published'
    )`;
}

function memberFilter(filters: MatrixFilters) {
  const search = filters.search ? `%${filters.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  return sql`
    where (${search}::text is null or mem.name ilike ${search})
      and (${filters.status ?? null}::text is null or exists (
        select 1 from cells where cells.user_id = mem.user_id and cells.status = ${filters.status ?? null}
      ))`;
}

interface MatrixRow {
  userId: number;
  name: string;
  roles: Role[];
  cells: TrainingMatrixResponse['rows'][number]['cells'];
}

async function matrixRows(
  db: Kysely<Database>,
  studyId: number,
  filters: MatrixFilters,
  page: { limit: number; offset: number } | null,
): Promise<{ modules: TrainingMatrixResponse['modules']; rows: MatrixRow[]; total: number }> {
  const modules = await db
    .selectFrom('training_modules')
    .select(['id', 'title', 'version'])
    .where('study_id', '=', studyId)
    .where('state', '=', 'published')
    .orderBy('id')
    .execute();
  const paging = page ? sql`limit ${page.limit} offset ${page.offset}` : sql``;
  const members = await sql<{ user_id: number; name: string; roles: string[] | string; total: number }>`
    ${cellsSql(studyId)}
    select mem.user_id, mem.name, mem.roles, count(*) over () as total
    from members mem ${memberFilter(filters)}
    order by mem.name, mem.user_id ${paging}`.execute(db);
  const userIds = members.rows.map((row) => row.user_id);
  const cells =
    userIds.length === 0
      ? []
      : (
          await sql<{
            user_id: number;
            module_id: number;
            status: TrainingStatus | null;
            completed_version: number | null;
            completed_at: Date | string | null;
          }>`
            ${cellsSql(studyId)}
            select * from cells where user_id in (${sql.join(userIds)})`.execute(db)
        ).rows;
  const byUser = new Map<number, typeof cells>();
  for (const cell of cells) byUser.set(cell.user_id, [...(byUser.get(cell.user_id) ?? []), cell]);
  const rows = members.rows.map((member) => {
    const held = parseRoles(member.roles);
    const mine = byUser.get(member.user_id) ?? [];
    return {
      userId: member.user_id,
      name: member.name,
      roles: roleOrder.filter((role) => held.includes(role)),
      cells: modules.map((module) => {
        const cell = mine.find((entry) => entry.module_id === module.id);
        return {
          moduleId: module.id,
          status: cell?.status ?? null,
          version: cell?.completed_version ?? null,
          completedAt: cell?.completed_at ? new Date(cell.completed_at).toISOString() : null,
        };
      }),
    };
  });
  return { modules, rows, total: Number(members.rows[0]?.total ?? 0) };
}

/** `text[]` comes back as an array from pg and PGlite; its literal form is handled for safety. */
function parseRoles(value: string[] | string): string[] {
  if (Array.isArray(value)) return value;
  return value
    .replace(/^\{|\}$/g, '')
    .split(',')
    .filter(Boolean);
}

export async function completionMatrix(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
  query: MatrixQuery,
): Promise<TrainingMatrixResponse> {
  requireTrainingManager(principal, studyId);
  const { modules, rows, total } = await matrixRows(db, studyId, query, {
    limit: query.size,
    offset: (query.page - 1) * query.size,
  });
  return { modules, rows, total, page: query.page, size: query.size };
}

/** Every row of the matrix (the CSV download), filtered alike. */
export async function completionMatrixAll(db: Kysely<Database>, studyId: number, filters: MatrixFilters) {
  return matrixRows(db, studyId, filters, null);
}

export { trainingMatrixQuerySchema };
