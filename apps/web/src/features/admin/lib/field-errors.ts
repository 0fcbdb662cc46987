import type { z } from 'zod';

/**
 * The contract's schemas name their own errors (`{ error: 'invalid_email' }`); these are the names
 * the admin locale files translate. Any other zod issue falls back to a message by issue kind.
 */
const namedErrors = new Set([
  'invalid_email',
  'invalid_contact',
  'invalid_site_code',
  'invalid_study_code',
  'invalid_institution_number',
]);

/**
 * The first error of each top-level field of a failed parse, as a key of the `admin` namespace's
 * `validation` group, so a form can show it under the right input in the user's language.
 */
export function fieldErrorKeys(error: z.ZodError): Record<string, string> {
  const keys: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? '');
    if (field in keys) continue;
    if (namedErrors.has(issue.message)) keys[field] = `validation.${issue.message}`;
    else if (issue.code === 'too_small') keys[field] = 'validation.required';
    else if (issue.code === 'too_big') keys[field] = 'validation.tooLong';
    else keys[field] = 'validation.invalid';
  }
  return keys;
}
