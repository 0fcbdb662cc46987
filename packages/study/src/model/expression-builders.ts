import type {
  Band,
  Expression,
  OpExpression,
  Operator,
  ParamExpression,
  RefExpression,
} from './expression.ts';

// Small helpers for writing expressions in TypeScript; they only build the JSON data a definition holds.

export const ref = (path: string): RefExpression => ({ ref: path });
export const param = (name: string): ParamExpression => ({ param: name });
export const op = (name: Operator, ...args: Expression[]): OpExpression =>
  args.length > 0 ? { op: name, args } : { op: name };

export const eq = (a: Expression, b: Expression) => op('eq', a, b);
export const ne = (a: Expression, b: Expression) => op('ne', a, b);
export const gt = (a: Expression, b: Expression) => op('gt', a, b);
export const gte = (a: Expression, b: Expression) => op('gte', a, b);
export const lt = (a: Expression, b: Expression) => op('lt', a, b);
export const lte = (a: Expression, b: Expression) => op('lte', a, b);
export const and = (...args: Expression[]) => op('and', ...args);
export const or = (...args: Expression[]) => op('or', ...args);
export const not = (a: Expression) => op('not', a);
export const isEmpty = (a: Expression) => op('isEmpty', a);
export const notEmpty = (a: Expression) => op('notEmpty', a);
export const oneOf = (a: Expression, ...values: Expression[]) => op('in', a, ...values);
export const today = () => op('today');
export const daysBetween = (from: Expression, to: Expression) => op('daysBetween', from, to);
export const yearsBetween = (from: Expression, to: Expression) => op('yearsBetween', from, to);
export const round = (a: Expression, decimals: number) => op('round', a, decimals);
export const band = (a: Expression, bands: Band[]): OpExpression => ({ op: 'band', args: [a], bands });
/** True when the item holds exactly `true` (a checked checkbox). */
export const isChecked = (path: string) => eq(ref(path), true);
/** True when a yesNo item is answered "Y". */
export const isYes = (path: string) => eq(ref(path), 'Y');
