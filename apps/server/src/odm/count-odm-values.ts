import type { StudyDefinition } from '@cdms/study';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.ts';
import { loadAmendmentChain } from '../studies/amendment-chain.ts';
import { type ExportScope, subjectsInScope } from './load-export-batch.ts';
import { isMasked } from './odm-clinical-tree.ts';
import { buildOdmMetadata } from './odm-metadata.ts';
import { type MoveValue, valueMoverFrom } from './subject-as-of-current.ts';

/**
 * The values an ODM export of `scope` will write — its ItemData elements — counted before it runs,
 * for an export job's progress total. It is the count the file holds, not the number of stored rows:
 * a repeating section is one stored row that becomes an ItemData per filled cell of each of its rows,
 * and an empty value or a key the current definition no longer has is left out of the file (the
 * rules of odm-clinical-tree.ts). Counting rows made the job say 6,326 values of the living demo's
 * file that holds 6,528.
 *
 * One grouped query counts the non-empty values per (visit, form, key) and the non-empty cells per
 * column of the arrays of objects; the definition then decides which of those counts are written.
 * A value is empty as odmValueTexts has it: null, "", or an array of nothing but empties.
 */
export async function countOdmValues(
  db: Kysely<Database>,
  scope: ExportScope,
  options: { maskPersonalData?: boolean } = {},
): Promise<number> {
  const maskPersonalData = options.maskPersonalData ?? false;
  const definitionRow = await db
    .selectFrom('study_definitions')
    .select(['version', 'definition'])
    .where('study_id', '=', scope.studyId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!definitionRow) return 0;
  const metadata = buildOdmMetadata(definitionRow.definition as StudyDefinition, {
    code: '',
    version: definitionRow.version,
  });

  const nonEmpty = (json: ReturnType<typeof sql>) =>
    sql`jsonb_path_exists(${json}, 'strict $.** ? (@.type() == "number" || @.type() == "boolean" || @.type() == "object" || (@.type() == "string" && @ != ""))')`;
  const forms =
    scope.formKeys === undefined
      ? sql``
      : sql` and f.form_key in (${sql.join(scope.formKeys.length > 0 ? scope.formKeys : [null])})`;
  const subjects = subjectsInScope(db, scope).select('id');
  const { rows } = await sql<{
    definition_version: string | null;
    visit_key: string;
    form_key: string;
    item_key: string;
    column_key: string | null;
    count: number;
  }>`select s.definition_version, f.visit_key, f.form_key, v.item_key, c.column_key, count(*)::int as count
      from form_instances f
      join subjects s on s.id = f.subject_id
      join item_values v on v.form_instance_id = f.id
      cross join lateral (
        select null::text as column_key where ${nonEmpty(sql`v.value`)}
        union all
        select cell.key
          from jsonb_array_elements(case when jsonb_typeof(v.value) = 'array' then v.value else '[]'::jsonb end) as entry(row_value)
          cross join lateral jsonb_each(case when jsonb_typeof(entry.row_value) = 'object' then entry.row_value else '{}'::jsonb end) as cell(key, value)
          where ${nonEmpty(sql`cell.value`)}
      ) c
      where f.subject_id in (${subjects}) and f.has_data${forms}
      group by s.definition_version, f.visit_key, f.form_key, v.item_key, c.column_key`.execute(db);

  // A subject on an earlier version is written in the current version's terms: its keys moved first.
  const chain = await loadAmendmentChain(db, scope.studyId, definitionRow.version);
  const movers = new Map<string | null, MoveValue | null>();
  const moverOf = (version: string | null) => {
    if (!movers.has(version)) movers.set(version, valueMoverFrom(chain, version));
    return movers.get(version) ?? null;
  };
  let total = 0;
  for (const stored of rows) {
    const row = movedRow(moverOf(stored.definition_version), stored);
    if (!row) continue;
    const place = metadata.placeOf(row.visit_key, row.form_key, row.item_key);
    if (!place) continue;
    // A personal-data item of a masked export has no ItemData in the file (odm-clinical-tree.ts).
    if (place.kind === 'item') {
      if (row.column_key === null && !isMasked(place.item, maskPersonalData)) total += row.count;
      continue;
    }
    const column = row.column_key === null ? undefined : place.columns.get(row.column_key);
    if (column && !isMasked(column, maskPersonalData)) total += row.count;
  }
  return total;
}

/** A counted group's keys in the current version's terms (a cell's column moved inside its group's row); null when retired. */
function movedRow<
  Row extends { visit_key: string; form_key: string; item_key: string; column_key: string | null },
>(move: MoveValue | null, row: Row): Row | null {
  if (!move) return row;
  const probe = row.column_key === null ? null : [{ [row.column_key]: null }];
  const moved = move(row.visit_key, row.form_key, row.item_key, probe);
  if (!moved) return null;
  const cell = Array.isArray(moved.value)
    ? (moved.value[0] as Record<string, unknown> | undefined)
    : undefined;
  const column = row.column_key === null ? null : (Object.keys(cell ?? {})[0] ?? null);
  if (row.column_key !== null && column === null) return null;
  return { ...row, form_key: moved.formKey, item_key: moved.itemKey, column_key: column };
}
