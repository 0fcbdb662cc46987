// One item's values per site, each site against the others: a shifted mean (a miscalibrated device, a
// misunderstood unit), a too-wide spread (sloppy entry) and a too-narrow spread — invented values tend to
// cluster near a typical number. Robust z of each site's mean and standard deviation against every site's
// (median and MAD), so the odd site does not hide itself by pulling the reference. See README.md.
import { mean, median, normalTailP, robustZ, standardDeviation } from './robust-statistics.ts';

export interface SiteValues {
  siteId: number;
  values: readonly number[];
}

export interface SiteDistributionFinding {
  kind: 'siteMean' | 'siteVariance' | 'lowVariance';
  siteId: number;
  /** Robust z of the site's statistic against every judged site's (median, MAD × 1.4826, with a floor). */
  z: number;
  /** Normal p of z: two-sided for siteMean, one-sided for the variance kinds. */
  pValue: number;
  /** The site's mean (siteMean) or standard deviation (the variance kinds). */
  siteStatistic: number;
  /** Median of the other judged sites' same statistic. */
  othersMedian: number;
  /** Values at the site. */
  n: number;
}

export interface SiteDistributionOptions {
  /** Sites with fewer values are not judged (and not part of the reference). Default 10. */
  minimumPerSite?: number;
  /** Fewer judged sites than this → no findings. Default 3. */
  minimumSites?: number;
  /** |z| at or above which a site is a finding. Default 3.5. */
  threshold?: number;
}

interface SiteSummary {
  siteId: number;
  n: number;
  mean: number;
  sd: number;
}

export function compareSiteDistributions(
  sites: readonly SiteValues[],
  options: SiteDistributionOptions = {},
): SiteDistributionFinding[] {
  const minimumPerSite = Math.max(2, options.minimumPerSite ?? 10);
  const minimumSites = Math.max(2, options.minimumSites ?? 3);
  const threshold = options.threshold ?? 3.5;

  const judged: SiteSummary[] = [];
  for (const site of sites) {
    const values = site.values.filter((value) => Number.isFinite(value));
    if (values.length < minimumPerSite) continue;
    judged.push({ siteId: site.siteId, n: values.length, mean: mean(values), sd: standardDeviation(values) });
  }
  if (judged.length < minimumSites) return [];

  // The floors: what sampling alone would spread the site statistics by, from the pooled within-site SD and
  // the typical site size. With few sites the MAD of their means can come out near 0 by chance; the floor
  // keeps an ordinary site from looking extreme then (and equal sites from dividing by 0).
  const pooledSd = Math.sqrt(mean(judged.map((site) => site.sd ** 2)));
  const typicalN = median(judged.map((site) => site.n));
  const meanFloor = pooledSd / Math.sqrt(typicalN) || 0;
  const sdFloor = pooledSd / Math.sqrt(2 * (typicalN - 1)) || 0;

  const means = judged.map((site) => site.mean);
  const sds = judged.map((site) => site.sd);
  const findings: SiteDistributionFinding[] = [];
  for (const [index, site] of judged.entries()) {
    const othersMeans = means.filter((_, other) => other !== index);
    const othersSds = sds.filter((_, other) => other !== index);

    const meanZ = robustZ(site.mean, means, meanFloor);
    if (Math.abs(meanZ) >= threshold) {
      findings.push({
        kind: 'siteMean',
        siteId: site.siteId,
        z: meanZ,
        pValue: Math.min(1, 2 * normalTailP(Math.abs(meanZ))),
        siteStatistic: site.mean,
        othersMedian: median(othersMeans),
        n: site.n,
      });
    }
    const sdZ = robustZ(site.sd, sds, sdFloor);
    if (sdZ >= threshold || sdZ <= -threshold) {
      findings.push({
        kind: sdZ > 0 ? 'siteVariance' : 'lowVariance',
        siteId: site.siteId,
        z: sdZ,
        pValue: normalTailP(Math.abs(sdZ)),
        siteStatistic: site.sd,
        othersMedian: median(othersSds),
        n: site.n,
      });
    }
  }
  return findings.sort((a, b) => Math.abs(b.z) - Math.abs(a.z));
}
