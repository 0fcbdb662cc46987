import type { Band, Expression, Operator } from '../model/expression.ts';
import { INFIX_SYMBOLS, isComparison, isReservedWord, PRECEDENCE } from './expression-syntax.ts';

/**
 * The readable text of an expression, for a data manager to read and edit (README.md in this folder).
 * `parseExpression(formatExpression(e)).expression` deep-equals `e` for every valid expression, so the
 * text can stand in for the JSON; the only liberty is that `today()` comes back without an empty `args`.
 */
export function formatExpression(expression: Expression): string {
  return format(expression);
}

/** How tightly a node binds when written as text, to decide where parentheses are needed. */
function precedenceOf(expression: Expression): number {
  if (expression === null || typeof expression !== 'object' || !('op' in expression))
    return PRECEDENCE.primary;
  const count = expression.args?.length ?? 0;
  switch (expression.op) {
    case 'or':
      return count >= 2 ? PRECEDENCE.or : PRECEDENCE.primary;
    case 'and':
      return count >= 2 ? PRECEDENCE.and : PRECEDENCE.primary;
    case 'not':
      return PRECEDENCE.not;
    case 'add':
    case 'sub':
      return PRECEDENCE.additive;
    case 'mul':
    case 'div':
      return PRECEDENCE.multiplicative;
    default:
      return isComparison(expression.op) ? PRECEDENCE.comparison : PRECEDENCE.primary;
  }
}

function isOp(expression: Expression, op: Operator): boolean {
  return expression !== null && typeof expression === 'object' && 'op' in expression && expression.op === op;
}

function wrap(expression: Expression, needsParentheses: boolean): string {
  const text = format(expression);
  return needsParentheses ? `(${text})` : text;
}

export function formatNumber(value: number): string {
  // String(-0) is "0": keep the sign so that the text gives back the same number.
  return Object.is(value, -0) ? '-0' : String(value);
}

function formatBand(band: Band): string {
  const min = band.min === undefined ? '' : formatNumber(band.min);
  const max = band.max === undefined ? '' : formatNumber(band.max);
  const value = typeof band.value === 'number' ? formatNumber(band.value) : JSON.stringify(band.value);
  return `${min}..${max}: ${value}`;
}

function format(expression: Expression): string {
  if (expression === null) return 'null';
  if (typeof expression === 'boolean') return expression ? 'true' : 'false';
  if (typeof expression === 'number') return formatNumber(expression);
  // JSON string syntax: double quotes, backslash escapes; the parser reads it back with JSON.parse.
  if (typeof expression === 'string') return JSON.stringify(expression);
  if ('ref' in expression) return isReservedWord(expression.ref) ? `\`${expression.ref}\`` : expression.ref;
  if ('param' in expression) return `$${expression.param}`;

  const { op } = expression;
  const args = expression.args ?? [];
  const [first, second] = args as [Expression, Expression];
  if ((op === 'and' || op === 'or') && args.length >= 2) {
    // `a and (b and c)` keeps the inner node: without parentheses the chain would read as one `and`.
    const level = PRECEDENCE[op];
    return args.map((arg) => wrap(arg, precedenceOf(arg) <= level)).join(` ${op} `);
  }
  if (op === 'not') return `not ${wrap(first, precedenceOf(first) < PRECEDENCE.not)}`;
  if (isComparison(op)) {
    const symbol = INFIX_SYMBOLS[op as keyof typeof INFIX_SYMBOLS];
    const level = PRECEDENCE.comparison;
    return `${wrap(first, precedenceOf(first) <= level)} ${symbol} ${wrap(second, precedenceOf(second) <= level)}`;
  }
  if (op === 'add' || op === 'mul') {
    // A chain `a + b + c` is one `add` of three; a nested `add` first needs parentheses to stay nested,
    // a `sub` first does not (`a - b + c` is add(sub(a, b), c)).
    const level = op === 'add' ? PRECEDENCE.additive : PRECEDENCE.multiplicative;
    return args
      .map((arg, index) =>
        wrap(arg, index === 0 ? precedenceOf(arg) < level || isOp(arg, op) : precedenceOf(arg) <= level),
      )
      .join(` ${INFIX_SYMBOLS[op]} `);
  }
  if (op === 'sub' || op === 'div') {
    // Left-associative: `a - b - c` is sub(sub(a, b), c).
    const level = op === 'sub' ? PRECEDENCE.additive : PRECEDENCE.multiplicative;
    return `${wrap(first, precedenceOf(first) < level)} ${INFIX_SYMBOLS[op]} ${wrap(second, precedenceOf(second) <= level)}`;
  }
  if (op === 'band') {
    const bands = (expression.bands ?? []).map(formatBand).join(', ');
    return `band(${args.map(format).join(', ')}; ${bands})`;
  }
  return `${op}(${args.map(format).join(', ')})`;
}
