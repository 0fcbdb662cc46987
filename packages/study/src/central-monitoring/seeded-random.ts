// A small seeded random source for the methods' tests and false-positive simulations (never Math.random:
// a failing trial must be reproducible). Not exported from the package: only the tests import it.

/** mulberry32: a 32-bit state generator, uniform in [0, 1). Good enough for simulations, not for secrets. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Standard normal draws by Box–Muller from a uniform source. */
export function normalSource(uniform: () => number): () => number {
  return () => {
    const u = 1 - uniform(); // (0, 1]: the logarithm never sees 0
    const v = uniform();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  };
}

/** n normal values with the given mean and SD, rounded to `decimals`. */
export function normalValues(
  normal: () => number,
  n: number,
  centre: number,
  sd: number,
  decimals = 0,
): number[] {
  const factor = 10 ** decimals;
  return Array.from({ length: n }, () => Math.round((centre + sd * normal()) * factor) / factor);
}
