import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openPostgres } from './database.ts';

// The PostgreSQL connection prepares each statement text once (database.ts, PreparingClient).
// PostgreSQL only: PGlite runs in the process and has no connection to save round trips on.
const connectionString = process.env.TEST_DATABASE_URL;

describe.skipIf(!connectionString)('prepared statements on PostgreSQL', () => {
  const schema = `test_prepared_${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`;
  let database: DatabaseHandle;

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    // One connection, so every statement below meets the statements it prepared before.
    database = openPostgres({ connectionString: connectionString as string, schema, maxConnections: 1 });
    await sql`create table things (id int primary key, name text)`.execute(database.db);
    await sql`insert into things values (1, 'one'), (2, 'two')`.execute(database.db);
  });
  afterAll(async () => {
    await sql`drop schema ${sql.id(schema)} cascade`.execute(database.db);
    await database.close();
  });

  const preparedTexts = async () =>
    (
      await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(database.db)
    ).rows.map((row) => row.statement);

  it('prepares a statement once and runs it again with other values', async () => {
    const read = (id: number) =>
      database.db
        .selectFrom('things' as never)
        .selectAll()
        .where('id' as never, '=', id as never);
    expect(await read(1).execute()).toEqual([{ id: 1, name: 'one' }]);
    expect(await read(2).execute()).toEqual([{ id: 2, name: 'two' }]);
    const texts = (await preparedTexts()).filter((text) => text.includes('from "things"'));
    expect(texts).toEqual([read(1).compile().sql]);
  });

  it('survives a migration that changes the columns a prepared statement returns', async () => {
    const readAll = () =>
      database.db
        .selectFrom('things' as never)
        .selectAll()
        .where('id' as never, '=', 1 as never);
    await readAll().execute();
    await sql`alter table things add column size int`.execute(database.db);
    // Outside a transaction the statement is run again at once, with the new columns.
    expect(await readAll().execute()).toEqual([{ id: 1, name: 'one', size: null }]);
    expect(await readAll().execute()).toEqual([{ id: 1, name: 'one', size: null }]);
  });
});
