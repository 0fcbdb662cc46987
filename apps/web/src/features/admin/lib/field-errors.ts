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
  'number_format_invalid',
  'number_format_needs_site',
  'number_format_needs_seq',
]);

function errorKeyOf(issue: z.ZodError['issues'][number]): string {
  if (namedErrors.has(issue.message)) return `validation.${issue.message}`;
  if (issue.code === 'too_small') return 'validation.required';
  if (issue.code === 'too_big') return 'validation.tooLong';
  return 'validation.invalid';
}

/**
 * The first error of each top-level field of a failed parse, as a key of the `admin` namespace's
 * `validation` group, so a form can show it under the right input in the user's language.
 */
export function fieldErrorKeys(error: z.ZodError): Record<string, string> {
  const keys: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? '');
    if (field in keys) continue;
    keys[field] = errorKeyOf(issue);
  }
  return keys;
}

/**
 * The same, by the issue's whole path (`sites.0.code`): for forms with rows of fields, so each
 * row's input shows its own error.
 */
export function pathErrorKeys(error: z.ZodError): Record<string, string> {
  const keys: Record<string, string> = {};
  for (const issue of error.issues) {
    const path = issue.path.map(String).join('.');
    if (!(path in keys)) keys[path] = errorKeyOf(issue);
  }
  return keys;
}
