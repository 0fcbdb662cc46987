import { flagLabResult, type LabSex } from '@cdms/contract';
import { type JsonValue, numericLabTests, type StudyDefinition, type SubjectData } from '@cdms/study';
import type { LabResultsTable } from '../db/schema.ts';
import {
  chooseLabRanges,
  type SiteLabRange,
  specimenDateOf,
} from '../lab-range-rules/applicable-lab-ranges.ts';

/**
 * A subject's numeric lab results as the read model stores them (`lab_results`), without what the
 * statement takes from the subject's row (study, site, its code, screening number). Pure: the save
 * computes them from the data it holds, the rebuild from the data it reads, and both flag exactly as
 * the form's range check does — the range in force on the specimen date for the subject's sex and
 * age (`chooseLabRanges`, the contract's `rangesInForceOn`), flagged by the contract's
 * `flagLabResult` (a limit itself is normal).
 */
export type LabResultInput = Omit<
  LabResultsTable,
  'subject_id' | 'study_id' | 'site_id' | 'site_code' | 'screening_number'
>;

/** A stored item value as text, as the listing shows a judgement (a code is a string already). */
function asText(value: JsonValue | undefined): string | null {
  if (value === undefined || value === null) return null;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The range and flag of one result: what a save stores and a range change recomputes. */
export function flagOf(
  siteRanges: readonly SiteLabRange[],
  subject: { sex: LabSex | null; age: number | null },
  testKey: string,
  specimenDate: string | null,
  value: number,
): Pick<LabResultInput, 'unit' | 'low' | 'high' | 'flag'> {
  // Without a specimen date no range is in force (the date is required on the form anyway).
  const range =
    specimenDate === null ? undefined : chooseLabRanges(siteRanges, subject, specimenDate).get(testKey);
  if (!range) return { unit: null, low: null, high: null, flag: null };
  return {
    unit: range.unit,
    low: range.low,
    high: range.high,
    flag: flagLabResult(value, range),
  };
}

export function labResultRowsOf(
  definition: StudyDefinition,
  subject: {
    sex: LabSex | null;
    age: number | null;
    data: SubjectData;
    /** The subject's form instances; lab forms holding data give rows. */
    instances: Iterable<{ id: number; visit_key: string; form_key: string; has_data: boolean }>;
  },
  siteRanges: readonly SiteLabRange[],
): LabResultInput[] {
  const tests = numericLabTests(definition);
  const labPanel = definition.roles?.labPanel;
  if (tests.length === 0 || !labPanel) return [];
  const rows: LabResultInput[] = [];
  for (const instance of subject.instances) {
    if (instance.form_key !== labPanel.form || !instance.has_data) continue;
    const values = (subject.data[instance.visit_key]?.[labPanel.form] ?? {}) as Record<string, JsonValue>;
    const specimenDate = specimenDateOf(definition, subject.data, instance.visit_key);
    for (const [order, test] of tests.entries()) {
      const value = values[test.resultItem];
      if (typeof value !== 'number') continue;
      rows.push({
        form_instance_id: instance.id,
        test_key: test.testKey,
        result_item: test.resultItem,
        visit_key: instance.visit_key,
        test_order: order,
        specimen_date: specimenDate,
        value,
        sex: subject.sex,
        age: subject.age,
        ...flagOf(siteRanges, subject, test.testKey, specimenDate, value),
        normal: asText(values[test.normalItem]),
        significance: asText(values[test.significanceItem]),
      });
    }
  }
  return rows;
}
