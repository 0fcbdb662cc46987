import { type AppliedLabRange, type DatedLabRange, type LabSex, rangesInForceOn } from '@cdms/contract';
import type { JsonValue, StudyDefinition, SubjectData } from '@cdms/study';
import type { Expression, Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';

/** What decides which of a site's ranges fits a subject: sex and age from the demographics (a role). */
export interface LabRangeSubject {
  siteId: number;
  sex: LabSex | null;
  age: number | null;
}

/**
 * The ranges' sex of a stored sex code, by the study's `demographics` role: its female and male codes;
 * any other code (or a study without the role) fits no sex-limited range.
 */
export function labSexOf(definition: StudyDefinition, code: unknown): LabSex | null {
  const demographics = definition.roles?.demographics;
  if (!demographics || typeof code !== 'string') return null;
  if (code === demographics.femaleCode) return 'F';
  if (code === demographics.maleCode) return 'M';
  return null;
}

export function labRangeSubjectOf(
  definition: StudyDefinition,
  siteId: number,
  data: SubjectData,
): LabRangeSubject {
  const role = definition.roles?.demographics;
  if (!role) return { siteId, sex: null, age: null };
  const demographics = (data[role.visit]?.[role.form] ?? {}) as Record<string, JsonValue>;
  const years = demographics[role.age];
  return {
    siteId,
    sex: labSexOf(definition, demographics[role.sex]),
    age: typeof years === 'number' ? years : null,
  };
}

/** The specimen date saved on a visit's lab form (the `labPanel` role), if any. */
export function specimenDateOf(
  definition: StudyDefinition,
  data: SubjectData,
  visitKey: string,
): string | null {
  const labPanel = definition.roles?.labPanel;
  if (!labPanel) return null;
  const value = (data[visitKey]?.[labPanel.form] as Record<string, JsonValue> | undefined)?.[
    labPanel.specimenDate
  ];
  return typeof value === 'string' ? value : null;
}

/** A stored range as the choice below reads it. */
export interface SiteLabRange {
  id: number;
  test_key: string;
  unit: string;
  low: number | null;
  high: number | null;
  sex: LabSex | null;
  age_min: number | null;
  age_max: number | null;
  effective_from: string;
}

/** Every range of the site that is not retired (a few dozen rows: one per test, some per sex). */
export async function loadSiteLabRanges(
  db: Kysely<Database> | Transaction<Database>,
  siteId: number,
): Promise<SiteLabRange[]> {
  return siteLabRangesQuery(db, siteId).execute();
}

/** `loadSiteLabRanges` as a query a caller can nest in a statement of its own (a save's first read). */
export function siteLabRangesQuery(
  db: Kysely<Database> | Transaction<Database>,
  siteId: number | Expression<number>,
) {
  return rangesInForceQuery(db).where('site_id', '=', siteId);
}

/** `loadSiteLabRanges` of several sites in one statement (a rebuild over many subjects), by site. */
export async function loadLabRangesOfSites(
  db: Kysely<Database> | Transaction<Database>,
  siteIds: readonly number[],
): Promise<Map<number, SiteLabRange[]>> {
  const rangesOfSite = new Map<number, SiteLabRange[]>();
  if (siteIds.length === 0) return rangesOfSite;
  const ranges = await rangesInForceQuery(db).select('site_id').where('site_id', 'in', siteIds).execute();
  for (const range of ranges) {
    const list = rangesOfSite.get(range.site_id) ?? [];
    list.push(range);
    rangesOfSite.set(range.site_id, list);
  }
  return rangesOfSite;
}

/** The ranges not retired, as `SiteLabRange`s: the one list of their columns. */
function rangesInForceQuery(db: Kysely<Database> | Transaction<Database>) {
  return db
    .selectFrom('lab_ranges')
    .select(['id', 'test_key', 'unit', 'low', 'high', 'sex', 'age_min', 'age_max', 'effective_from'])
    .where('retired_at', 'is', null);
}

/**
 * The site's ranges that fit this subject, whatever their date: sex and age limits fitting (a subject
 * of unknown sex or age gets only ranges without that limit). The form read sends these, so the
 * browser follows the specimen date as it is typed.
 */
export function rangesFittingSubject(
  ranges: readonly SiteLabRange[],
  subject: Pick<LabRangeSubject, 'sex' | 'age'>,
): DatedLabRange[] {
  return ranges
    .filter(
      (range) =>
        (range.sex === null || range.sex === subject.sex) &&
        (range.age_min === null || (subject.age !== null && range.age_min <= subject.age)) &&
        (range.age_max === null || (subject.age !== null && range.age_max >= subject.age)),
    )
    .map((range) => ({
      id: range.id,
      testKey: range.test_key,
      unit: range.unit,
      low: range.low,
      high: range.high,
      effectiveFrom: range.effective_from,
      sexLimited: range.sex !== null,
    }));
}

/**
 * The range per test that applies on `onDate` to this subject: of the ranges fitting the subject, the
 * one in force on the date (the contract's `rangesInForceOn`: newest first, and of equal dates the one
 * with a sex limit, then the later entered). The lab page's stored flags are chosen by it too
 * (`read-model/lab-result-rows.ts`).
 */
export function chooseLabRanges(
  ranges: readonly SiteLabRange[],
  subject: Pick<LabRangeSubject, 'sex' | 'age'>,
  onDate: string,
): Map<string, AppliedLabRange> {
  return rangesInForceOn(rangesFittingSubject(ranges, subject), onDate);
}

/** The site's ranges that apply to this subject on `onDate`, by test key. */
export async function applicableLabRanges(
  db: Kysely<Database> | Transaction<Database>,
  subject: LabRangeSubject,
  onDate: string,
): Promise<Map<string, AppliedLabRange>> {
  return chooseLabRanges(await loadSiteLabRanges(db, subject.siteId), subject, onDate);
}
