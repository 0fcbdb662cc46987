import type { EnrollmentReport, ReportFilter } from '@cdms/contract';
import { getFormLayout, type StudyDefinition } from '@cdms/study';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { reportRowCounts } from './read-report-rows.ts';
import { codedOf, nothingInScope, type ReportContext } from './report-context.ts';

/**
 * Enrollment (issue 17): screened, screening failures (by reason) and randomized subjects per site and
 * per month, against each site's target (its own, else the definition's default). A subject counts as
 * screened in the month of its consent, a screening failure in that month too (the read model keeps
 * no failure date), randomized in the month (UTC+9) it was randomized. Read from the totals of the
 * read model's enrollment rows (`read-model/report-rows.ts`, issue 46): a few hundred rows whatever
 * the trial's size.
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

interface Figures {
  screened: number;
  screeningFailures: number;
  randomized: number;
}

const noFigures = (): Figures => ({ screened: 0, screeningFailures: 0, randomized: 0 });

/** Which figure each counted bucket of the enrollment rows adds to. */
const FIGURE_OF_BUCKET: Record<string, keyof Figures> = {
  screened: 'screened',
  screeningFailure: 'screeningFailures',
  randomized: 'randomized',
};

export async function enrollmentReport(
  db: Kysely<Database>,
  context: ReportContext,
  _filter: ReportFilter,
): Promise<EnrollmentReport> {
  const targetPerSite = enrollmentTargetOf(context.definition);
  if (nothingInScope(context))
    return { report: 'enrollment', targetPerSite, sites: [], months: [], failureReasons: [] };
  const [counts, sites] = await Promise.all([
    reportRowCounts(db, context, { report: 'enrollment' }),
    db
      .selectFrom('sites')
      .select(['id', 'code', 'name', 'enrollment_target'])
      .where('id', 'in', context.siteIds)
      .orderBy('institution_number')
      .execute(),
  ]);
  const siteCounts = new Map<number, Figures>();
  const months = new Map<string, Figures>();
  const reasons = new Map<string, number>();
  for (const count of counts) {
    if (count.bucket === 'failureReason') {
      reasons.set(count.group_key, (reasons.get(count.group_key) ?? 0) + count.rows);
      continue;
    }
    const figure = FIGURE_OF_BUCKET[count.bucket];
    if (!figure) continue;
    const site = siteCounts.get(count.site_id) ?? noFigures();
    site[figure] += count.rows;
    siteCounts.set(count.site_id, site);
    // A randomized subject whose time of randomization is unknown counts at its site, in no month.
    if (count.group_key === '') continue;
    const month = months.get(count.group_key) ?? noFigures();
    month[figure] += count.rows;
    months.set(count.group_key, month);
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
      ...(siteCounts.get(site.id) ?? noFigures()),
    })),
    months: [...months.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([month, figures]) => ({ month, ...figures })),
    // The most frequent first; among equals by reason, the unknown last (as SQL sorts nulls).
    failureReasons: [...reasons.entries()]
      .sort(([a, countA], [b, countB]) => countB - countA || byReasonNullsLast(a, b))
      .map(([reason, count]) => ({ reason: codedOf(context.definition, reasonCodeList, reason), count })),
  };
}

/** Reasons in code order, '' (no reason recorded) last. */
function byReasonNullsLast(a: string, b: string): number {
  if (a === b) return 0;
  if (a === '') return 1;
  if (b === '') return -1;
  return a < b ? -1 : 1;
}
