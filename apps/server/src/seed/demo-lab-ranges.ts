import type { LabRangeRequest, LabSex } from '@cdms/contract';
import type { StudyDefinition } from '@cdms/study';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { saveLabRange } from '../lab-ranges/save-lab-range.ts';
import { personByEmail } from './demo-subjects.ts';

type Limits = [low: number | null, high: number | null];

/**
 * Adult reference ranges as Korean hospital laboratories commonly report them; a test with a pair per
 * sex has its male and female range. Sites differ a little where methods do (PT, aPTT).
 */
const COMMON: Record<string, { unit: string; limits: Limits | Record<LabSex, Limits> }> = {
  wbc: { unit: '10³/µL', limits: [4, 10] },
  rbc: { unit: '10⁶/µL', limits: { M: [4.2, 6.3], F: [4, 5.4] } },
  hemoglobin: { unit: 'g/dL', limits: { M: [13, 17], F: [12, 16] } },
  hematocrit: { unit: '%', limits: { M: [39, 52], F: [36, 48] } },
  platelet: { unit: '10³/µL', limits: [150, 400] },
  bun: { unit: 'mg/dL', limits: [8, 23] },
  creatinine: { unit: 'mg/dL', limits: { M: [0.7, 1.3], F: [0.5, 1.1] } },
  ast: { unit: 'U/L', limits: [0, 40] },
  alt: { unit: 'U/L', limits: [0, 40] },
  albumin: { unit: 'g/dL', limits: [3.5, 5.2] },
  totalProtein: { unit: 'g/dL', limits: [6.4, 8.3] },
  totalBilirubin: { unit: 'mg/dL', limits: [0.2, 1.2] },
  glucose: { unit: 'mg/dL', limits: [70, 100] },
  cholesterol: { unit: 'mg/dL', limits: [null, 200] },
  egfr: { unit: 'mL/min/1.73m²', limits: [60, null] },
  pt: { unit: 'sec', limits: [9.5, 12.5] },
  aptt: { unit: 'sec', limits: [25, 36] },
};
const BY_SITE: Record<string, Partial<typeof COMMON>> = {
  '02': { pt: { unit: 'sec', limits: [10, 13] }, aptt: { unit: 'sec', limits: [26.5, 38] } },
};

/**
 * The living demo's normal ranges (issue 17): every numeric lab test at each site, entered by the data
 * manager through the command the API uses (audited), before the subjects' forms are saved, so the
 * saves flag results against them: a few fasting glucose and cholesterol values above the range
 * without a clinical judgement raise system queries, and the subjects with known diabetes show as
 * out of range but judged not clinically significant.
 */
export async function seedDemoLabRanges(
  db: Kysely<Database>,
  input: {
    studyId: number;
    /** The definition the seed installed: its lab panel names the tests. */
    definition: StudyDefinition;
    siteIds: ReadonlyMap<string, number>;
    dataManager: string;
  },
): Promise<void> {
  const dm = await personByEmail(db, input.dataManager);
  for (const [institution, siteId] of input.siteIds) {
    const ranges = { ...COMMON, ...BY_SITE[institution] };
    for (const [testKey, range] of Object.entries(ranges)) {
      if (!range) continue;
      const bySex: [LabSex | null, Limits][] = Array.isArray(range.limits)
        ? [[null, range.limits]]
        : [
            ['M', range.limits.M],
            ['F', range.limits.F],
          ];
      for (const [sex, [low, high]] of bySex) {
        const request: LabRangeRequest = {
          siteId,
          testKey,
          unit: range.unit,
          low,
          high,
          sex,
          ageMin: null,
          ageMax: null,
          effectiveFrom: '2024-01-01',
        };
        await saveLabRange(db, dm.principal, dm.actor, {
          studyId: input.studyId,
          definition: input.definition,
          request,
        });
      }
    }
  }
}
