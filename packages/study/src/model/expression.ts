import { z } from 'zod';

// Expressions are data, never functions: a definition must survive JSON, be exported as CDISC ODM and be
// readable by a reviewer. See README.md "Expressions" for the full list with examples.

/** [minimum, maximum] number of arguments per operator; null maximum means "any number". */
export const OPERATOR_ARITY = {
  eq: [2, 2],
  ne: [2, 2],
  gt: [2, 2],
  gte: [2, 2],
  lt: [2, 2],
  lte: [2, 2],
  and: [1, null],
  or: [1, null],
  not: [1, 1],
  isEmpty: [1, 1],
  notEmpty: [1, 1],
  in: [2, null],
  contains: [2, 2],
  count: [1, 1],
  if: [3, 3],
  add: [2, null],
  sub: [2, 2],
  mul: [2, null],
  div: [2, 2],
  round: [1, 2],
  percent: [2, 2],
  avg: [1, null],
  daysBetween: [2, 2],
  yearsBetween: [2, 2],
  today: [0, 0],
  band: [1, 1],
  tracingAreaPercent: [1, 1],
  tracingDiameterPercent: [1, 1],
} as const satisfies Record<string, readonly [number, number | null]>;

export type Operator = keyof typeof OPERATOR_ARITY;
export const OPERATORS = Object.keys(OPERATOR_ARITY) as Operator[];

/**
 * A reference to a stored or derived value:
 * `item` (same form; inside a repeating row the row's item first), `form.item` (same visit) or
 * `visit.form.item` (anywhere in the subject's data).
 */
export interface RefExpression {
  ref: string;
}

/** A named study parameter (for example a date window in days), so that windows are configurable. */
export interface ParamExpression {
  param: string;
}

/** One band of a `band` lookup: matches when min <= value <= max (either bound may be left out). */
export interface Band {
  min?: number | undefined;
  max?: number | undefined;
  value: string | number;
}

export interface OpExpression {
  op: Operator;
  args?: Expression[] | undefined;
  /** Only for `band`. */
  bands?: Band[] | undefined;
}

export type Expression = string | number | boolean | null | RefExpression | ParamExpression | OpExpression;

const keyPattern = '[A-Za-z][A-Za-z0-9]*';
export const REF_PATTERN = new RegExp(`^${keyPattern}(\\.${keyPattern}){0,2}$`);

export const refExpressionSchema = z.strictObject({ ref: z.string().regex(REF_PATTERN) });
export const paramExpressionSchema = z.strictObject({
  param: z.string().regex(new RegExp(`^${keyPattern}$`)),
});

export const bandSchema: z.ZodType<Band> = z.strictObject({
  min: z.number().optional(),
  max: z.number().optional(),
  value: z.union([z.string(), z.number()]),
});

export const expressionSchema: z.ZodType<Expression> = z.lazy(() =>
  z.union([
    z.string(),
    z.number(),
    z.boolean(),
    z.null(),
    refExpressionSchema,
    paramExpressionSchema,
    opExpressionSchema,
  ]),
);

const opExpressionSchema: z.ZodType<OpExpression> = z
  .strictObject({
    op: z.enum(OPERATORS),
    args: z.array(expressionSchema).optional(),
    bands: z.array(bandSchema).min(1).optional(),
  })
  .superRefine((node, ctx) => {
    const [min, max] = OPERATOR_ARITY[node.op];
    const count = node.args?.length ?? 0;
    if (count < min || (max !== null && count > max)) {
      ctx.addIssue({
        code: 'custom',
        message: `operator ${node.op} takes ${min}..${max ?? 'n'} arguments`,
        params: { ko: `연산자 ${node.op}의 인수는 ${min}..${max ?? 'n'}개입니다` },
      });
    }
    if ((node.op === 'band') !== (node.bands !== undefined)) {
      ctx.addIssue({
        code: 'custom',
        message: 'bands go with the band operator, and only with it',
        params: { ko: 'bands는 band 연산자에만, band 연산자에는 반드시 씁니다' },
      });
    }
  });

/** Every `ref` string used inside an expression, for reference checking. */
export function collectRefs(expression: Expression | undefined, into: string[] = []): string[] {
  if (expression === null || typeof expression !== 'object') return into;
  if ('ref' in expression) {
    into.push(expression.ref);
  } else if ('op' in expression) {
    for (const arg of expression.args ?? []) collectRefs(arg, into);
  }
  return into;
}

/** Every `param` name used inside an expression. */
export function collectParams(expression: Expression | undefined, into: string[] = []): string[] {
  if (expression === null || typeof expression !== 'object') return into;
  if ('param' in expression) {
    into.push(expression.param);
  } else if ('op' in expression) {
    for (const arg of expression.args ?? []) collectParams(arg, into);
  }
  return into;
}
