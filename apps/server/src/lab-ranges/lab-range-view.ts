import type { LabRange } from '@cdms/contract';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';

/** The ranges as the API presents them, with the site's code and the last editor's name. */
export function selectLabRanges(db: Kysely<Database> | Transaction<Database>) {
  return db
    .selectFrom('lab_ranges')
    .innerJoin('sites', 'sites.id', 'lab_ranges.site_id')
    .innerJoin('users', 'users.id', 'lab_ranges.updated_by')
    .selectAll('lab_ranges')
    .select(['sites.code as site_code', 'users.name as updated_by_name']);
}

type LabRangeViewRow = Awaited<ReturnType<ReturnType<typeof selectLabRanges>['executeTakeFirstOrThrow']>>;

/** A range as the API presents it: what the audit keeps of it, with its id, site code and last edit. */
export function presentLabRange(row: LabRangeViewRow): LabRange {
  return {
    id: row.id,
    site: row.site_code,
    ...auditedLabRange(row),
    updatedBy: row.updated_by_name,
    updatedAt: row.updated_at.toISOString(),
  };
}

/** What the audit trail keeps of a range, before and after a change. */
export function auditedLabRange(row: {
  site_id: number;
  test_key: string;
  unit: string;
  low: number | null;
  high: number | null;
  sex: LabRange['sex'];
  age_min: number | null;
  age_max: number | null;
  effective_from: string;
  retired_at?: Date | null;
}) {
  return {
    siteId: row.site_id,
    testKey: row.test_key,
    unit: row.unit,
    low: row.low,
    high: row.high,
    sex: row.sex,
    ageMin: row.age_min,
    ageMax: row.age_max,
    effectiveFrom: row.effective_from,
    retired: (row.retired_at ?? null) !== null,
  };
}
