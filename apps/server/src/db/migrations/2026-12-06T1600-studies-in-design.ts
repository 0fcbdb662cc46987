import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // Issue 45 item 1: a study is created "in design" (only its designers see it, nobody registers a
  // subject) and goes live with an approval signature. The facts a system administrator enters when
  // creating one: its protocol number, its English title, its sponsor and its kind.
  await sql`alter table studies drop constraint studies_status_check`.execute(db);
  await sql`alter table studies add constraint studies_status_check
    check (status in ('design', 'active', 'ended'))`.execute(db);
  await db.schema
    .alterTable('studies')
    .addColumn('protocol_number', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('title_en', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('sponsor', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('kind', 'text', (col) =>
      col.notNull().defaultTo('device').check(sql`kind in ('drug', 'device', 'observational')`),
    )
    .addColumn('went_live_at', 'timestamptz')
    .execute();
  // A study's code names it in the header, file names and messages: two studies cannot share one.
  await sql`create unique index studies_code_unique on studies (lower(code))`.execute(db);
}
