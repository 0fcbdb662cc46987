// Outliers within a subject's own series of one item (in visit order): a weight of 120 between 70s is a typo,
// a unit mix-up or a value of another subject, even when 120 kg is plausible for someone. Each point's robust
// z against the REST of the series, so the point does not soften its own reference. See README.md.
import { MAD_TO_SD, median, medianAbsoluteDeviation } from './robust-statistics.ts';

export interface SeriesOutlier {
  /** Position in the series as given. */
  index: number;
  value: number;
  /** Median of the other points. */
  expected: number;
  z: number;
}

export interface SeriesOutlierOptions {
  /** Shorter series (finite points) are not judged. Default 4. */
  minimumLength?: number;
  /** |z| above which a point is an outlier. Default 5. */
  threshold?: number;
  /**
   * The scale never goes under this fraction of the other points' median magnitude, so a flat series with
   * one small wobble (70, 70, 70, 70.4) is not an outlier. Default 0.05: with the default threshold a point
   * must differ from the rest by over 25% when the rest agree closely.
   */
  scaleFloorFraction?: number;
  /**
   * An absolute floor of the scale: the item's usual visit-to-visit variation, best `seriesScale` of every
   * subject's series of the item. A few points estimate their own spread poorly (three lab values can agree
   * by chance); without this floor a noisy item flags ordinary points (README.md has the rates). Default 0.
   */
  scaleFloor?: number;
}

export function seriesOutliers(
  series: readonly number[],
  options: SeriesOutlierOptions = {},
): SeriesOutlier[] {
  const minimumLength = Math.max(3, options.minimumLength ?? 4);
  const threshold = options.threshold ?? 5;
  const scaleFloorFraction = options.scaleFloorFraction ?? 0.05;
  const scaleFloor = Number.isFinite(options.scaleFloor) ? Math.max(0, options.scaleFloor as number) : 0;

  const points = series
    .map((value, index) => ({ value, index }))
    .filter((point) => Number.isFinite(point.value));
  if (points.length < minimumLength) return [];

  // Sorted once: the median of the rest is read off the sorted values with the point taken out.
  const sorted = points.map((point) => point.value).sort((a, b) => a - b);
  const outliers: SeriesOutlier[] = [];
  for (const [position, point] of points.entries()) {
    // Only a spike — away from both neighbours on the same side — can be told from the series'
    // course: a value that moves on and stays (a perforation healing, a weight lost) is a trend,
    // and so the first and last points, with one neighbour, are not judged.
    if (!isSpike(points[position - 1]?.value, point.value, points[position + 1]?.value)) continue;
    const rest = withoutOne(sorted, point.value);
    const expected = sortedMedian(rest);
    const floor = Math.max(scaleFloorFraction * Math.abs(expected), scaleFloor, 1e-9);
    const distance = Math.abs(point.value - expected);
    // The scale is at least the floor, so a point within threshold × floor is no outlier: skip the MAD
    // (most points of a long run of series end here).
    if (!(distance > threshold * floor)) continue;
    const scale = Math.max(MAD_TO_SD * medianAbsoluteDeviation(rest), floor);
    const z = (point.value - expected) / scale;
    if (Number.isFinite(z) && Math.abs(z) > threshold) {
      outliers.push({ index: point.index, value: point.value, expected, z });
    }
  }
  return outliers;
}

/** Whether `value` stands away from both its neighbours on the same side (both must exist). */
function isSpike(previous: number | undefined, value: number, next: number | undefined): boolean {
  if (previous === undefined || next === undefined) return false;
  return (value - previous) * (value - next) > 0;
}

/** The sorted values without one occurrence of `value` (which is among them). */
function withoutOne(sorted: readonly number[], value: number): number[] {
  const at = sorted.indexOf(value);
  return [...sorted.slice(0, at), ...sorted.slice(at + 1)];
}

function sortedMedian(sorted: readonly number[]): number {
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length % 2 === 1) return sorted[middle] as number;
  return ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/**
 * The usual visit-to-visit variation of an item, as an SD, from many subjects' series: the median absolute
 * difference of consecutive points × 1.4826 / √2 (for independent noise a difference has √2 times the SD).
 * Robust: an outlier touches only its two differences. 0 when there is no pair of consecutive points.
 */
export function seriesScale(seriesList: readonly (readonly number[])[]): number {
  const differences: number[] = [];
  for (const series of seriesList) {
    const finite = series.filter((value) => Number.isFinite(value));
    for (let index = 1; index < finite.length; index += 1) {
      differences.push(Math.abs((finite[index] as number) - (finite[index - 1] as number)));
    }
  }
  if (differences.length === 0) return 0;
  return (MAD_TO_SD * median(differences)) / Math.SQRT2;
}
