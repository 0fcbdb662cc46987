import { type Kysely, sql } from 'kysely';
import { auditRecordHash, GENESIS_HASH } from '../src/db/audit-record.ts';
import type { Database } from '../src/db/schema.ts';

/**
 * The attack, with nothing but database rights: turn the guard off, edit one record, then
 * recompute its hash and every later one with the project's own hash function, and move the head.
 */
export async function rewriteAuditHistory(db: Kysely<Database>, editedId: number): Promise<void> {
  await sql`alter table audit_events disable trigger audit_events_append_only`.execute(db);
  await sql`update audit_events set after = '{"name":"forged"}' where id = ${editedId}`.execute(db);
  const rows = await db.selectFrom('audit_events').selectAll().orderBy('id').execute();
  let previousHash = GENESIS_HASH;
  for (const row of rows) {
    const hash = auditRecordHash({ ...row, previous_hash: previousHash });
    await db
      .updateTable('audit_events')
      .set({ previous_hash: previousHash, hash })
      .where('id', '=', row.id)
      .execute();
    previousHash = hash;
  }
  await db.updateTable('audit_chain_head').set({ last_hash: previousHash }).execute();
  await sql`alter table audit_events enable trigger audit_events_append_only`.execute(db);
}
