import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { pgliteParsers, wrapPGlite } from './database.ts';

/**
 * The query-workflow migration on a database that already holds system queries (an installation
 * from before issue 14): each gets its opening message (and the system's closure when the check
 * closed it), with the count and last-message time the list reads.
 */
it('backfills the threads of the queries that exist before it', async () => {
  const database = wrapPGlite(await PGlite.create({ parsers: pgliteParsers }));
  const db = database.db;
  try {
    const directory = path.join(import.meta.dirname, 'migrations');
    const files = fs.readdirSync(directory).sort();
    const target = '2026-11-26T1000-add-query-workflow.ts';
    for (const file of files.filter((name) => name < target)) {
      await (await import(path.join(directory, file))).up(db);
    }
    await sql`insert into users (email, name, password_hash) values ('u@x.kr', 'U', 'h')`.execute(db);
    await sql`insert into studies (code, title, content, status, registered_on) values ('S', 'S', '', 'active', '2026-01-01')`.execute(
      db,
    );
    await sql`insert into sites (study_id, code, name, institution_number) values (1, 'A', 'A', '01')`.execute(
      db,
    );
    await sql`insert into subjects (study_id, site_id, screening_number, initials, consent_date, created_by)
      values (1, 1, 'S01-001', 'AB', '2026-01-01', 1)`.execute(db);
    await sql`insert into queries (study_id, site_id, subject_id, visit_key, form_key, item_path, check_id, kind, status, message, opened_at, closed_at)
      values (1, 1, 1, 'v1', 'f', 'v1.f.a', 'c1', 'system', 'open', '{"ko":"열림","en":"Open"}', '2026-02-01T00:00:00Z', null),
             (1, 1, 1, 'v1', 'f', 'v1.f.b', 'c2', 'system', 'closed', '{"ko":"닫힘","en":"Closed"}', '2026-02-01T00:00:00Z', '2026-02-03T00:00:00Z')`.execute(
      db,
    );
    await (await import(path.join(directory, target))).up(db);
    const queries = await sql<{
      id: number;
      message_count: number;
      last_message_at: Date;
      assignee: string;
      reopened: boolean;
    }>`select id, message_count, last_message_at, assignee, reopened from queries order by id`.execute(db);
    expect(queries.rows).toEqual([
      {
        id: 1,
        message_count: 1,
        last_message_at: new Date('2026-02-01T00:00:00Z'),
        assignee: 'site',
        reopened: false,
      },
      {
        id: 2,
        message_count: 2,
        last_message_at: new Date('2026-02-03T00:00:00Z'),
        assignee: 'site',
        reopened: false,
      },
    ]);
    const messages = await sql<{ query_id: number; kind: string; text: { ko: string } }>`
      select query_id, kind, text from query_messages order by id`.execute(db);
    expect(messages.rows.map((row) => `${row.query_id} ${row.kind} ${row.text.ko}`)).toEqual([
      '1 opened 열림',
      '2 opened 닫힘',
      expect.stringMatching(/^2 closed_by_check /),
    ]);
  } finally {
    await database.close();
  }
});
