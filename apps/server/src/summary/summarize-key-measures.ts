import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { medianOf, type ReportRowCount, reportRowCounts } from '../reports/read-report-rows.ts';
import type { ReportContext } from '../reports/report-context.ts';

export interface MeasureStatsLine {
  visitKey: string;
  measure: string;
  group: string | null;
  n: number;
  mean: number | null;
  median: number | null;
}

export interface MeasureChangeLine {
  measure: string;
  group: string | null;
  n: number;
  meanFrom: number | null;
  meanTo: number | null;
  meanChange: number | null;
}

/** To one decimal, as the summary shows its figures. */
const oneDecimal = (value: number | null): number | null =>
  value === null ? null : Math.round(value * 10) / 10;

/** How many subjects had each value, with the group's parts. */
interface Histogram {
  group: string | null;
  values: Map<number, number>;
}

const countIn = (histogram: Histogram | undefined) =>
  [...(histogram?.values.values() ?? [])].reduce((sum, count) => sum + count, 0);
const sumIn = (histogram: Histogram | undefined) =>
  [...(histogram?.values ?? [])].reduce((sum, [value, count]) => sum + value * count, 0);

/**
 * Adds each count (group `head/measure` or `head/measure/group`, bucket the value) to the histogram
 * of its head, measure and group; with `byGroup` false the groups' rows are left out.
 */
function histogramsOf(counts: readonly ReportRowCount[], byGroup: boolean): Map<string, Histogram> {
  const histograms = new Map<string, Histogram>();
  for (const count of counts) {
    const [head = '', measure = '', group = null] = count.group_key.split('/');
    if (group !== null && !byGroup) continue;
    const key = `${head}/${measure}/${group ?? ''}`;
    const histogram = histograms.get(key) ?? { group, values: new Map<number, number>() };
    const value = Number(count.bucket);
    histogram.values.set(value, (histogram.values.get(value) ?? 0) + count.rows);
    histograms.set(key, histogram);
  }
  return histograms;
}

/**
 * The study's key measures (its `keyMeasures` role: number items of one form) per visit: n, mean and
 * median; and for subjects measured at both `fromVisit` and `toVisit` the means at each and the mean
 * change. From the totals of the read model's `keyMeasures` and `keyMeasureChanges` rows
 * (`read-model/summary-rows.ts`): how many subjects had each value, so the figures are those of the
 * subjects themselves without reading a row per subject. With `byGroup` both repeat per randomization
 * group; without it the groups' rows are left out.
 */
export async function summarizeKeyMeasures(
  db: Kysely<Database>,
  context: ReportContext,
  visitKeys: string[],
  change: { fromVisit: string; toVisit: string } | null,
  byGroup: boolean,
): Promise<{ stats: MeasureStatsLine[]; changes: MeasureChangeLine[] }> {
  if (visitKeys.length === 0) return { stats: [], changes: [] };
  const [measured, paired] = await Promise.all([
    reportRowCounts(db, context, { report: 'keyMeasures' }, { perSite: false }),
    change ? reportRowCounts(db, context, { report: 'keyMeasureChanges' }, { perSite: false }) : [],
  ]);
  const stats: MeasureStatsLine[] = [];
  for (const [key, histogram] of histogramsOf(measured, byGroup)) {
    const [visitKey = '', measure = ''] = key.split('/');
    const n = countIn(histogram);
    if (!visitKeys.includes(visitKey) || n === 0) continue;
    stats.push({
      visitKey,
      measure,
      group: histogram.group,
      n,
      mean: oneDecimal(sumIn(histogram) / n),
      median: oneDecimal(medianOf(histogram.values)),
    });
  }
  // Each measure's pairs: how many and the sum of their values at each end.
  const ends = new Map<string, { group: string | null; n: number; from: number; to: number }>();
  for (const count of paired) {
    const [, group = null] = count.group_key.split('/');
    if (group !== null && !byGroup) continue;
    const end = ends.get(count.group_key) ?? { group, n: 0, from: 0, to: 0 };
    if (count.bucket === 'from') {
      end.n += count.rows;
      end.from += count.value_sum;
    } else if (count.bucket === 'to') end.to += count.value_sum;
    ends.set(count.group_key, end);
  }
  const changes: MeasureChangeLine[] = [...ends].flatMap(([key, end]) =>
    end.n === 0
      ? []
      : [
          {
            measure: key.split('/')[0] ?? '',
            group: end.group,
            n: end.n,
            meanFrom: oneDecimal(end.from / end.n),
            meanTo: oneDecimal(end.to / end.n),
            meanChange: oneDecimal((end.to - end.from) / end.n),
          },
        ],
  );
  return { stats, changes };
}
