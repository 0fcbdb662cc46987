/** U+0000 or a lone surrogate: with the `u` flag a valid surrogate pair is one code point, not `\p{Cs}`. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding NUL is the point.
const forbiddenCharacter = /[\u0000\p{Cs}]/u;

/**
 * What text the API accepts anywhere (bodies, query strings, path parameters): valid Unicode without
 * NUL. PostgreSQL cannot store U+0000 in text and a lone surrogate has no UTF-8 form; either would fail
 * in the database (a 500) or be replaced by U+FFFD and stored as something the user never sent.
 */
export function isAcceptableText(text: string): boolean {
  return !forbiddenCharacter.test(text);
}

/** Deepest nesting of arrays and objects a JSON body may have; no request of ours needs more than a few. */
export const MAX_JSON_DEPTH = 32;

export type JsonProblem = 'invalid_text' | 'too_deep' | 'forbidden_key';

/**
 * The first problem of a parsed JSON value: a string (key or value) that is not acceptable text, nesting
 * deeper than MAX_JSON_DEPTH, or a key that could reach an object's prototype (`__proto__`, and
 * `constructor.prototype`, which Fastify's own parser refused too).
 */
export function findJsonProblem(value: unknown, depth = 0): JsonProblem | null {
  if (typeof value === 'string') return isAcceptableText(value) ? null : 'invalid_text';
  if (value === null || typeof value !== 'object') return null;
  if (depth >= MAX_JSON_DEPTH) return 'too_deep';
  if (Array.isArray(value)) {
    for (const entry of value) {
      const problem = findJsonProblem(entry, depth + 1);
      if (problem) return problem;
    }
    return null;
  }
  for (const [key, entry] of Object.entries(value)) {
    if (!isAcceptableText(key)) return 'invalid_text';
    if (key === '__proto__') return 'forbidden_key';
    if (key === 'constructor' && entry !== null && typeof entry === 'object' && 'prototype' in entry)
      return 'forbidden_key';
    const problem = findJsonProblem(entry, depth + 1);
    if (problem) return problem;
  }
  return null;
}
