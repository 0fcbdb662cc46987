import type { AppliedLabRange, LabSex } from '@cdms/contract';
import type { JsonValue, SubjectData } from '@cdms/study';
import { LAB_FORM_KEY, LAB_SPECIMEN_DATE_ITEM } from '@cdms/study';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { SOURCES } from '../subjects/subject-facts.ts';

/** What decides which of a site's ranges fits a subject: sex and age from the demographics form. */
export interface LabRangeSubject {
  siteId: number;
  sex: LabSex | null;
  age: number | null;
}

export function labRangeSubjectOf(siteId: number, data: SubjectData): LabRangeSubject {
  const { visitKey, formKey, gender, age } = SOURCES.demographics;
  const demographics = (data[visitKey]?.[formKey] ?? {}) as Record<string, JsonValue>;
  const sex = demographics[gender];
  const years = demographics[age];
  return {
    siteId,
    sex: sex === 'M' || sex === 'F' ? sex : null,
    age: typeof years === 'number' ? years : null,
  };
}

/** The specimen date saved on a visit's labTest form, if any. */
export function specimenDateOf(data: SubjectData, visitKey: string): string | null {
  const value = (data[visitKey]?.[LAB_FORM_KEY] as Record<string, JsonValue> | undefined)?.[
    LAB_SPECIMEN_DATE_ITEM
  ];
  return typeof value === 'string' ? value : null;
}

/**
 * The site's range per test that applies on `onDate` to this subject: in force (effective on or
 * before the date, not retired), sex and age limits fitting (a subject of unknown sex or age gets only
 * ranges without that limit); the newest first, and of equal dates the one with a sex limit.
 */
export async function applicableLabRanges(
  db: Kysely<Database> | Transaction<Database>,
  subject: LabRangeSubject,
  onDate: string,
): Promise<Map<string, AppliedLabRange>> {
  const rows = await db
    .selectFrom('lab_ranges')
    .select(['test_key', 'unit', 'low', 'high'])
    .where('site_id', '=', subject.siteId)
    .where('retired_at', 'is', null)
    .where('effective_from', '<=', onDate)
    .where((eb) =>
      eb.and([
        subject.sex === null
          ? eb('sex', 'is', null)
          : eb.or([eb('sex', 'is', null), eb('sex', '=', subject.sex)]),
        subject.age === null
          ? eb.and([eb('age_min', 'is', null), eb('age_max', 'is', null)])
          : eb.and([
              eb.or([eb('age_min', 'is', null), eb('age_min', '<=', subject.age)]),
              eb.or([eb('age_max', 'is', null), eb('age_max', '>=', subject.age)]),
            ]),
      ]),
    )
    .orderBy('test_key')
    .orderBy('effective_from', 'desc')
    .orderBy((eb) => eb.case().when('sex', 'is', null).then(1).else(0).end())
    .orderBy('id', 'desc')
    .execute();
  const ranges = new Map<string, AppliedLabRange>();
  for (const row of rows) {
    if (ranges.has(row.test_key)) continue;
    ranges.set(row.test_key, { testKey: row.test_key, unit: row.unit, low: row.low, high: row.high });
  }
  return ranges;
}
