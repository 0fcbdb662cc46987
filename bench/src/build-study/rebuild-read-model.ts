import { existsSync } from 'node:fs';
import type { Kysely } from 'kysely';
import type { Database } from '../../../apps/server/src/db/schema.ts';

// The read model (one row per subject with the list and dashboard facts) is written by the commands
// in the same transaction as the change. The bulk loader writes around the commands, so after
// copying it asks the server to rebuild that table — when this checkout has one. The module is
// imported by a computed path so that the bench compiles and runs before the read model exists too.

const readModelModule = new URL('../../../apps/server/src/read-model/rebuild-read-model.ts', import.meta.url);

/** Rebuilds the server's read model if it has one; says whether it did. */
export async function rebuildReadModelIfPresent(db: Kysely<Database>): Promise<boolean> {
  if (!existsSync(readModelModule)) return false;
  const loaded = (await import(readModelModule.href)) as {
    rebuildReadModel?: (db: Kysely<Database>) => Promise<unknown>;
  };
  if (typeof loaded.rebuildReadModel !== 'function')
    throw new Error(`${readModelModule.pathname} has no rebuildReadModel(db)`);
  await loaded.rebuildReadModel(db);
  return true;
}
