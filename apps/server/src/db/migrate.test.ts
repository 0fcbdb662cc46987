import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { describeWithDatabase } from '../../test/test-database.ts';
import type { DatabaseHandle } from './database.ts';
import { isVanishedRelationElsewhere, migrateToLatest } from './migrate.ts';

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

describe('another schema or its table vanishing while the migrator lists every table', () => {
  const missing = (relation: string) =>
    Object.assign(new Error(`relation "${relation}" does not exist`), { code: '42P01' });

  it('is tried again only when no migration failed and the table was in another schema', () => {
    expect(isVanishedRelationElsewhere({ error: missing('test_other.subject_visits') }, 'test_mine')).toBe(
      true,
    );
    // Our own schema's relation, or one without a schema: a real error of ours.
    expect(isVanishedRelationElsewhere({ error: missing('test_mine.subject_visits') }, 'test_mine')).toBe(
      false,
    );
    expect(isVanishedRelationElsewhere({ error: missing('subject_visits') }, 'test_mine')).toBe(false);
    // The whole schema gone mid-listing (CI, 2026-11-28): another's is tried again, ours is an error.
    const missingSchema = (name: string) =>
      Object.assign(new Error(`schema "${name}" does not exist`), { code: '3F000' });
    expect(isVanishedRelationElsewhere({ error: missingSchema('test_other') }, 'test_mine')).toBe(true);
    expect(isVanishedRelationElsewhere({ error: missingSchema('test_mine') }, 'test_mine')).toBe(false);
    // A migration of ours failed: it is reported, never run again.
    expect(
      isVanishedRelationElsewhere(
        { error: missing('test_other.subject_visits'), results: [{ status: 'Error' }] },
        'test_mine',
      ),
    ).toBe(false);
    expect(isVanishedRelationElsewhere({ error: new Error('other') }, 'test_mine')).toBe(false);
    expect(isVanishedRelationElsewhere({}, 'test_mine')).toBe(false);
  });
});
