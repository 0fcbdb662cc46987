import { type ExpressionTextContext, parameterProblem, referenceProblem } from './expression-scope.ts';
import type { ExpressionTextProblem } from './expression-syntax.ts';
import { parseExpressionText } from './parse-expression.ts';

/**
 * Every problem of an expression's text as typed: the parse problems, then each reference to an item,
 * form or visit that does not exist and each parameter the definition does not declare, underlined where
 * it is written. The reference rules are findDefinitionProblemTexts' (model/study-definition.ts), so a
 * text without problems adds no definition problem.
 */
export function checkExpressionText(text: string, context: ExpressionTextContext): ExpressionTextProblem[] {
  const parsed = parseExpressionText(text);
  const problems = [...parsed.problems];
  for (const reference of parsed.references) {
    const message =
      reference.kind === 'ref'
        ? referenceProblem(reference.name, context)
        : parameterProblem(reference.name, context);
    if (message) problems.push({ start: reference.start, end: reference.end, message });
  }
  return problems.sort((a, b) => a.start - b.start);
}
