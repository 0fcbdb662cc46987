import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { describeWithDatabase } from '../../test/test-database.ts';
import type { DatabaseHandle } from './database.ts';
import { migrateToLatest } from './migrate.ts';

async function currentSchema(database: DatabaseHandle): Promise<string> {
  const result = await sql<{ schema: string }>`select current_schema() as schema`.execute(database.db);
  return result.rows[0]?.schema ?? 'public';
}

describe('migration files', () => {
  it('are named <UTC timestamp>-<what>.ts and export only `up`', async () => {
    const directory = path.join(import.meta.dirname, 'migrations');
    const files = fs.readdirSync(directory);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      expect(file).toMatch(/^\d{4}-\d{2}-\d{2}T\d{4}-[a-z0-9-]+\.ts$/);
      const module = await import(path.join(directory, file));
      expect(Object.keys(module)).toEqual(['up']);
    }
  });
});

describeWithDatabase('migrateToLatest', (database) => {
  it('has migrated the test database, and a second run does nothing', async () => {
    const tables = await database()
      .db.introspection.getTables()
      .then((list) => list.map((table) => table.name));
    expect(tables).toContain('app_meta');
    expect(
      await migrateToLatest(
        database().db,
        database().kind === 'postgres' ? await currentSchema(database()) : 'public',
      ),
    ).toEqual([]);
  });
});
