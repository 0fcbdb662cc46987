import type { Band } from '../model/expression.ts';
import type { FormValues, JsonPrimitive, JsonValue, SubjectData } from '../model/json-value.ts';
import { daysBetween, isValidDate, yearsBetween } from './dates.ts';
import { parseTracing, tracingAreaPercent, tracingDiameterPercent } from './tracing.ts';

// The evaluator never throws: data comes from people and definitions from administrators, so a type error
// (a string where a number was expected, a missing value, division by zero) yields null, "unknown".
// Logic is three-valued (Kleene): and(false, unknown) is false, and(true, unknown) is unknown.
// A check fires, an item shows, a condition holds only when its expression is exactly `true`.

export interface ExpressionContext {
  data: SubjectData;
  /** The visit and form the expression belongs to, for one- and two-part references. */
  visitKey: string;
  formKey: string;
  /** The current row when evaluating inside a repeating group; its items shadow the form's. */
  row?: FormValues | undefined;
  /** "YYYY-MM-DD", passed in by the caller: the engine never reads a clock. */
  today: string;
  params?: Record<string, JsonValue> | undefined;
}

/** Expressions nested deeper than this are treated as unknown rather than risking the stack. */
const MAX_DEPTH = 64;

export function evaluateExpression(expression: unknown, context: ExpressionContext): JsonValue {
  try {
    return evaluate(expression, context, 0);
  } catch {
    // Unreachable by design; kept so that no input can ever crash a save.
    return null;
  }
}

/** True only when the expression evaluates to exactly `true`. */
export function holds(expression: unknown, context: ExpressionContext): boolean {
  return evaluateExpression(expression, context) === true;
}

export function isEmptyValue(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  return false;
}

function own(container: unknown, key: string): unknown {
  if (container === null || typeof container !== 'object' || Array.isArray(container)) return undefined;
  return Object.hasOwn(container, key) ? (container as Record<string, unknown>)[key] : undefined;
}

/** Keeps only JSON values; anything else (undefined, functions, NaN) becomes null. */
function asJson(value: unknown): JsonValue {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'object') return value as JsonValue;
  return null;
}

export function resolveRef(ref: string, context: ExpressionContext): JsonValue {
  const parts = ref.split('.');
  if (parts.length === 1) {
    const key = parts[0] as string;
    if (context.row !== undefined && own(context.row, key) !== undefined)
      return asJson(own(context.row, key));
    return asJson(own(own(own(context.data, context.visitKey), context.formKey), key));
  }
  if (parts.length === 2) {
    return asJson(own(own(own(context.data, context.visitKey), parts[0] as string), parts[1] as string));
  }
  if (parts.length === 3) {
    return asJson(own(own(own(context.data, parts[0] as string), parts[1] as string), parts[2] as string));
  }
  return null;
}

function isPrimitive(value: JsonValue): value is JsonPrimitive {
  return value === null || typeof value !== 'object';
}

function num(value: JsonValue): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function finite(value: number): number | null {
  return Number.isFinite(value) ? value : null;
}

function truth(value: JsonValue): boolean | null {
  return typeof value === 'boolean' ? value : null;
}

/** Rounds half away from zero; the epsilon keeps 1.005 → 1.01 as a person expects. */
export function roundTo(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  const rounded = (Math.sign(value) * Math.round(Math.abs(value) * factor * (1 + Number.EPSILON))) / factor;
  return rounded === 0 ? 0 : rounded;
}

function compare(a: JsonValue, b: JsonValue): number | null {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  return null;
}

function lookupBand(value: JsonValue, bands: unknown): JsonValue {
  const x = num(value);
  if (x === null || !Array.isArray(bands)) return null;
  for (const band of bands as Band[]) {
    if (band === null || typeof band !== 'object') continue;
    const aboveMin = typeof band.min !== 'number' || x >= band.min;
    const belowMax = typeof band.max !== 'number' || x <= band.max;
    if (aboveMin && belowMax) return asJson(band.value);
  }
  return null;
}

