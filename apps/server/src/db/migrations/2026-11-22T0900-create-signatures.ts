import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // Investigator signatures of a subject's casebook (21 CFR Part 11 §11.50): printed name, time,
  // meaning and a hash of the data signed. A later change to the signed data does not delete the
  // row: it is marked invalidated, so the history of signing stays readable.
  await db.schema
    .createTable('signatures')
    .addColumn('id', 'integer', (col) => col.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('study_id', 'integer', (col) => col.notNull().references('studies.id'))
    .addColumn('subject_id', 'integer', (col) => col.notNull().references('subjects.id'))
    .addColumn('signed_by', 'integer', (col) => col.notNull().references('users.id'))
    .addColumn('printed_name', 'text', (col) => col.notNull())
    .addColumn('meaning', 'jsonb', (col) => col.notNull())
    .addColumn('data_hash', 'text', (col) => col.notNull())
    .addColumn('signed_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('invalidated_at', 'timestamptz')
    .addColumn('invalidated_reason', 'text')
    .execute();
  // At most one signature in force per subject.
  await sql`
    create unique index signatures_one_valid_per_subject
    on signatures (subject_id) where invalidated_at is null`.execute(db);
}
