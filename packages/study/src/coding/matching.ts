/**
 * How a verbatim meets a dictionary name: case, width (NFKC) and runs of spaces do not matter, nor
 * spaces at either end. Exact matching compares the normalized forms; nothing fuzzier codes on its own.
 */
export function normalizeVerbatim(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

/** The one code an exact match gives, or null when none or several different codes match. */
export function uniqueMatch<T extends { code: string }>(candidates: readonly T[]): T | null {
  const codes = new Set(candidates.map((candidate) => candidate.code));
  return codes.size === 1 ? (candidates[0] ?? null) : null;
}
