import { type RawBuilder, sql } from 'kysely';

// What every part of the report rows (`report-rows.ts`, `summary-rows.ts`) selects, in the order of
// `report_rows`' columns.

/** A number as text that sorts as the number does (the order's tail is compared as text). */
export const padded = (value: RawBuilder<unknown>) => sql`lpad((${value})::text, 6, '0')`;

/**
 * The columns every part selects, in the table's order: `f` is the subject's `subject_facts` row.
 * `report`, `rowKey`, `groupKey`, `bucket`, `countsFrom`, `sortDate`, `sortRest` and `payload` are
 * the part's own.
 */
export function rowColumns(part: {
  report: string;
  rowKey: RawBuilder<unknown>;
  groupKey: RawBuilder<unknown>;
  bucket: RawBuilder<unknown>;
  countsFrom?: RawBuilder<unknown>;
  sortDate?: RawBuilder<unknown>;
  /** A listed row's place after its site and subject; counted rows (never listed) need none. */
  sortRest?: RawBuilder<unknown>;
  /** What a listed row shows; counted rows show nothing. */
  payload?: RawBuilder<unknown>;
  /** A number the report averages (summed in the totals); most rows have none. */
  value?: RawBuilder<unknown>;
}): RawBuilder<unknown> {
  return sql`f.subject_id, ${part.report}::text as report, ${part.rowKey} as row_key, f.study_id, f.site_id,
    ${part.groupKey} as group_key, ${part.bucket} as bucket, ${part.countsFrom ?? sql`null`}::date as counts_from,
    ${part.sortDate ?? sql`null`}::date as sort_date, f.site_code, f.screening_number,
    ${part.sortRest ?? sql`''`} as sort_rest, ${part.payload ?? sql`'{}'::jsonb`} as payload,
    ${part.value ?? sql`null`}::float8 as value`;
}

/** The subjects of the CTE `chosen` with their facts (`f`), which most parts select from. */
export const fromChosenFacts = sql`from chosen c join subject_facts f on f.subject_id = c.subject_id`;
