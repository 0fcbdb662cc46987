import { describe, expect, it } from 'vitest';
import {
  binomialUpperTailP,
  chiSquareP,
  logGamma,
  MAD_TO_SD,
  mean,
  median,
  medianAbsoluteDeviation,
  normalTailP,
  robustZ,
  standardDeviation,
  upperIncompleteGammaQ,
} from './robust-statistics.ts';
import { mulberry32, normalSource, normalValues } from './seeded-random.ts';

describe('robust statistics', () => {
  it('finds medians and MADs, also of negative numbers and even lengths', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([-5, -1, -3])).toBe(-3);
    expect(medianAbsoluteDeviation([1, 2, 3, 4, 100])).toBe(1);
    expect(medianAbsoluteDeviation([7, 7, 7])).toBe(0);
    expect(mean([1, 2, 3, 4])).toBe(2.5);
    expect(standardDeviation([2, 4, 4, 4, 5, 5, 7, 9])).toBeCloseTo(2.138, 3);
    expect(standardDeviation([5])).toBe(0);
  });

  it('says NaN for the median of nothing, and never throws', () => {
    expect(median([])).toBeNaN();
    expect(medianAbsoluteDeviation([])).toBeNaN();
    expect(mean([])).toBeNaN();
    expect(standardDeviation([])).toBe(0);
  });

  it('scales the MAD to an SD for normal data', () => {
    const values = normalValues(normalSource(mulberry32(1)), 20_000, 50, 10, 3);
    expect(MAD_TO_SD * medianAbsoluteDeviation(values)).toBeCloseTo(10, 0);
  });

  it('gives a robust z with a floor, never dividing by 0', () => {
    expect(robustZ(10, [1, 2, 3, 4, 5])).toBeCloseTo((10 - 3) / (1.4826 * 1), 6);
    expect(robustZ(5, [5, 5, 5])).toBe(0);
    expect(Number.isFinite(robustZ(6, [5, 5, 5]))).toBe(true);
    expect(robustZ(6, [5, 5, 5], 0.5)).toBe(2);
    expect(robustZ(6, [])).toBe(0);
  });

  it('matches known normal tail probabilities', () => {
    expect(normalTailP(0)).toBeCloseTo(0.5, 7);
    expect(normalTailP(1.96)).toBeCloseTo(0.025, 4);
    expect(normalTailP(-1.96)).toBeCloseTo(0.975, 4);
    expect(normalTailP(3.5)).toBeCloseTo(2.326e-4, 6);
    // The relative precision holds far out in the tail: P(Z > 6) = 9.866e-10.
    expect(normalTailP(6) / 9.8659e-10).toBeCloseTo(1, 3);
    expect(normalTailP(Number.POSITIVE_INFINITY)).toBe(0);
    expect(normalTailP(Number.NaN)).toBe(1);
  });

  it('matches known chi-square tail probabilities', () => {
    expect(chiSquareP(16.92, 9)).toBeCloseTo(0.05, 3);
    expect(chiSquareP(27.88, 9)).toBeCloseTo(0.001, 4);
    expect(chiSquareP(3.841, 1)).toBeCloseTo(0.05, 3);
    // df 2 has a closed form: exp(−x/2).
    expect(chiSquareP(3, 2)).toBeCloseTo(Math.exp(-1.5), 10);
    expect(chiSquareP(40, 2)).toBeCloseTo(Math.exp(-20), 15);
    expect(chiSquareP(0, 9)).toBe(1);
    expect(chiSquareP(-1, 9)).toBe(1);
    expect(chiSquareP(5, 0)).toBe(1);
    expect(chiSquareP(1e6, 9)).toBe(0);
    expect(upperIncompleteGammaQ(1, 2)).toBeCloseTo(Math.exp(-2), 12);
  });

  it('computes ln Γ', () => {
    expect(logGamma(1)).toBeCloseTo(0, 12);
    expect(logGamma(5)).toBeCloseTo(Math.log(24), 12);
    expect(logGamma(0.5)).toBeCloseTo(Math.log(Math.sqrt(Math.PI)), 12);
  });

  it('computes exact binomial upper tails', () => {
    // P(X ≥ 5), X ~ Bin(20, 0.05) = 0.002573
    expect(binomialUpperTailP(5, 20, 0.05)).toBeCloseTo(0.002573, 5);
    expect(binomialUpperTailP(0, 20, 0.05)).toBe(1);
    expect(binomialUpperTailP(21, 20, 0.05)).toBe(0);
    expect(binomialUpperTailP(1, 20, 0)).toBe(0);
    expect(binomialUpperTailP(10, 10, 0.5)).toBeCloseTo(1 / 1024, 12);
  });
});
