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
}

export function seriesOutliers(
  series: readonly number[],
  options: SeriesOutlierOptions = {},
): SeriesOutlier[] {
  const minimumLength = Math.max(3, options.minimumLength ?? 4);
  const threshold = options.threshold ?? 5;
  const scaleFloorFraction = options.scaleFloorFraction ?? 0.05;

  const points = series
    .map((value, index) => ({ value, index }))
    .filter((point) => Number.isFinite(point.value));
  if (points.length < minimumLength) return [];

  const outliers: SeriesOutlier[] = [];
  for (const point of points) {
    const rest = points.filter((other) => other.index !== point.index).map((other) => other.value);
    const expected = median(rest);
    const scale = Math.max(
      MAD_TO_SD * medianAbsoluteDeviation(rest),
      scaleFloorFraction * Math.abs(expected),
      1e-9,
    );
    const z = (point.value - expected) / scale;
    if (Number.isFinite(z) && Math.abs(z) > threshold) {
      outliers.push({ index: point.index, value: point.value, expected, z });
    }
  }
  return outliers;
}
