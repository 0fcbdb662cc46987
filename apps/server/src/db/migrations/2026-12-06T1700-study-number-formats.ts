import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // Issue 45 item 1: a study's screening-number and randomization-number formats (templates, see
  // number-formats.ts in the contract) and whether it randomizes. The defaults are the formats every
  // study had until now, so existing numbers and studies stay as they were.
  await db.schema
    .alterTable('studies')
    .addColumn('screening_number_format', 'text', (col) =>
      col
        .notNull()
        .defaultTo('S{site}-{seq:3}')
        .check(sql`char_length(screening_number_format) between 1 and 30`),
    )
    .addColumn('randomization_number_format', 'text', (col) =>
      col
        .notNull()
        .defaultTo('R{site}{seq:3}')
        .check(sql`char_length(randomization_number_format) between 1 and 30`),
    )
    .addColumn('randomization_enabled', 'boolean', (col) => col.notNull().defaultTo(true))
    .execute();
}