function evaluate(expression: unknown, context: ExpressionContext, depth: number): JsonValue {
  if (depth > MAX_DEPTH) return null;
  if (expression === null || typeof expression !== 'object') return asJson(expression);
  if (Array.isArray(expression)) return null;
  const ref = own(expression, 'ref');
  if (typeof ref === 'string') return resolveRef(ref, context);
  const param = own(expression, 'param');
  if (typeof param === 'string') return asJson(own(context.params, param));
  const op = own(expression, 'op');
  const rawArgs = own(expression, 'args');
  const args: unknown[] = Array.isArray(rawArgs) ? rawArgs : [];
  const arg = (index: number): JsonValue => evaluate(args[index], context, depth + 1);
  const all = (): JsonValue[] => args.map((a) => evaluate(a, context, depth + 1));

  switch (op) {
    case 'eq':
    case 'ne': {
      const a = arg(0);
      const b = arg(1);
      if (!isPrimitive(a) || !isPrimitive(b)) return null;
      return op === 'eq' ? a === b : a !== b;
    }
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte': {
      const difference = compare(arg(0), arg(1));
      if (difference === null) return null;
      if (op === 'gt') return difference > 0;
      if (op === 'gte') return difference >= 0;
      if (op === 'lt') return difference < 0;
      return difference <= 0;
    }
    case 'and':
    case 'or': {
      // Short-circuit on the deciding value; otherwise unknown wins over the neutral value.
      const decider = op === 'or';
      let unknown = args.length === 0;
      for (const a of args) {
        const value = truth(evaluate(a, context, depth + 1));
        if (value === decider) return decider;
        if (value === null) unknown = true;
      }
      return unknown ? null : !decider;
    }
    case 'not': {
      const value = truth(arg(0));
      return value === null ? null : !value;
    }
    case 'isEmpty':
      return isEmptyValue(arg(0));
    case 'notEmpty':
      return !isEmptyValue(arg(0));
    case 'in': {
      const [first, ...rest] = all();
      if (first === undefined || !isPrimitive(first)) return null;
      return rest.some((candidate) => candidate === first);
    }
    case 'contains': {
      const list = arg(0);
      const value = arg(1);
      if (list === null) return false;
      if (!Array.isArray(list) || !isPrimitive(value)) return null;
      return list.includes(value);
    }
    case 'count': {
      const list = arg(0);
      if (list === null) return 0;
      return Array.isArray(list) ? list.length : null;
    }
    case 'if': {
      const condition = truth(arg(0));
      if (condition === null) return null;
      return condition ? arg(1) : arg(2);
    }
    case 'add':
    case 'mul': {
      const values = all().map(num);
      if (values.length === 0 || values.some((v) => v === null)) return null;
      const numbers = values as number[];
      return finite(op === 'add' ? numbers.reduce((s, v) => s + v, 0) : numbers.reduce((p, v) => p * v, 1));
    }
    case 'sub':
    case 'div':
    case 'percent': {
      const a = num(arg(0));
      const b = num(arg(1));
      if (a === null || b === null) return null;
      if (op === 'sub') return finite(a - b);
      if (b === 0) return null;
      return finite(op === 'div' ? a / b : (a / b) * 100);
    }
    case 'round': {
      const value = num(arg(0));
      const decimals = args.length > 1 ? num(arg(1)) : 0;
      if (
        value === null ||
        decimals === null ||
        !Number.isInteger(decimals) ||
        decimals < 0 ||
        decimals > 10
      ) {
        return null;
      }
      return finite(roundTo(value, decimals));
    }
    case 'avg': {
      // The average of the values present: empty arguments are skipped, a non-number is a type error.
      const values = all().filter((v) => !isEmptyValue(v));
      if (values.length === 0) return null;
      const numbers = values.map(num);
      if (numbers.some((v) => v === null)) return null;
      return finite((numbers as number[]).reduce((s, v) => s + v, 0) / numbers.length);
    }
    case 'daysBetween':
      return daysBetween(arg(0), arg(1));
    case 'yearsBetween':
      return yearsBetween(arg(0), arg(1));
    case 'today':
      return isValidDate(context.today) ? context.today : null;
    case 'band':
      return lookupBand(arg(0), own(expression, 'bands'));
    case 'tracingAreaPercent':
    case 'tracingDiameterPercent': {
      const tracing = parseTracing(arg(0));
      if (!tracing) return null;
      const percent =
        op === 'tracingAreaPercent' ? tracingAreaPercent(tracing) : tracingDiameterPercent(tracing);
      return percent === null ? null : finite(percent);
    }
    default:
      return null;
  }
}
