import type { EnrollmentReport, ReportFilter } from '@cdms/contract';
import { getFormLayout, type StudyDefinition } from '@cdms/study';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.ts';
import { codedOf, nothingInScope, type ReportContext } from './report-context.ts';

/**
 * Enrollment (issue 17): screened, screening failures (by reason) and randomized subjects per site and
 * per month, against each site's target (its own, else the definition's default). Three grouped counts over `subject_facts` (indexed by study,
 * site, status): a few dozen rows back whatever the trial's size. A subject counts as screened in the
 * month of its consent, a screening failure in that month too (the read model keeps no failure date),
 * randomized in the month (UTC+9) it was randomized.
 */

/** The per-site target when the study definition names none in `ENROLLMENT_TARGET_PARAMETER`. */
export const DEFAULT_ENROLLMENT_TARGET_PER_SITE = 10;
export const ENROLLMENT_TARGET_PARAMETER = 'enrollmentTargetPerSite';

export function enrollmentTargetOf(definition: StudyDefinition | null): number {
  const value = definition?.parameters?.[ENROLLMENT_TARGET_PARAMETER]?.value;
  return typeof value === 'number' && Number.isInteger(value) && value > 0
    ? value
    : DEFAULT_ENROLLMENT_TARGET_PER_SITE;
}

/** The code list of the screening failure reason (the `endOfStudy` role's item); none: codes shown as they are. */
function failureReasonCodeList(definition: StudyDefinition | null): string {
  const role = definition?.roles?.endOfStudy;
  if (!definition || !role) return '';
  const location = getFormLayout(definition, role.visit, role.form)?.items.get(role.screeningFailureReason);
  return location?.item.codeList ?? '';
}

interface CountRow {
  key: string;
  screened: number | string;
  screening_failures: number | string;
  randomized: number | string;
}

const counts = (row: CountRow) => ({
  screened: Number(row.screened),
  screeningFailures: Number(row.screening_failures),
  randomized: Number(row.randomized),
});

export async function enrollmentReport(
  db: Kysely<Database>,
  context: ReportContext,
  _filter: ReportFilter,
): Promise<EnrollmentReport> {
  const targetPerSite = enrollmentTargetOf(context.definition);
  if (nothingInScope(context))
    return { report: 'enrollment', targetPerSite, sites: [], months: [], failureReasons: [] };
  const inScope = sql`f.study_id = ${context.studyId} and f.site_id in (${sql.join(context.siteIds)})`;
  const randomizedMonth = sql`to_char((f.randomized_at at time zone 'UTC') + interval '9 hours', 'YYYY-MM')`;

  const [bySite, byConsentMonth, byRandomizedMonth, reasons, sites] = await Promise.all([
    sql<CountRow>`select f.site_id::text as key, count(*) as screened,
        count(*) filter (where f.status = 'screening_failure') as screening_failures,
        count(*) filter (where f.randomization_number is not null) as randomized
      from subject_facts f where ${inScope} group by f.site_id`.execute(db),
    sql<CountRow>`select f.consent_month as key, count(*) as screened,
        count(*) filter (where f.status = 'screening_failure') as screening_failures, 0 as randomized
      from subject_facts f where ${inScope} group by f.consent_month`.execute(db),
    sql<CountRow>`select ${randomizedMonth} as key, 0 as screened, 0 as screening_failures, count(*) as randomized
      from subject_facts f where ${inScope} and f.randomized_at is not null group by 1`.execute(db),
    sql<{ reason: string | null; count: number | string }>`select f.screening_failure_reason as reason,
        count(*) as count
      from subject_facts f where ${inScope} and f.status = 'screening_failure'
      group by f.screening_failure_reason order by count(*) desc, f.screening_failure_reason nulls last`.execute(
      db,
    ),
    db
      .selectFrom('sites')
      .select(['id', 'code', 'name', 'enrollment_target'])
      .where('id', 'in', context.siteIds)
      .orderBy('institution_number')
      .execute(),
  ]);

  const siteCounts = new Map(bySite.rows.map((row) => [Number(row.key), counts(row)]));
  const months = new Map<string, ReturnType<typeof counts>>();
  for (const row of [...byConsentMonth.rows, ...byRandomizedMonth.rows]) {
    const current = months.get(row.key) ?? { screened: 0, screeningFailures: 0, randomized: 0 };
    const added = counts(row);
    months.set(row.key, {
      screened: current.screened + added.screened,
      screeningFailures: current.screeningFailures + added.screeningFailures,
      randomized: current.randomized + added.randomized,
    });
  }
  const reasonCodeList = failureReasonCodeList(context.definition);
  return {
    report: 'enrollment',
    targetPerSite,
    sites: sites.map((site) => ({
      siteId: site.id,
      siteCode: site.code,
      siteName: site.name,
      target: site.enrollment_target ?? targetPerSite,
      targetIsDefault: site.enrollment_target === null,
      ...(siteCounts.get(site.id) ?? { screened: 0, screeningFailures: 0, randomized: 0 }),
    })),
    months: [...months.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([month, figures]) => ({ month, ...figures })),
    failureReasons: reasons.rows.map((row) => ({
      reason: codedOf(context.definition, reasonCodeList, row.reason),
      count: Number(row.count),
    })),
  };
}
