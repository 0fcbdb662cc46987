import { type Kysely, sql } from 'kysely';
import type { Database } from '../../src/db/schema.ts';

/**
 * What the fuzz suite compares before and after each batch of refused requests: per table the row
 * count and an MD5 of every row, plus (through `audit_events` and `audit_chain_head`) the audit head.
 * A refused request may change nothing. The one documented exception is a session's activity clock:
 * a write that passed the CSRF check counts as the user being active even when it is then refused
 * (404, 403, 409, 422), so `last_seen_at` and `idle_expires_at` may move; the rest of the session
 * row, and whether it exists, may not.
 */
export const activityColumns: Record<string, string[]> = {
  sessions: ['last_seen_at', 'idle_expires_at'],
};

export async function databaseFingerprint(db: Kysely<Database>): Promise<Record<string, string>> {
  const tables = await sql<{ table_name: string }>`
    select table_name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE'
    order by table_name`.execute(db);
  const fingerprint: Record<string, string> = {};
  for (const { table_name: table } of tables.rows) {
    const ignored = activityColumns[table] ?? [];
    const result = await sql<{ rows: number; digest: string }>`
      select count(*)::int as rows,
             md5(coalesce(string_agg(r.row_text, '|' order by r.row_text), '')) as digest
      from (select (to_jsonb(t) - ${sql.val(ignored)}::text[])::text as row_text from ${sql.table(table)} t) r`.execute(
      db,
    );
    const row = result.rows[0];
    fingerprint[table] = `${row?.rows}:${row?.digest}`;
  }
  return fingerprint;
}

/** Tables whose fingerprint differs, for the failure message. */
export function changedTables(before: Record<string, string>, after: Record<string, string>): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names].filter((name) => before[name] !== after[name]).sort();
}

/**
 * The next transaction id the database will hand out. A table's rows change only in a transaction
 * that was given an id, so while this stays the same nothing was written and the fingerprint (an MD5
 * of every row of every table, the costly part of the fuzz suite) cannot have changed either. Reading
 * it takes no id itself. Ids are counted per server, not per database: on a PostgreSQL that other test
 * files write to at the same time it moves without our writes, so this is for the fuzz suite's PGlite.
 */
export async function nextTransactionId(db: Kysely<Database>): Promise<string> {
  const result = await sql<{ next: string }>`
    select pg_snapshot_xmax(pg_current_snapshot())::text as next`.execute(db);
  return result.rows[0]?.next ?? '';
}
