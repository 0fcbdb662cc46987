// Terminal-digit preference: measured values end in any digit about equally often; values read off by eye,
// rounded by habit or invented end in 0 and 5 (blood pressure is the classic). Chi-square of the last
// recorded digit's counts against the uniform distribution. See README.md.
import { chiSquareP, MAD_TO_SD, medianAbsoluteDeviation } from './robust-statistics.ts';

export interface TerminalDigitTest {
  /** How many values end in each digit 0–9. */
  counts: number[];
  n: number;
  chiSquare: number;
  degreesOfFreedom: number;
  pValue: number;
  /** Digits seen clearly more often than expected (standardized residual ≥ 3), most first. */
  preferredDigits: number[];
  /** The decimal place read: 0 for the units digit, 1 for the first decimal, … */
  decimals: number;
}

export interface TerminalDigitOptions {
  /** Fewer values → no finding. Default 50. */
  minimumValues?: number;
  /** p under which the preference is a finding. Default 0.001. */
  alpha?: number;
  /**
   * The values' spread (MAD × 1.4826) in units of the last digit under which the test is not judged:
   * digits are only uniform when values range over many of them (a score of 1–5 is not). Default 5.
   */
  minimumSpread?: number;
}

const MAXIMUM_DECIMALS = 6;
const PREFERENCE_RESIDUAL = 3;

/**
 * The last recorded digit of each value and the chi-square test of their uniformity; null when no value.
 * Integers give their units digit; decimals their digit at the item's usual precision (the most common
 * number of decimals among the values as written with up to 6 decimals), so a 37.0 among 36.5s counts a 0.
 */
export function terminalDigitTest(values: readonly number[]): TerminalDigitTest | null {
  const finite = values.filter((value) => Number.isFinite(value));
  if (finite.length === 0) return null;
  const decimals = usualDecimals(finite);
  const counts = Array.from({ length: 10 }, () => 0);
  for (const value of finite) {
    const digit = lastDigit(value, decimals);
    counts[digit] = (counts[digit] as number) + 1;
  }
  const n = finite.length;
  const expected = n / 10;
  let chiSquare = 0;
  for (const count of counts) chiSquare += (count - expected) ** 2 / expected;
  const degreesOfFreedom = 9;
  const preferredDigits = counts
    .map((count, digit) => ({ digit, count, residual: (count - expected) / Math.sqrt(expected) }))
    .filter((entry) => entry.residual >= PREFERENCE_RESIDUAL)
    .sort((a, b) => b.count - a.count || a.digit - b.digit)
    .map((entry) => entry.digit);
  return {
    counts,
    n,
    chiSquare,
    degreesOfFreedom,
    pValue: chiSquareP(chiSquare, degreesOfFreedom),
    preferredDigits,
    decimals,
  };
}

/** The test as a finding: only when there are enough values, they spread widely enough, and p < alpha. */
export function terminalDigitPreference(
  values: readonly number[],
  options: TerminalDigitOptions = {},
): TerminalDigitTest | null {
  const minimumValues = options.minimumValues ?? 50;
  const alpha = options.alpha ?? 0.001;
  const minimumSpread = options.minimumSpread ?? 5;
  const test = terminalDigitTest(values);
  if (test === null || test.n < minimumValues || !(test.pValue < alpha)) return null;
  const finite = values.filter((value) => Number.isFinite(value));
  const spreadInDigits = MAD_TO_SD * medianAbsoluteDeviation(finite) * 10 ** test.decimals;
  if (!(spreadInDigits >= minimumSpread)) return null;
  return test;
}

/** The number of decimals a value is written with (at most 6, trailing zeros dropped). */
export function decimalsOf(value: number): number {
  const written = Math.abs(value).toFixed(MAXIMUM_DECIMALS).replace(/0+$/, '');
  const point = written.indexOf('.');
  return point === -1 ? 0 : written.length - point - 1;
}

/** The most common number of decimals among the values; a tie goes to the finer precision. */
function usualDecimals(values: readonly number[]): number {
  const tally = Array.from({ length: MAXIMUM_DECIMALS + 1 }, () => 0);
  for (const value of values) {
    const decimals = decimalsOf(value);
    tally[decimals] = (tally[decimals] as number) + 1;
  }
  let best = 0;
  for (let decimals = 1; decimals <= MAXIMUM_DECIMALS; decimals += 1) {
    if ((tally[decimals] as number) >= (tally[best] as number)) best = decimals;
  }
  return best;
}

/** The digit at `decimals` places after the point (0: units), of the value rounded to that precision. */
export function lastDigit(value: number, decimals: number): number {
  const written = Math.abs(value).toFixed(decimals);
  return Number(written.charAt(written.length - 1));
}
