import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // Issue 46: the query list counted every matching query and sorted them by expressions on every
  // request (× 2.8 from 500 to 5,000 subjects). Its page now comes off an index in the page's order
  // and its count, for the usual filters, from totals kept by a trigger (queries/list-queries.ts).

  // The subject's screening number on its queries, so that the list's subject order can be an index
  // of `queries`. A subject's screening number never changes once registered, nor does a query's
  // subject: filled when the row is inserted, by every path that inserts one (saves raising system
  // queries, a monitor's query, the bench's bulk copies).
  await sql`alter table queries add column screening_number text`.execute(db);
  await sql`
    update queries set screening_number = subjects.screening_number
    from subjects where subjects.id = queries.subject_id`.execute(db);
  await sql`alter table queries alter column screening_number set not null`.execute(db);
  await sql`
    create function queries_copy_screening_number() returns trigger language plpgsql as $$
    begin
      new.screening_number := (select screening_number from subjects where id = new.subject_id);
      return new;
    end
    $$`.execute(db);
  await sql`
    create trigger queries_screening_number
    before insert or update of subject_id on queries
    for each row execute function queries_copy_screening_number()`.execute(db);

  // One index per column sort, each within a state, ending in the id in the direction the list
  // breaks ties in (the page's order is the sort's, then the id's the same way): a state's page is
  // read off the index and the scan stops after it; "unresolved" and "all" merge a page from each
  // of their states. The age sort: an open or answered query's age is today minus the day (UTC+9)
  // it was opened, so the oldest first is that day ascending, ties by the newest id first — the
  // expression is immutable (a time zone by name and a cast of a timestamp without time zone).
  await sql`create index queries_study_status_age_idx on queries
    (study_id, status, (((opened_at at time zone 'UTC') + interval '9 hours')::date), id desc)`.execute(db);
  await sql`create index queries_study_status_opened_at_idx on queries
    (study_id, status, opened_at, id)`.execute(db);
  await sql`create index queries_study_status_last_message_idx on queries
    (study_id, status, last_message_at, id)`.execute(db);
  await sql`create index queries_study_status_subject_idx on queries
    (study_id, status, screening_number collate "C", id)`.execute(db);
  // The indexes above lead with the same columns and carry one more: these served only the list.
  await sql`drop index queries_study_status_opened_idx`.execute(db);
  await sql`drop index queries_study_last_message_idx`.execute(db);

  // Words of a thread: the list looked each query's messages up and lowercased both languages of
  // their JSON text for every query it counted. A substring is what no b-tree orders and no total
  // holds, so a search still reads every candidate query's messages — the one count that grows with
  // the trial — but in these lowercased copies, without opening the JSON (a page's lookups of a
  // query's messages read them from the covering index; a count matches every message once).
  await sql`alter table query_messages
    add column search_ko text generated always as (lower(text->>'ko')) stored,
    add column search_en text generated always as (lower(text->>'en')) stored`.execute(db);
  await sql`create index query_messages_search_idx on query_messages (query_id) include (search_ko, search_en)`.execute(
    db,
  );

  // The list's total for its usual filters (state, kind, assignee, the reader's sites): queries per
  // site, status, kind and assignee, as append-only deltas like `subject_list_totals`
  // (docs/decisions/subject-fact-totals.md), folded by the same compaction. A few dozen rows per
  // site whatever the number of queries.
  await db.schema
    .createTable('query_list_totals')
    .addColumn('study_id', 'integer', (col) => col.notNull())
    .addColumn('site_id', 'integer', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('assignee', 'text', (col) => col.notNull())
    .addColumn('queries', 'integer', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('query_list_totals_study_site_idx')
    .on('query_list_totals')
    .columns(['study_id', 'site_id'])
    .execute();
  // Most changes of a query (a message, its count and time) move none of the keys: nothing appended.
  await sql`
    create function queries_move_list_totals() returns trigger language plpgsql as $$
    begin
      if tg_op = 'UPDATE'
        and (old.study_id, old.site_id, old.status, old.kind, old.assignee)
        is not distinct from (new.study_id, new.site_id, new.status, new.kind, new.assignee)
      then
        return null;
      end if;
      if tg_op in ('UPDATE', 'DELETE') then
        insert into query_list_totals (study_id, site_id, status, kind, assignee, queries)
        values (old.study_id, old.site_id, old.status, old.kind, old.assignee, -1);
      end if;
      if tg_op in ('INSERT', 'UPDATE') then
        insert into query_list_totals (study_id, site_id, status, kind, assignee, queries)
        values (new.study_id, new.site_id, new.status, new.kind, new.assignee, 1);
      end if;
      return null;
    end
    $$`.execute(db);
  // Created before the first fill: writers of `queries` wait for this migration's commit, so no
  // change falls between the fill and the trigger.
  await sql`
    create trigger queries_list_totals
    after insert or update or delete on queries
    for each row execute function queries_move_list_totals()`.execute(db);
  await sql`
    insert into query_list_totals (study_id, site_id, status, kind, assignee, queries)
    select study_id, site_id, status, kind, assignee, count(*) from queries
    group by study_id, site_id, status, kind, assignee`.execute(db);
}
