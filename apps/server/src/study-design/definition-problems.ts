import type { DefinitionProblem } from '@cdms/contract';
import type { z } from 'zod';

/** At most this many problems are listed; a document with more gets a last line saying how many more. */
export const MAX_LISTED_PROBLEMS = 200;

/** A place in the document as a JSON Pointer (RFC 6901): `/forms/3/sections/0/items/2/type`, `` for the root. */
export function jsonPointer(path: readonly PropertyKey[]): string {
  return path.map((part) => `/${String(part).replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');
}

const list = (values: readonly unknown[]) => values.map((value) => JSON.stringify(value)).join(', ');

/** One zod issue in both languages. The shape issues are worded here; the cross-checks word their own. */
function messageOf(issue: z.core.$ZodIssue): DefinitionProblem['message'] {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined
        ? { ko: '필수 항목이 없습니다.', en: 'Required, but missing.' }
        : {
            ko: `형식이 맞지 않습니다(${issue.expected} 필요).`,
            en: `Wrong type: ${issue.expected} expected.`,
          };
    case 'unrecognized_keys':
      return {
        ko: `알 수 없는 속성입니다: ${list(issue.keys)}`,
        en: `Unknown properties: ${list(issue.keys)}`,
      };
    case 'invalid_value':
      return {
        ko: `허용되는 값이 아닙니다. 가능한 값: ${list(issue.values)}`,
        en: `Not an allowed value. Allowed: ${list(issue.values)}`,
      };
    case 'too_small':
      return issue.origin === 'array' || issue.origin === 'set'
        ? {
            ko: `항목이 ${issue.minimum}개 이상이어야 합니다.`,
            en: `Needs at least ${issue.minimum} entries.`,
          }
        : issue.origin === 'string'
          ? { ko: `${issue.minimum}자 이상이어야 합니다.`, en: `Needs at least ${issue.minimum} characters.` }
          : {
              ko: `${issue.minimum} ${issue.inclusive ? '이상' : '초과'}이어야 합니다.`,
              en: `Must be ${issue.inclusive ? 'at least' : 'more than'} ${issue.minimum}.`,
            };
    case 'too_big':
      return issue.origin === 'array' || issue.origin === 'set'
        ? { ko: `항목이 ${issue.maximum}개 이하여야 합니다.`, en: `At most ${issue.maximum} entries.` }
        : issue.origin === 'string'
          ? { ko: `${issue.maximum}자 이하여야 합니다.`, en: `At most ${issue.maximum} characters.` }
          : {
              ko: `${issue.maximum} ${issue.inclusive ? '이하' : '미만'}이어야 합니다.`,
              en: `Must be ${issue.inclusive ? 'at most' : 'less than'} ${issue.maximum}.`,
            };
    case 'invalid_format':
      return 'pattern' in issue && issue.pattern
        ? {
            ko: `형식이 올바르지 않습니다(패턴 ${issue.pattern}).`,
            en: `Does not match the pattern ${issue.pattern}.`,
          }
        : { ko: `형식이 올바르지 않습니다(${issue.format}).`, en: `Invalid format (${issue.format}).` };
    case 'invalid_union':
      return { ko: '허용되는 형태 중 어느 것과도 맞지 않습니다.', en: 'Matches none of the allowed shapes.' };
    case 'custom': {
      // The definition's cross-checks (packages/study) give their message in both languages.
      const korean = (issue.params as { ko?: unknown } | undefined)?.ko;
      return { ko: typeof korean === 'string' ? korean : issue.message, en: issue.message };
    }
    default:
      return { ko: `올바르지 않은 값입니다: ${issue.message}`, en: `Invalid value: ${issue.message}` };
  }
}

/**
 * Every problem zod found in a definition document (parsed with `reportInput`, so a missing property
 * can be told from one of the wrong type), each with its place and its words in ko and en.
 */
export function definitionProblemsOf(error: z.ZodError): DefinitionProblem[] {
  const problems = error.issues
    .slice(0, MAX_LISTED_PROBLEMS)
    .map((issue) => ({ path: jsonPointer(issue.path), message: messageOf(issue) }));
  const unlisted = error.issues.length - problems.length;
  if (unlisted > 0)
    problems.push({
      path: '',
      message: {
        ko: `그 밖에 ${unlisted}개의 문제가 더 있습니다.`,
        en: `${unlisted} more problems are not listed.`,
      },
    });
  return problems;
}
