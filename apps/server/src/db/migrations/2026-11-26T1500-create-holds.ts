import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // Issue 15: freezes and locks. One row per hold, kept after it is lifted (who placed it, who lifted
  // it, when and why, beside the audit trail). The target is the study, a site, a subject or one form
  // of a subject (visit + form); `target_key` spells it as one text ('study', 'site:3', 'subject:7',
  // 'form:7:v2:vitalSigns') so one partial unique index keeps at most one freeze and one lock in force
  // per target.
  await db.schema
    .createTable('holds')
    .addColumn('id', 'integer', (col) => col.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('study_id', 'integer', (col) => col.notNull().references('studies.id'))
    .addColumn('kind', 'text', (col) => col.notNull().check(sql`kind in ('frozen', 'locked')`))
    .addColumn('level', 'text', (col) =>
      col.notNull().check(sql`level in ('form', 'subject', 'site', 'study')`),
    )
    .addColumn('site_id', 'integer', (col) => col.references('sites.id'))
    .addColumn('subject_id', 'integer', (col) => col.references('subjects.id'))
    .addColumn('visit_key', 'text')
    .addColumn('form_key', 'text')
    .addColumn('target_key', 'text', (col) => col.notNull())
    .addColumn('placed_by', 'integer', (col) => col.notNull().references('users.id'))
    .addColumn('placed_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('placed_reason', 'text', (col) => col.notNull())
    .addColumn('lifted_by', 'integer', (col) => col.references('users.id'))
    .addColumn('lifted_at', 'timestamptz')
    .addColumn('lifted_reason', 'text')
    // Each level names exactly the targets it needs.
    .addCheckConstraint(
      'holds_target_matches_level',
      sql`(level = 'study' and site_id is null and subject_id is null and visit_key is null and form_key is null)
       or (level = 'site' and site_id is not null and subject_id is null and visit_key is null and form_key is null)
       or (level = 'subject' and site_id is not null and subject_id is not null and visit_key is null and form_key is null)
       or (level = 'form' and site_id is not null and subject_id is not null and visit_key is not null and form_key is not null)`,
    )
    .addCheckConstraint(
      'holds_lifted_together',
      sql`(lifted_at is null) = (lifted_by is null) and (lifted_at is null) = (lifted_reason is null)`,
    )
    .execute();
  await db.schema
    .createIndex('holds_one_in_force_idx')
    .on('holds')
    .columns(['study_id', 'kind', 'target_key'])
    .unique()
    .where(sql.ref('lifted_at'), 'is', null)
    .execute();
  // Every write asks which holds are in force over its subject: the study's holds in force are few,
  // so one index on the study (in force only) serves the guard, the marks and the board.
  await db.schema
    .createIndex('holds_in_force_study_idx')
    .on('holds')
    .columns(['study_id', 'level'])
    .where(sql.ref('lifted_at'), 'is', null)
    .execute();
}
