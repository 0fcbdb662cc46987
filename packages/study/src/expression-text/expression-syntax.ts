import { OPERATOR_ARITY, type Operator } from '../model/expression.ts';
import type { LocalizedText } from '../model/localized-text.ts';

// The small text syntax of expressions, shared by the formatter, the parser and the completions.
// README.md in this folder describes it for people.

/** A problem in an expression's text, with the character offsets [start, end) it is about. */
export interface ExpressionTextProblem {
  start: number;
  end: number;
  message: LocalizedText;
}

/** Words that are part of the syntax; a reference with one of these names is written in backticks. */
export const RESERVED_WORDS = ['and', 'or', 'not', 'true', 'false', 'null'] as const;

export function isReservedWord(word: string): boolean {
  return (RESERVED_WORDS as readonly string[]).includes(word);
}

/** Operators written between their operands; every other operator is written as a call `name(…)`. */
export const INFIX_SYMBOLS = {
  eq: '=',
  ne: '<>',
  gt: '>',
  gte: '>=',
  lt: '<',
  lte: '<=',
  add: '+',
  sub: '-',
  mul: '*',
  div: '/',
} as const satisfies Partial<Record<Operator, string>>;

/** Binding strength, loosest first: `a or b and not c = d + e * f` is `a or (b and (not (c = (d + (e * f)))))`. */
export const PRECEDENCE = {
  or: 1,
  and: 2,
  not: 3,
  comparison: 4,
  additive: 5,
  multiplicative: 6,
  /** Literals, references, parameters, calls and parenthesised expressions. */
  primary: 7,
} as const;

const COMPARISON_OPERATORS: readonly Operator[] = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte'];

export function isComparison(op: Operator): boolean {
  return COMPARISON_OPERATORS.includes(op);
}

/** Operators offered as functions in completions: those written as a call, with their number of arguments. */
export const FUNCTION_OPERATORS: readonly Operator[] = (Object.keys(OPERATOR_ARITY) as Operator[]).filter(
  (op) => !(op in INFIX_SYMBOLS) && op !== 'and' && op !== 'or' && op !== 'not',
);

export function isOperator(name: string): name is Operator {
  return Object.hasOwn(OPERATOR_ARITY, name);
}

/** "1..2 arguments" in both languages, for a call's problem and its completion. */
export function arityText(op: Operator): LocalizedText {
  const [min, max] = OPERATOR_ARITY[op];
  const range = max === min ? `${min}` : max === null ? `${min}+` : `${min}..${max}`;
  return { en: `${range} argument${max === 1 && min === 1 ? '' : 's'}`, ko: `인수 ${range}개` };
}
