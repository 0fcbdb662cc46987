// Visits on days the clinic is closed: a site whose visit dates fall on Saturdays, Sundays and public
// holidays far more often than the other sites' may be back-filling dates (or entering the day of data entry
// as the visit date). Each site's off-day share against the other sites' pooled. See README.md.
import { binomialUpperTailP } from './robust-statistics.ts';

export interface WeekdayFinding {
  siteId: number;
  /** Visits per weekday, Monday … Sunday. */
  counts: number[];
  n: number;
  /** Visits on a Saturday, Sunday or holiday. */
  offDays: number;
  offDayShare: number;
  /** The other sites' pooled off-day share. */
  othersOffDayShare: number;
  /** Two-proportion z of the site's share against the others' (positive: more off-day visits). */
  z: number;
  /** One-sided p: exact binomial tail of the site's off-day count at the pooled share (see README). */
  pValue: number;
}

export interface WeekdayVisit {
  siteId: number;
  /** YYYY-MM-DD; anything else is skipped. */
  date: string;
}

export interface WeekdayOptions {
  /** Holiday dates (YYYY-MM-DD), off days besides Saturday and Sunday. Default none. */
  holidays?: ReadonlySet<string>;
  /** Sites with fewer dated visits are not judged. Default 20. */
  minimumPerSite?: number;
  /** p under which a site is a finding. Default 0.001. */
  alpha?: number;
}

/** Visits per weekday, Monday … Sunday; invalid dates are skipped. */
export function weekdayCounts(dates: readonly string[]): number[] {
  const counts = Array.from({ length: 7 }, () => 0);
  for (const date of dates) {
    const weekday = mondayBasedWeekday(date);
    if (weekday !== null) counts[weekday] = (counts[weekday] as number) + 1;
  }
  return counts;
}

/** 0 for Monday … 6 for Sunday; null when the text is not a real YYYY-MM-DD date. */
export function mondayBasedWeekday(date: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return null;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  const time = Date.UTC(year, month - 1, day);
  const parsed = new Date(time);
  if (parsed.getUTCFullYear() !== year || parsed.getUTCMonth() !== month - 1 || parsed.getUTCDate() !== day) {
    return null;
  }
  return (parsed.getUTCDay() + 6) % 7;
}

interface SiteTally {
  counts: number[];
  n: number;
  offDays: number;
}

/** Sites with clearly more off-day visits than the other sites, the strongest first. */
export function weekdayPattern(
  visits: readonly WeekdayVisit[],
  options: WeekdayOptions = {},
): WeekdayFinding[] {
  const holidays = options.holidays ?? new Set<string>();
  const minimumPerSite = Math.max(1, options.minimumPerSite ?? 20);
  const alpha = options.alpha ?? 0.001;

  const tallies = new Map<number, SiteTally>();
  for (const visit of visits) {
    const weekday = mondayBasedWeekday(visit.date);
    if (weekday === null) continue;
    let tally = tallies.get(visit.siteId);
    if (!tally) {
      tally = { counts: Array.from({ length: 7 }, () => 0), n: 0, offDays: 0 };
      tallies.set(visit.siteId, tally);
    }
    tally.counts[weekday] = (tally.counts[weekday] as number) + 1;
    tally.n += 1;
    if (weekday >= 5 || holidays.has(visit.date)) tally.offDays += 1;
  }

  let totalN = 0;
  let totalOff = 0;
  for (const tally of tallies.values()) {
    totalN += tally.n;
    totalOff += tally.offDays;
  }

  const findings: WeekdayFinding[] = [];
  for (const [siteId, tally] of tallies) {
    if (tally.n < minimumPerSite) continue;
    const othersN = totalN - tally.n;
    const othersOff = totalOff - tally.offDays;
    if (othersN === 0) continue;
    const share = tally.offDays / tally.n;
    const othersShare = othersOff / othersN;
    const pooled = totalOff / totalN;
    const standardError = Math.sqrt(pooled * (1 - pooled) * (1 / tally.n + 1 / othersN));
    const z = standardError > 0 ? (share - othersShare) / standardError : 0;
    if (!(share > othersShare)) continue;
    // The exact tail at the pooled share, not the normal tail of z: with a 5% share and 20 visits the
    // expected count is 1, where the normal approximation would call 5 off-day visits "p < 0.0001".
    const pValue = binomialUpperTailP(tally.offDays, tally.n, pooled);
    if (!(pValue < alpha)) continue;
    findings.push({
      siteId,
      counts: tally.counts,
      n: tally.n,
      offDays: tally.offDays,
      offDayShare: share,
      othersOffDayShare: othersShare,
      z,
      pValue,
    });
  }
  return findings.sort((a, b) => a.pValue - b.pValue || b.z - a.z);
}
