import { type Kysely, sql } from 'kysely';
import { inTransaction } from './in-transaction.ts';
import type { Database } from './schema.ts';

/**
 * Gives the server's own database role (DATABASE_URL) what it needs and nothing more, run by the
 * owner role (DATABASE_OWNER_URL) after every migration so tables added later are covered too:
 * - ordinary tables: read and write rows (no TRUNCATE, no TRIGGER, no REFERENCES);
 * - audit_events, audit_chain_head, audit_checkpoint_head: SELECT only. Records are appended
 *   through `append_audit_records` and checkpoints counted through `record_audit_checkpoint`, both
 *   SECURITY DEFINER functions of the owner (EXECUTE granted here), whose trigger gives each record
 *   its id, time and hashes: the role supplies a record's content, never its place or time
 *   (migrations 2026-12-06T1200, 2026-12-06T1210);
 * - Kysely's migration bookkeeping: nothing.
 * Not owning the tables, the role can neither ALTER them nor disable their triggers, so the
 * append-only guard holds against the credentials the server carries.
 */
const GRANT_LOCK_KEY = 7_311_202_611; // any fixed number; only this function takes it

export async function grantAppRole(
  db: Kysely<Database>,
  options: { role: string; schema: string },
): Promise<void> {
  const role = sql.id(options.role);
  const schema = sql.id(options.schema);
  const table = (name: string) => sql.id(options.schema, name);
  const statements = [
    sql`grant usage on schema ${schema} to ${role}`,
    sql`revoke create on schema ${schema} from ${role}`,
    // From a clean slate each time, so a right granted by hand or by an older version goes away.
    sql`revoke all on all tables in schema ${schema} from ${role}`,
    sql`grant select, insert, update, delete on all tables in schema ${schema} to ${role}`,
    sql`grant usage, select on all sequences in schema ${schema} to ${role}`,
    sql`revoke all on ${table('audit_events')}, ${table('audit_chain_head')}, ${table('audit_checkpoint_head')} from ${role}`,
    sql`grant select on ${table('audit_events')}, ${table('audit_chain_head')}, ${table('audit_checkpoint_head')} to ${role}`,
    sql`grant execute on function ${table('append_audit_records')}(jsonb), ${table('record_audit_checkpoint')}(text, bigint) to ${role}`,
    sql`revoke all on ${table('kysely_migration')}, ${table('kysely_migration_lock')} from ${role}`,
  ];
  // One transaction: server processes already running as the role never see it between the revoke
  // and the grants (a rolling restart would otherwise fail their queries for a moment). The lock
  // makes processes starting together take turns: concurrent GRANTs on one table can fail with
  // "tuple concurrently updated".
  await inTransaction(db, async (trx) => {
    await sql`select pg_advisory_xact_lock(${GRANT_LOCK_KEY})`.execute(trx);
    for (const statement of statements) await statement.execute(trx);
  });
}
