import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.ts';
import { currentStudyDefinition } from '../studies/study-definitions.ts';
import type { FormTablesScope } from './form-tables-scope.ts';
import { instancesInScope } from './form-tables-scope.ts';
import { formTablesOf, storedKeysOf } from './table-layout.ts';

/**
 * The progress total of a form-table export: the stored values its tables will read (a repeating
 * group's stored rows count as one value, as the writers report them), in one COUNT. Keys the
 * current definition no longer has are not exported, so not counted.
 */
export async function countFormTableValues(
  db: Kysely<Database>,
  scope: FormTablesScope,
  options: { maskPersonalData?: boolean } = {},
): Promise<number> {
  const current = await currentStudyDefinition(db, scope.studyId);
  if (!current) return 0;
  // A masked plain item's values are not read (storedKeysOf), so not counted either.
  const tables = formTablesOf(current.definition, scope.formKeys, options.maskPersonalData ?? false);
  const keys = tables.flatMap((table) => storedKeysOf(table).map((key) => `${table.formKey}.${key}`));
  if (keys.length === 0) return 0;
  const row = await instancesInScope(db, scope)
    .innerJoin('item_values as iv', 'iv.form_instance_id', 'fi.id')
    .select(sql<string>`count(*)`.as('count'))
    .where(sql<string>`fi.form_key || '.' || iv.item_key`, 'in', keys)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
