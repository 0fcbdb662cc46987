import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // Appends a transaction's audit records to the chain in one statement (issue 12; see
  // docs/decisions/audit-append-at-commit.md). The server prepares each record's fields and the
  // part of its hashed text that does not depend on its place in the chain (`auditHashParts`,
  // audit/audit-record.ts); here, under the head's lock, each record gets the next id, the time of
  // appending and the previous record's hash, and its hash over
  //   [<id>,"<occurred_at>",<hashed_fields>,"<previous_hash>"<hashed_role>]
  // which is the text `auditHashText` builds in JavaScript, so `verifyAuditChain` checks these
  // records exactly as it checks every other. The head is locked and released inside the database:
  // no server round trip, and so no wait for a busy server's event loop, while every other writer
  // waits.
  //
  // `records` is a JSON array of objects with audit_events' columns (all but id, occurred_at,
  // previous_hash and hash) and `hashed_fields`, `hashed_role`, in the order they were recorded.
  // The time is taken after the lock, to the millisecond (what a JavaScript Date keeps), so times
  // never go backwards along the chain and the stored time is the hashed one.
  await sql`
    create function append_audit_records(records jsonb) returns void language plpgsql as $$
    declare
      head record;
      appended_at timestamptz;
      appended_at_json text;
      next_id bigint;
      previous_hash text;
      element jsonb;
      appended audit_events;
    begin
      select last_id, last_hash into head from audit_chain_head for update;
      appended_at := date_trunc('milliseconds', clock_timestamp());
      appended_at_json := to_json(to_char(appended_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text;
      next_id := head.last_id;
      previous_hash := head.last_hash;
      for element in select value from jsonb_array_elements(records) with ordinality order by ordinality loop
        next_id := next_id + 1;
        appended := jsonb_populate_record(null::audit_events, element);
        appended.id := next_id;
        appended.occurred_at := appended_at;
        appended.previous_hash := previous_hash;
        appended.hash := encode(sha256(convert_to(
          '[' || next_id::text || ',' || appended_at_json || ',' || (element->>'hashed_fields') || ','
            || to_json(previous_hash)::text || coalesce(element->>'hashed_role', '') || ']',
          'UTF8')), 'hex');
        insert into audit_events select (appended).*;
        previous_hash := appended.hash;
      end loop;
      update audit_chain_head set last_id = next_id, last_hash = previous_hash;
    end;
    $$`.execute(db);
}
