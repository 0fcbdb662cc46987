import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // The study role the person acted in (PI, CRC…), as held at the time of the record: histories
  // show "name (role)", and a later change of the person's memberships must not rewrite it. Null
  // for records without a study or a person, and for records written before this column, whose
  // role is read from the memberships instead. The hash covers the column when it has a value
  // (audit-record.ts), so the chain of older records verifies unchanged.
  await db.schema.alterTable('audit_events').addColumn('actor_role', 'text').execute();
}
