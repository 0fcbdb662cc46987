import type { Role, TrainingModuleSummary, TrainingStatus } from '@cdms/contract';
import { type Kysely, sql } from 'kysely';
import type { Database, TrainingModuleRow } from '../db/schema.ts';

/** A module row with the reader's newest completion (any version) and whether one is at the current version. */
export type ModuleWithCompletion = TrainingModuleRow & {
  completed_at: Date | null;
  completed_version: number | null;
  current_done: boolean;
};

/** Every module of the study with `userId`'s newest completion, in one query. */
export function selectModulesFor(db: Kysely<Database>, studyId: number, userId: number) {
  return db
    .selectFrom('training_modules')
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('training_completions')
          .select(['completed_at', 'version as completed_version'])
          .whereRef('training_completions.module_id', '=', 'training_modules.id')
          .where('training_completions.user_id', '=', userId)
          .orderBy('training_completions.version', 'desc')
          .limit(1)
          .as('mine'),
      (join) => join.onTrue(),
    )
    .selectAll('training_modules')
    .select([
      'mine.completed_at',
      'mine.completed_version',
      sql<boolean>`coalesce(mine.completed_version = training_modules.version, false)`.as('current_done'),
    ])
    .where('training_modules.study_id', '=', studyId);
}

/** The SQL condition "the module is required for one of these roles". */
export function requiredForRoles(roles: readonly Role[]) {
  if (roles.length === 0) return sql<boolean>`false`;
  return sql<boolean>`training_modules.roles && array[${sql.join(roles)}]::text[]`;
}

export function statusOf(row: { completed_version: number | null; current_done: boolean }): TrainingStatus {
  if (row.current_done) return 'completed';
  return row.completed_version === null ? 'not_done' : 'outdated';
}

export function isRequired(row: TrainingModuleRow, roles: readonly Role[]): boolean {
  return row.state === 'published' && row.roles.some((role) => roles.includes(role));
}

export function presentModuleSummary(
  row: ModuleWithCompletion,
  roles: readonly Role[],
): TrainingModuleSummary {
  return {
    id: row.id,
    title: row.title,
    roles: row.roles,
    version: row.version,
    state: row.state,
    questionCount: row.quiz?.questions.length ?? 0,
    passMark: row.quiz?.passMark ?? null,
    updatedAt: row.updated_at.toISOString(),
    required: isRequired(row, roles),
    myStatus: statusOf(row),
    completedAt: row.completed_at ? new Date(row.completed_at).toISOString() : null,
    completedVersion: row.completed_version,
  };
}

/** The roles the user holds in the study. */
export function rolesIn(
  principal: { studies: ReadonlyMap<number, { roles: ReadonlyMap<Role, unknown> }> },
  studyId: number,
): Role[] {
  return [...(principal.studies.get(studyId)?.roles.keys() ?? [])];
}
