import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // Issue 43: the database owns the chain. Until now `append_audit_records` ran with its caller's
  // rights, so the server's role held INSERT on audit_events and UPDATE on audit_chain_head, and with
  // them could insert a record of its own making — any id, any time (back-dated six months), hashed
  // with this project's public function — and move the head: `audit verify` called it intact and the
  // next checkpoint signed it in.
  //
  // Now every row inserted into audit_events, by whoever and however, goes through this BEFORE
  // INSERT trigger, which takes the head's lock and assigns the id (the next one), the time
  // (clock_timestamp(), to the millisecond), the previous hash and the hash, then moves the head.
  // An insert that brings any of those itself is refused. The caller supplies only the content,
  // and with it the hashed text of that content (`auditHashParts`, audit/audit-record.ts, passed in
  // the transaction-local settings cdms.audit_hashed_fields / cdms.audit_hashed_role by
  // `append_audit_records`): a text that does not match the content gives a hash that
  // `verifyAuditChain` reports as hash_mismatch, so trusting it lets nobody choose a place or a
  // time. An insert without that text (a plain INSERT by hand) is refused.
  //
  // Records of one transaction share one time, as before: when the head was last moved by this
  // very transaction (its row's xmin is our transaction id), the time of the record it points at is
  // used again. So times never go backwards along the chain and a save's records read as one moment.
  await sql`
    create function audit_events_chain_record() returns trigger language plpgsql as $$
    declare
      head record;
      hashed_fields text;
      hashed_role text;
    begin
      if new.id is not null or new.occurred_at is not null or new.previous_hash is not null or new.hash is not null then
        raise exception 'audit records get their id, time and hashes from the database: insert the content only'
          using errcode = '42501';
      end if;
      hashed_fields := current_setting('cdms.audit_hashed_fields', true);
      hashed_role := coalesce(current_setting('cdms.audit_hashed_role', true), '');
      if hashed_fields is null or hashed_fields = '' then
        raise exception 'audit records are appended with append_audit_records(records), which brings their hashed text'
          using errcode = '42501';
      end if;
      -- Used once: a second row of the same statement must bring its own.
      perform set_config('cdms.audit_hashed_fields', '', true);
      perform set_config('cdms.audit_hashed_role', '', true);

      -- By its key, not a scan: the head is updated once a record, and a scan would read every
      -- dead version of the row that autovacuum has not yet removed.
      select last_id, last_hash, xmin = pg_current_xact_id()::xid as moved_by_us
        into head from audit_chain_head where singleton for update;
      new.id := head.last_id + 1;
      new.previous_hash := head.last_hash;
      if head.moved_by_us then
        select occurred_at into new.occurred_at from audit_events where id = head.last_id;
      end if;
      if new.occurred_at is null then
        new.occurred_at := date_trunc('milliseconds', clock_timestamp());
      end if;
      -- The text auditHashText builds in JavaScript: [<id>,"<occurred_at>",<fields>,"<previous_hash>"<role>].
      new.hash := encode(sha256(convert_to(
        '[' || new.id::text || ','
          || to_json(to_char(new.occurred_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text || ','
          || hashed_fields || ',' || to_json(new.previous_hash)::text || hashed_role || ']',
        'UTF8')), 'hex');
      update audit_chain_head set last_id = new.id, last_hash = new.hash where singleton;
      return new;
    end;
    $$`.execute(db);
  await sql`
    create trigger audit_events_chain
    before insert on audit_events
    for each row execute function audit_events_chain_record()`.execute(db);

  // The one way in for the server: the content of a transaction's records, in order, each with its
  // hashed text. SECURITY DEFINER: it inserts with its owner's rights, so the server's role needs
  // neither INSERT on audit_events nor UPDATE on audit_chain_head (grant-app-role.ts takes them
  // away) and cannot bypass the trigger's assignments by any statement of its own. Keys an element
  // should not have (id, occurred_at, previous_hash, hash) reach the trigger, which refuses them.
  await sql`
    create or replace function append_audit_records(records jsonb) returns void
    language plpgsql security definer as $$
    declare
      element jsonb;
      appended audit_events;
    begin
      for element in select value from jsonb_array_elements(records) with ordinality order by ordinality loop
        appended := jsonb_populate_record(null::audit_events, element);
        perform set_config('cdms.audit_hashed_fields', coalesce(element->>'hashed_fields', ''), true);
        perform set_config('cdms.audit_hashed_role', coalesce(element->>'hashed_role', ''), true);
        insert into audit_events select (appended).*;
      end loop;
    end;
    $$`.execute(db);

  // A SECURITY DEFINER function must not resolve names through a search path its caller controls:
  // a temporary table called audit_chain_head (pg_temp comes first unless named) would otherwise
  // give it a head of the caller's choosing. Pinned to the schema the tables are in, pg_temp last.
  // The trigger runs inside it with that path (the server's role has no other way to insert); a
  // path of its own would cost a settings change per record for nothing.
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  const schema = sql.id(rows[0]?.schema ?? 'public');
  await sql`alter function append_audit_records(jsonb) set search_path = ${schema}, pg_temp`.execute(db);
  // Functions are executable by every role unless said otherwise; the owner grants it to the
  // server's role (grant-app-role.ts).
  await sql`revoke all on function append_audit_records(jsonb) from public`.execute(db);
}
