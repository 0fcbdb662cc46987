import { flagLabResult, labRangeLimitsText } from '@cdms/contract';
import {
  type CheckResult,
  type JsonValue,
  numericLabTests,
  type StudyDefinition,
  type SubjectEvaluation,
} from '@cdms/study';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import {
  chooseLabRanges,
  labRangeSubjectOf,
  loadSiteLabRanges,
  type SiteLabRange,
  specimenDateOf,
} from './applicable-lab-ranges.ts';

/** The check id of the system query on a result outside the site's range without an NCS/CS judgement. */
export const LAB_OUT_OF_RANGE_CHECK = 'labTest.outOfRangeWithoutSignificance';

/**
 * The lab-range checks joined to the rules engine's results (issue 17): the ranges live in the
 * database, not the definition, so the engine cannot see them; the server adds one "query" check per
 * saved result outside the site's range whose clinical significance (NCS/CS) is not recorded. Every
 * path that keeps system queries in step with checks (save, query actions) calls this after
 * evaluating, so such a query opens and closes like any other system query.
 */
export async function addLabRangeChecks(
  db: Kysely<Database> | Transaction<Database>,
  definition: StudyDefinition,
  /** The subject's site, or the subject to look it up by. */
  of: { siteId: number } | { subjectId: number },
  evaluation: SubjectEvaluation,
  /** The site's ranges, when the caller read them already (a save does, with its subject). */
  known: { siteRanges?: SiteLabRange[] } = {},
): Promise<void> {
  const labForms = evaluation.forms.filter((form) => form.formKey === definition.roles?.labPanel?.form);
  if (labForms.length === 0) return;
  const tests = numericLabTests(definition);
  const siteId =
    'siteId' in of
      ? of.siteId
      : (
          await db
            .selectFrom('subjects')
            .select('site_id')
            .where('id', '=', of.subjectId)
            .executeTakeFirstOrThrow()
        ).site_id;
  const subject = labRangeSubjectOf(definition, siteId, evaluation.data);
  // The site's ranges read once for every lab form of the subject (a save evaluates them all).
  let siteRanges: SiteLabRange[] | undefined = known.siteRanges;
  for (const form of labForms) {
    const values = form.values as Record<string, JsonValue>;
    const specimenDate = specimenDateOf(definition, evaluation.data, form.visitKey);
    // Without a specimen date there is no range in force to judge by (the date is required anyway).
    if (specimenDate === null) continue;
    if (!tests.some((test) => typeof values[test.resultItem] === 'number')) continue;
    siteRanges ??= await loadSiteLabRanges(db, siteId);
    const ranges = chooseLabRanges(siteRanges, subject, specimenDate);
    for (const test of tests) {
      const value = values[test.resultItem];
      if (typeof value !== 'number') continue;
      const range = ranges.get(test.testKey);
      const flag = flagLabResult(value, range);
      if (!range || (flag !== 'H' && flag !== 'L')) continue;
      const significance = values[test.significanceItem];
      if (significance === 'NCS' || significance === 'CS') continue;
      const check: CheckResult = {
        visitKey: form.visitKey,
        formKey: form.formKey,
        itemKey: test.resultItem,
        path: `${form.visitKey}.${form.formKey}.${test.resultItem}`,
        checkId: LAB_OUT_OF_RANGE_CHECK,
        severity: 'query',
        message: outOfRangeMessage(flag, range),
      };
      form.checks.push(check);
      evaluation.checks.push(check);
    }
  }
}

function outOfRangeMessage(
  flag: 'H' | 'L',
  range: { low: number | null; high: number | null; unit: string },
) {
  const ko = flag === 'H' ? '높습니다(H)' : '낮습니다(L)';
  const en = flag === 'H' ? 'above (H)' : 'below (L)';
  return {
    ko: `결과가 기관 정상 범위(${labRangeLimitsText(range)})보다 ${ko}. 비정상 여부와 임상적 유의성(NCS/CS)을 기록하십시오.`,
    en: `The result is ${en} the site's normal range (${labRangeLimitsText(range)}). Please record abnormal and the clinical significance (NCS/CS).`,
  };
}
