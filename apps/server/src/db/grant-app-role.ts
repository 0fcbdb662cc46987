import { type Kysely, sql } from 'kysely';
import type { Database } from './schema.ts';

/**
 * Gives the server's own database role (DATABASE_URL) what it needs and nothing more, run by the
 * owner role (DATABASE_OWNER_URL) after every migration so tables added later are covered too:
 * - ordinary tables: read and write rows (no TRUNCATE, no TRIGGER, no REFERENCES);
 * - audit_events: SELECT and INSERT only — no UPDATE, DELETE or TRUNCATE;
 * - audit_chain_head: SELECT and UPDATE (every audit write moves the head under a row lock);
 * - Kysely's migration bookkeeping: nothing.
 * Not owning the tables, the role can neither ALTER them nor disable their triggers, so the
 * append-only guard holds against the credentials the server carries.
 */
export async function grantAppRole(
  db: Kysely<Database>,
  options: { role: string; schema: string },
): Promise<void> {
  const role = sql.id(options.role);
  const schema = sql.id(options.schema);
  const table = (name: string) => sql.id(options.schema, name);
  await sql`grant usage on schema ${schema} to ${role}`.execute(db);
  await sql`revoke create on schema ${schema} from ${role}`.execute(db);
  await sql`revoke all on all tables in schema ${schema} from ${role}`.execute(db);
  await sql`grant select, insert, update, delete on all tables in schema ${schema} to ${role}`.execute(db);
  await sql`grant usage, select on all sequences in schema ${schema} to ${role}`.execute(db);
  await sql`revoke all on ${table('audit_events')} from ${role}`.execute(db);
  await sql`grant select, insert on ${table('audit_events')} to ${role}`.execute(db);
  await sql`revoke all on ${table('audit_chain_head')} from ${role}`.execute(db);
  await sql`grant select, update on ${table('audit_chain_head')} to ${role}`.execute(db);
  await sql`revoke all on ${table('kysely_migration')}, ${table('kysely_migration_lock')} from ${role}`.execute(
    db,
  );
}
