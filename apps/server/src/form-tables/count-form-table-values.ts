import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { FormTablesOptions } from './form-tables-scope.ts';
import { instancesInScope } from './form-tables-scope.ts';
import { loadTablesContext } from './tables-context.ts';

/**
 * The progress total of a form-table export: the stored values its tables will read (a repeating
 * group's stored rows count as one value, as the writers report them), in one COUNT. Each table
 * reads its form's and items' keys under every version it shows (tables-context.ts); keys no table
 * reads are not exported, so not counted.
 */
export async function countFormTableValues(
  db: Kysely<Database>,
  scope: FormTablesOptions['scope'],
  options: Pick<FormTablesOptions, 'maskPersonalData' | 'valuesAsOf'> = {},
): Promise<number> {
  const context = await loadTablesContext(db, { ...options, scope }, 0);
  // A masked plain item's values are not read (storedKeysOf), so not counted either.
  const keys = context.tables.flatMap((table) =>
    table.reads.formKeys.flatMap((formKey) => table.reads.itemKeys.map((itemKey) => `${formKey}.${itemKey}`)),
  );
  if (keys.length === 0) return 0;
  const row = await instancesInScope(db, scope)
    .innerJoin('item_values as iv', 'iv.form_instance_id', 'fi.id')
    .select(sql<string>`count(*)`.as('count'))
    .where(sql<string>`fi.form_key || '.' || iv.item_key`, 'in', keys)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
