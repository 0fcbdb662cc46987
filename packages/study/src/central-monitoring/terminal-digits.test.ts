import { describe, expect, it } from 'vitest';
import { mulberry32, normalSource, normalValues } from './seeded-random.ts';
import { decimalsOf, lastDigit, terminalDigitPreference, terminalDigitTest } from './terminal-digits.ts';

// The rate README.md documents: at most 0.5% of clean item tests are findings (alpha is 0.1%; measured 0.1%).
const DOCUMENTED_RATE = 0.005;

describe('terminalDigitTest', () => {
  it('reads the units digit of integers and the usual last decimal of decimals', () => {
    expect(terminalDigitTest([120, 135, -37, 8])?.counts).toEqual([1, 0, 0, 0, 0, 1, 0, 1, 1, 0]);
    // Temperatures written with one decimal: 37 counts as 37.0, a 0.
    const temperatures = terminalDigitTest([36.5, 37, 36.8, 36.9, -0.3]);
    expect(temperatures?.decimals).toBe(1);
    expect(temperatures?.counts).toEqual([1, 0, 0, 1, 0, 1, 0, 0, 1, 1]);
    expect(decimalsOf(36.5)).toBe(1);
    expect(decimalsOf(0.1 + 0.2)).toBe(1);
    expect(decimalsOf(1.234567891)).toBe(6);
    expect(decimalsOf(-12)).toBe(0);
    expect(lastDigit(23.456, 1)).toBe(5);
  });

  it('says null for no values, and tests even a few (for charts)', () => {
    expect(terminalDigitTest([])).toBeNull();
    expect(terminalDigitTest([Number.NaN])).toBeNull();
    const one = terminalDigitTest([5]);
    expect(one?.n).toBe(1);
    expect(Number.isFinite(one?.chiSquare)).toBe(true);
    expect(Number.isFinite(one?.pValue)).toBe(true);
  });

  it('computes the chi-square against uniform digits', () => {
    // Every digit ten times: chi-square 0, p 1.
    const uniform = Array.from({ length: 100 }, (_, index) => 100 + index);
    const test = terminalDigitTest(uniform);
    expect(test?.chiSquare).toBe(0);
    expect(test?.pValue).toBe(1);
    expect(test?.degreesOfFreedom).toBe(9);
    expect(test?.preferredDigits).toEqual([]);
  });
});

describe('terminalDigitPreference', () => {
  it('finds blood pressures rounded to 0 and 5 at one site of eight', () => {
    const normal = normalSource(mulberry32(11));
    const sites = Array.from({ length: 8 }, () => normalValues(normal, 80, 120, 15));
    const rounded = (sites[5] as number[]).map((value) => Math.round(value / 5) * 5);
    sites[5] = rounded;
    const findings = sites.map((values) => terminalDigitPreference(values));
    expect(findings.map((finding) => finding !== null)).toEqual([
      false,
      false,
      false,
      false,
      false,
      true,
      false,
      false,
    ]);
    const finding = findings[5];
    expect(finding?.preferredDigits.sort()).toEqual([0, 5]);
    expect(finding?.pValue).toBeLessThan(1e-10);
    expect(finding?.counts.reduce((sum, count) => sum + count, 0)).toBe(80);
  });

  it('finds a preference in decimals (temperatures always ending in .0 or .5)', () => {
    const normal = normalSource(mulberry32(12));
    const values = normalValues(normal, 100, 36.8, 1.2, 1).map((value) => Math.round(value * 2) / 2);
    // Written with one decimal, 37 is 37.0: the digits are 0 and 5.
    const finding = terminalDigitPreference(values);
    expect(finding?.decimals).toBe(1);
    expect(finding?.preferredDigits.sort()).toEqual([0, 5]);
  });

  it("reads the item's defined decimals when given: a one-decimal item mostly rounded to whole numbers", () => {
    const uniform = mulberry32(16);
    const normal = normalSource(uniform);
    // Temperatures, SD 1.2 °C, with one decimal — but 70% written as whole degrees.
    const values = normalValues(normal, 300, 36.8, 1.2, 1).map((value) =>
      uniform() < 0.7 ? Math.round(value) : value,
    );
    // Guessed precision: whole numbers are the most common, so the units digit is read, which spans too few.
    expect(terminalDigitTest(values)?.decimals).toBe(0);
    expect(terminalDigitPreference(values)).toBeNull();
    const finding = terminalDigitPreference(values, { decimals: 1 });
    expect(finding?.decimals).toBe(1);
    expect(finding?.preferredDigits).toEqual([0]);
    // Nonsense decimals fall back to the guess.
    expect(terminalDigitTest(values, { decimals: -1 })?.decimals).toBe(0);
    expect(terminalDigitTest(values, { decimals: 1.5 })?.decimals).toBe(0);
  });

  it(`stays quiet on clean data: at most ${DOCUMENTED_RATE * 100}% of 500 tests`, () => {
    const uniform = mulberry32(13);
    const normal = normalSource(uniform);
    let findings = 0;
    for (let trial = 0; trial < 500; trial += 1) {
      const n = 50 + Math.floor(uniform() * 450);
      // Alternate integer blood pressures and one-decimal weights.
      const values = trial % 2 === 0 ? normalValues(normal, n, 120, 15) : normalValues(normal, n, 70, 12, 1);
      if (terminalDigitPreference(values) !== null) findings += 1;
    }
    expect(findings / 500).toBeLessThanOrEqual(DOCUMENTED_RATE);
  });

  it('needs enough values, and values spread over enough digits', () => {
    expect(terminalDigitPreference([])).toBeNull();
    expect(terminalDigitPreference([120, 125, 130, 135, 140])).toBeNull();
    // A 1–5 score always ends in 1–5: not a preference, just a narrow scale.
    const uniform = mulberry32(14);
    const scores = Array.from({ length: 500 }, () => 1 + Math.floor(uniform() * 5));
    expect(terminalDigitTest(scores)?.pValue).toBeLessThan(0.001);
    expect(terminalDigitPreference(scores)).toBeNull();
    expect(terminalDigitPreference(scores, { minimumSpread: 0 })).not.toBeNull();
    // All-equal values: no spread, no finding, no NaN.
    const equal = Array.from({ length: 100 }, () => 120);
    expect(terminalDigitPreference(equal)).toBeNull();
    expect(Number.isFinite(terminalDigitTest(equal)?.pValue)).toBe(true);
  });

  it('works on negative numbers', () => {
    const normal = normalSource(mulberry32(15));
    const changes = normalValues(normal, 200, -10, 20).map((value) => Math.round(value / 10) * 10);
    expect(terminalDigitPreference(changes)?.preferredDigits).toEqual([0]);
  });
});
