import {
  type IndicatorValue,
  type KriKey,
  kriKeys,
  type SiteIndicators,
  type SiteSummary,
  type ToleranceLimit,
} from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { SiteScope } from '../auth/permissions.ts';
import type { Database } from '../db/schema.ts';
import { trafficLight } from './tolerance-limits.ts';

/** What each ratio indicator's numerator over denominator is multiplied by (the medians are not ratios). */
const SCALE: Partial<Record<KriKey, number>> = {
  queryRate: 100,
  missingForms: 1,
  overdueVisits: 1,
  protocolDeviations: 1,
  adverseEventRate: 1,
  seriousAdverseEventRate: 1,
  screeningFailureRate: 100,
  sdvFindings: 100,
  correctionsPerForm: 1,
  overdueSaeReports: 100,
};

/**
 * The newest run's indicators of the sites in scope with their lights under the study's limits, the
 * value over every site in the scope beside each (a ratio summed over those sites; a median, which
 * does not sum, the whole study's), and each site's trend over the days kept. Reads stored rows on the
 * key (study_id, day, site_id, key).
 */
export async function readSiteIndicators(
  db: Kysely<Database>,
  studyId: number,
  sites: readonly SiteSummary[],
  scope: SiteScope,
  limits: readonly ToleranceLimit[],
  options: { trends: boolean },
): Promise<SiteIndicators[]> {
  const newest = await db
    .selectFrom('monitoring_indicator_days')
    .select('day')
    .where('study_id', '=', studyId)
    .orderBy('day', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!newest || sites.length === 0)
    return sites.map((site) => ({ site, subjects: 0, indicators: [], trends: [] }));
  const siteIds = [0, ...sites.map((site) => site.id)];
  const rows = await db
    .selectFrom('monitoring_indicator_days')
    .select(['site_id', 'key', 'day', 'value', 'numerator', 'denominator', 'subjects'])
    .where('study_id', '=', studyId)
    .where('site_id', 'in', siteIds)
    .$if(!options.trends, (query) => query.where('day', '=', newest.day))
    .orderBy('day')
    .execute();
  const current = rows.filter((row) => row.day === newest.day);
  const at = new Map(current.map((row) => [`${row.site_id}/${row.key}`, row]));
  const limitOf = new Map(limits.map((limit) => [limit.key, limit]));

  const studyValue = new Map<KriKey, number | null>();
  for (const key of kriKeys) {
    const scale = SCALE[key];
    if (scope === 'all' || scale === undefined) {
      studyValue.set(key, at.get(`0/${key}`)?.value ?? null);
      continue;
    }
    let numerator = 0;
    let denominator = 0;
    for (const site of sites) {
      const row = at.get(`${site.id}/${key}`);
      numerator += row?.numerator ?? 0;
      denominator += row?.denominator ?? 0;
    }
    studyValue.set(key, denominator > 0 ? (numerator * scale) / denominator : null);
  }

  return sites.map((site) => {
    const indicators: IndicatorValue[] = kriKeys.map((key) => {
      const row = at.get(`${site.id}/${key}`);
      const limit = limitOf.get(key);
      const value = row?.value ?? null;
      const denominator = row?.denominator ?? 0;
      return {
        key,
        value,
        numerator: row?.numerator ?? 0,
        denominator,
        light: limit ? trafficLight(limit, value, denominator) : 'none',
        studyValue: studyValue.get(key) ?? null,
      };
    });
    const trends = options.trends
      ? kriKeys.map((key) => ({
          key,
          points: rows
            .filter((row) => row.site_id === site.id && row.key === key)
            .map((row) => ({ day: row.day, value: row.value })),
        }))
      : [];
    return { site, subjects: at.get(`${site.id}/queryRate`)?.subjects ?? 0, indicators, trends };
  });
}
