import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // Issue 12: the subject list's page should cost the same at 500 subjects as at 5,000. Sorts by an
  // expression (the last visit's place in the definition, open + answered queries, the site code
  // by a subquery) sorted every filtered subject; stored as plain columns they can have an index
  // that hands the page over in order.
  await db.schema
    .alterTable('subject_facts')
    .addColumn('site_code', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('last_visit_order', 'integer')
    .addColumn('unresolved_query_count', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('search_text', 'text', (col) => col.notNull().defaultTo(''))
    .execute();
  // (READ_MODEL_VERSION 7 fills them at the next start, from `readModelRowsOf` like every other
  // column of the read model.)

  // Each index matches its ORDER BY exactly (empty cells last, ties by screening number by code
  // point, then id), so the page is read off the index and the scan stops after it. A backward scan
  // would put empty cells first and reverse the ties, so each serves the one direction it is built
  // for: the direction the list is read in (latest visit, most queries, oldest first).
  await sql`create index subject_facts_study_last_visit_idx on subject_facts
    (study_id, last_visit_order desc nulls last, screening_number collate "C", subject_id)`.execute(db);
  await sql`create index subject_facts_study_unresolved_idx on subject_facts
    (study_id, unresolved_query_count desc nulls last, screening_number collate "C", subject_id)`.execute(db);
  // Age is read within a status (the ongoing subjects, oldest first).
  await sql`create index subject_facts_study_status_age_idx on subject_facts
    (study_id, status, age desc nulls last, screening_number collate "C", subject_id)`.execute(db);
  await sql`create index subject_facts_study_site_code_idx on subject_facts
    (study_id, site_code collate "C", screening_number collate "C", subject_id)`.execute(db);

  // A search is a substring of the screening number, randomization number or initials, which no
  // index orders and no total holds: it is counted over the study's subjects. The stored lowercase
  // text (`search_text`) and this covering index make that an index-only scan of a few narrow
  // pages (~30 at 5,000 subjects instead of the table's ~150) with one strpos per subject.
  await sql`create index subject_facts_study_search_idx on subject_facts
    (study_id) include (site_id, search_text)`.execute(db);

  // The list's total for a status and a signature filter: subjects per site, status and signed or
  // not, as append-only deltas like `subject_fact_totals` (docs/decisions/subject-fact-totals.md).
  // A table of its own rather than a group column of `subject_fact_totals`: that table's groups
  // are what the dashboard tells apart (gender, age band…), and splitting each by signature would
  // make the dashboard read twice the rows; this one holds a few rows per site.
  await db.schema
    .createTable('subject_list_totals')
    .addColumn('study_id', 'integer', (col) => col.notNull())
    .addColumn('site_id', 'integer', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('signed', 'boolean', (col) => col.notNull())
    .addColumn('subjects', 'integer', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('subject_list_totals_study_site_idx')
    .on('subject_list_totals')
    .columns(['study_id', 'site_id'])
    .execute();
  // A trigger of its own beside `subject_facts_totals`: most changes of a facts row (a query
  // answered, a form saved) move neither key, and it returns before writing anything.
  await sql`
    create function subject_facts_move_list_totals() returns trigger language plpgsql as $$
    begin
      if tg_op = 'UPDATE'
        and (old.study_id, old.site_id, old.status, old.signature_state = 'signed')
        is not distinct from (new.study_id, new.site_id, new.status, new.signature_state = 'signed')
      then
        return null;
      end if;
      if tg_op in ('UPDATE', 'DELETE') then
        insert into subject_list_totals (study_id, site_id, status, signed, subjects)
        values (old.study_id, old.site_id, old.status, old.signature_state = 'signed', -1);
      end if;
      if tg_op in ('INSERT', 'UPDATE') then
        insert into subject_list_totals (study_id, site_id, status, signed, subjects)
        values (new.study_id, new.site_id, new.status, new.signature_state = 'signed', 1);
      end if;
      return null;
    end
    $$`.execute(db);
  // Created before the first fill: writers of `subject_facts` wait for this migration's commit, so
  // no change falls between the fill and the trigger.
  await sql`
    create trigger subject_facts_list_totals
    after insert or update or delete on subject_facts
    for each row execute function subject_facts_move_list_totals()`.execute(db);
  await sql`
    insert into subject_list_totals (study_id, site_id, status, signed, subjects)
    select study_id, site_id, status, signature_state = 'signed', count(*) from subject_facts
    group by study_id, site_id, status, signature_state = 'signed'`.execute(db);
}
