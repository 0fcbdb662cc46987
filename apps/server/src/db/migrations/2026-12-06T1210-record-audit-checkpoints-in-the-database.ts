import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // Issue 43: with the checkpoint file missing, emptied or cut short, `audit verify` found nothing
  // to disagree with and passed a rewritten chain. The database now remembers how many checkpoints
  // were written and the signature (HMAC) of the last one, so verify can tell a file that lost
  // lines from one that never had them (audit/verify-audit-checkpoints.ts).
  //
  // One row, moved forward only by `record_audit_checkpoint` (SECURITY DEFINER; the server's role
  // may call it and read the row, nothing else: grant-app-role.ts). Its guard refuses any change
  // that is not "one more checkpoint", and deleting or truncating, whoever asks; only the owner can
  // turn the guard off — as for audit_events, the file kept out of the owner's reach is what
  // catches that.
  await db.schema
    .createTable('audit_checkpoint_head')
    .addColumn('singleton', 'boolean', (col) => col.primaryKey().defaultTo(true).check(sql`singleton`))
    .addColumn('written', 'bigint', (col) => col.notNull())
    .addColumn('last_hmac', 'text')
    .addColumn('last_audit_event_id', 'bigint')
    .execute();
  await sql`insert into audit_checkpoint_head (singleton, written) values (true, 0)`.execute(db);

  await sql`
    create function audit_checkpoint_head_forward_only() returns trigger language plpgsql as $$
    begin
      if tg_op <> 'UPDATE' or new.written <> old.written + 1 or new.last_hmac is null then
        raise exception 'audit_checkpoint_head only counts up, one checkpoint at a time: % refused', tg_op;
      end if;
      return new;
    end;
    $$`.execute(db);
  await sql`
    create trigger audit_checkpoint_head_forward_only
    before update or delete on audit_checkpoint_head
    for each row execute function audit_checkpoint_head_forward_only()`.execute(db);
  await sql`
    create trigger audit_checkpoint_head_no_truncate
    before truncate on audit_checkpoint_head
    for each statement execute function audit_checkpoint_head_forward_only()`.execute(db);

  // Called right after the checkpoint's line is in the file (fsync'd): a crash in between leaves
  // the file one line ahead, never behind. Returns how many checkpoints are now recorded.
  await sql`
    create function record_audit_checkpoint(hmac text, audit_event_id bigint) returns bigint
    language sql security definer as $$
      update audit_checkpoint_head
        set written = written + 1, last_hmac = hmac, last_audit_event_id = audit_event_id
        returning written
    $$`.execute(db);
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  const schema = sql.id(rows[0]?.schema ?? 'public');
  await sql`alter function record_audit_checkpoint(text, bigint) set search_path = ${schema}, pg_temp`.execute(
    db,
  );
  await sql`revoke all on function record_audit_checkpoint(text, bigint) from public`.execute(db);
}
