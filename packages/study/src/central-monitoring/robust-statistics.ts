// The small numerical tools every central-monitoring method is built on: medians and MADs (robust to the
// very outliers we look for), the robust z, and the two p-values we need (normal tail, chi-square tail).
// Pure functions; an empty input gives NaN where no number is meaningful (median of nothing).

/** The MAD of normal data times this estimates the standard deviation. */
export const MAD_TO_SD = 1.4826;

/** The median; NaN for no values (callers check the length first). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length % 2 === 1) return sorted[middle] as number;
  return ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** The median absolute deviation from the median (unscaled: multiply by MAD_TO_SD for an SD). */
export function medianAbsoluteDeviation(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const centre = median(values);
  return median(values.map((value) => Math.abs(value - centre)));
}

export function mean(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  let sum = 0;
  for (const value of values) sum += value;
  return sum / values.length;
}

/** The sample standard deviation (n − 1); 0 for fewer than two values. */
export function standardDeviation(values: readonly number[]): number {
  if (values.length < 2) return 0;
  const centre = mean(values);
  let squares = 0;
  for (const value of values) squares += (value - centre) ** 2;
  return Math.sqrt(squares / (values.length - 1));
}

/**
 * The robust z of `value` against `reference`: (value − median) / max(MAD × 1.4826, floor). The floor keeps
 * equal references (MAD 0) from dividing by zero; a tiny relative floor is always applied on top of it.
 */
export function robustZ(value: number, reference: readonly number[], floor = 0): number {
  if (reference.length === 0 || !Number.isFinite(value)) return 0;
  const centre = median(reference);
  const scale = Math.max(
    MAD_TO_SD * medianAbsoluteDeviation(reference),
    floor,
    1e-9 * Math.max(1, Math.abs(centre)),
  );
  const z = (value - centre) / scale;
  return Number.isFinite(z) ? z : 0;
}

/**
 * The complementary error function, Numerical Recipes' Chebyshev fit (erfcc): fractional error under
 * 1.2e-7 everywhere, so even tiny tail probabilities keep their digits.
 */
function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const polynomial =
    -z * z -
    1.26551223 +
    t *
      (1.00002368 +
        t *
          (0.37409196 +
            t *
              (0.09678418 +
                t *
                  (-0.18628806 +
                    t *
                      (0.27886807 +
                        t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))))))));
  const answer = t * Math.exp(polynomial);
  return x >= 0 ? answer : 2 - answer;
}

/** P(Z > z) for a standard normal Z (one-sided upper tail). */
export function normalTailP(z: number): number {
  if (Number.isNaN(z)) return 1;
  if (z === Number.POSITIVE_INFINITY) return 0;
  if (z === Number.NEGATIVE_INFINITY) return 1;
  return 0.5 * erfc(z / Math.SQRT2);
}

/** ln Γ(x) for x > 0 (Lanczos, g = 7, nine coefficients: about 15 correct digits). */
export function logGamma(x: number): number {
  const coefficients = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
  const shifted = x - 1;
  let sum = coefficients[0] as number;
  for (let index = 1; index < coefficients.length; index += 1) {
    sum += (coefficients[index] as number) / (shifted + index);
  }
  const t = shifted + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (shifted + 0.5) * Math.log(t) - t + Math.log(sum);
}

const GAMMA_EPSILON = 1e-14;
const GAMMA_MAX_ITERATIONS = 1000;

/**
 * The regularized upper incomplete gamma function Q(a, x) = Γ(a, x) / Γ(a): the series for x < a + 1, the
 * continued fraction (modified Lentz) otherwise, as in Numerical Recipes (gammq).
 */
export function upperIncompleteGammaQ(a: number, x: number): number {
  if (!(a > 0) || Number.isNaN(x)) return Number.NaN;
  if (x <= 0) return 1;
  if (x === Number.POSITIVE_INFINITY) return 0;
  const logPrefix = -x + a * Math.log(x) - logGamma(a);
  if (x < a + 1) {
    let term = 1 / a;
    let sum = term;
    for (let n = 1; n < GAMMA_MAX_ITERATIONS; n += 1) {
      term *= x / (a + n);
      sum += term;
      if (Math.abs(term) < Math.abs(sum) * GAMMA_EPSILON) break;
    }
    return Math.min(1, Math.max(0, 1 - sum * Math.exp(logPrefix)));
  }
  const tiny = 1e-300;
  let b = x + 1 - a;
  let c = 1 / tiny;
  let d = 1 / b;
  let fraction = d;
  for (let i = 1; i < GAMMA_MAX_ITERATIONS; i += 1) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < tiny) d = tiny;
    c = b + an / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    fraction *= delta;
    if (Math.abs(delta - 1) < GAMMA_EPSILON) break;
  }
  return Math.min(1, Math.max(0, Math.exp(logPrefix) * fraction));
}

/** P(X > chiSquare) for X chi-square distributed with the given degrees of freedom (upper tail). */
export function chiSquareP(chiSquare: number, degreesOfFreedom: number): number {
  if (!(degreesOfFreedom > 0) || Number.isNaN(chiSquare)) return 1;
  if (chiSquare <= 0) return 1;
  return upperIncompleteGammaQ(degreesOfFreedom / 2, chiSquare / 2);
}

/**
 * P(X ≥ successes) for X binomial(trials, probability): the exact upper tail, summed in log space (small
 * counts are where the normal approximation is too generous).
 */
export function binomialUpperTailP(successes: number, trials: number, probability: number): number {
  if (successes <= 0) return 1;
  if (successes > trials) return 0;
  if (probability <= 0) return 0;
  if (probability >= 1) return 1;
  const logChooseBase = logGamma(trials + 1);
  const logP = Math.log(probability);
  const logQ = Math.log1p(-probability);
  let total = 0;
  for (let k = successes; k <= trials; k += 1) {
    const logTerm =
      logChooseBase - logGamma(k + 1) - logGamma(trials - k + 1) + k * logP + (trials - k) * logQ;
    total += Math.exp(logTerm);
  }
  return Math.min(1, total);
}
