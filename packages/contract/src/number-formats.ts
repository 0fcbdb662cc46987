import { z } from 'zod';

/**
 * A study's screening-number and randomization-number formats (issue 45 item 1): a short template
 * of literal text and two placeholders.
 *
 *   {site}     the site's two-digit institution number
 *   {seq:N}    the number's sequence within the site, zero-padded to N digits (1 to 6)
 *   {seq}      the same sequence, not padded
 *
 * Literal text is letters, digits, `-`, `_` and `.`. Both placeholders are required, once each:
 * sequences count per site (one counter, one allocation list per site), so a number without its
 * site would repeat from one site to the next.
 */
export const defaultScreeningNumberFormat = 'S{site}-{seq:3}';
export const defaultRandomizationNumberFormat = 'R{site}{seq:3}';

export const numberFormatMaxLength = 30;

/** Why a template is refused, as a name the web's locale files (and the CLI's words) translate. */
export type NumberFormatProblem =
  | 'number_format_invalid'
  | 'number_format_needs_site'
  | 'number_format_needs_seq';

type Part = { literal: string } | { site: true } | { seq: number };

const partPattern = /\{site\}|\{seq(?::([1-6]))?\}|[A-Za-z0-9._-]+/y;

/** The template's parts, or undefined when some text is neither a placeholder nor allowed literal text. */
function parseNumberFormat(template: string): Part[] | undefined {
  const parts: Part[] = [];
  partPattern.lastIndex = 0;
  while (partPattern.lastIndex < template.length) {
    const match = partPattern.exec(template);
    if (!match) return undefined;
    if (match[0] === '{site}') parts.push({ site: true });
    else if (match[0].startsWith('{seq')) parts.push({ seq: match[1] ? Number(match[1]) : 0 });
    else parts.push({ literal: match[0] });
  }
  return parts;
}

/** What is wrong with a template, or null when it can be used. */
export function numberFormatProblem(template: string): NumberFormatProblem | null {
  const parts = parseNumberFormat(template);
  if (!parts || template.length === 0 || template.length > numberFormatMaxLength)
    return 'number_format_invalid';
  if (parts.filter((part) => 'site' in part).length !== 1) return 'number_format_needs_site';
  if (parts.filter((part) => 'seq' in part).length !== 1) return 'number_format_needs_seq';
  return null;
}

/** A subject's number from a valid template, e.g. `S{site}-{seq:3}` with 01 and 7 → `S01-007`. */
export function formatNumber(template: string, institutionNumber: string, sequence: number): string {
  const parts = parseNumberFormat(template);
  if (!parts) throw new Error(`not a number format: ${template}`);
  return parts
    .map((part) =>
      'literal' in part
        ? part.literal
        : 'site' in part
          ? institutionNumber
          : String(sequence).padStart(part.seq, '0'),
    )
    .join('');
}

export const numberFormatSchema = z
  .string()
  .trim()
  .superRefine((template, context) => {
    const problem = numberFormatProblem(template);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  });
