import type { Band } from '../model/expression.ts';
import type { FormValues, JsonPrimitive, JsonValue, SubjectData } from '../model/json-value.ts';
import { daysBetween, isValidDate, yearsBetween } from './dates.ts';
import {
  parseTracing,
  TRACING_MAX_LENGTH,
  type Tracing,
  tracingAreaPercent,
  tracingDiameterPercent,
} from './tracing.ts';

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
export const MAX_EXPRESSION_DEPTH = 64;

/**
 * An expression made ready to evaluate many times: the tree is read once (operators, arguments, references
 * split into their parts) and each evaluation only looks at the data. The engine keeps these per definition
 * in its study index, because every save evaluates the same few hundred expressions again.
 */
export type CompiledExpression = (context: ExpressionContext) => JsonValue;

const alwaysNull: CompiledExpression = () => null;

/** Compiles an expression; the result gives exactly what `evaluateExpression` gives, and never throws. */
export function compileExpression(expression: unknown): CompiledExpression {
  let compiled: CompiledExpression;
  try {
    compiled = compile(expression, 0);
  } catch {
    // Unreachable by design (the tree is only read); kept so that no input can ever crash a save.
    return alwaysNull;
  }
  return (context) => {
    try {
      return compiled(context);
    } catch {
      // Unreachable by design; kept so that no input can ever crash a save.
      return null;
    }
  };
}

/** Evaluates an expression once. To evaluate the same expression often, compile it once instead. */
export function evaluateExpression(expression: unknown, context: ExpressionContext): JsonValue {
  return compileExpression(expression)(context);
}

/** True only when the expression evaluates to exactly `true`. */
export function holds(expression: unknown, context: ExpressionContext): boolean {
  return evaluateExpression(expression, context) === true;
}

/** A plain object (not null, not an array): what a form's values and a row are. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
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
  return compileRef(ref)(context);
}

/** A reference with its parts split once: `item`, `form.item` or `visit.form.item` (see RefExpression). */
function compileRef(ref: string): CompiledExpression {
  const parts = ref.split('.');
  if (parts.length === 1) {
    const key = parts[0] as string;
    return (context) => {
      if (context.row !== undefined && own(context.row, key) !== undefined)
        return asJson(own(context.row, key));
      return asJson(own(own(own(context.data, context.visitKey), context.formKey), key));
    };
  }
  if (parts.length === 2) {
    const [formKey, key] = parts as [string, string];
    return (context) => asJson(own(own(own(context.data, context.visitKey), formKey), key));
  }
  if (parts.length === 3) {
    const [visitKey, formKey, key] = parts as [string, string, string];
    return (context) => asJson(own(own(own(context.data, visitKey), formKey), key));
  }
  return alwaysNull;
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

function tracingPercent(measure: (tracing: Tracing) => number | null, value: JsonValue): JsonValue {
  const tracing = parseTracing(value);
  if (!tracing) return null;
  const percent = measure(tracing);
  return percent === null ? null : finite(percent);
}

/**
 * Parsing a tracing (its JSON text, then the schema) costs more than all the rest of a subject's
 * evaluation, and the same text is measured by several derivations, on each derivation pass and on every
 * save of the subject until someone redraws it. So the percent of the most recent texts is remembered:
 * it follows from the text alone, so remembering it cannot change an answer. Bounded: the oldest text is
 * forgotten first.
 */
const TRACING_MEMO_SIZE = 64;
const areaPercents = new Map<string, JsonValue>();
const diameterPercents = new Map<string, JsonValue>();

function rememberedTracingPercent(
  memo: Map<string, JsonValue>,
  measure: (tracing: Tracing) => number | null,
  value: JsonValue,
): JsonValue {
  // Anything but a text of tracing size is no tracing, and cheap to tell (and a huge text is not kept).
  if (typeof value !== 'string' || value.length > TRACING_MAX_LENGTH) return tracingPercent(measure, value);
  const known = memo.get(value);
  if (known !== undefined) return known;
  const percent = tracingPercent(measure, value);
  if (memo.size >= TRACING_MEMO_SIZE) memo.delete(memo.keys().next().value as string);
  memo.set(value, percent);
  return percent;
}

/**
 * Reads one node of the tree and returns the function that evaluates it. The checks run in the order an
 * evaluation always made them (depth, primitive, array, ref, param, op), and each operator evaluates its
 * arguments as lazily as before (`and`/`or` stop at the deciding value, `if` takes one branch).
 */
function compile(expression: unknown, depth: number): CompiledExpression {
  if (depth > MAX_EXPRESSION_DEPTH) return alwaysNull;
  if (expression === null || typeof expression !== 'object') {
    const value = asJson(expression);
    return () => value;
  }
  if (Array.isArray(expression)) return alwaysNull;
  const ref = own(expression, 'ref');
  if (typeof ref === 'string') return compileRef(ref);
  const param = own(expression, 'param');
  if (typeof param === 'string') return (context) => asJson(own(context.params, param));
  const op = own(expression, 'op');
  const rawArgs = own(expression, 'args');
  const args: unknown[] = Array.isArray(rawArgs) ? rawArgs : [];
  // `map` leaves a hole of a sparse array a hole, so `all` skips it as evaluating the arguments always did
  // (JSON has no holes: this only keeps odd inputs answering as before).
  const compiledArgs = args.map((a) => compile(a, depth + 1));
  /** The argument at `index`; a missing one evaluates to null, like an absent value. */
  const arg = (index: number): CompiledExpression => compiledArgs[index] ?? alwaysNull;
  /** Every argument's value, in order. */
  const all = (context: ExpressionContext): JsonValue[] => compiledArgs.map((a) => a(context));

  switch (op) {
    case 'eq':
    case 'ne': {
      const [first, second] = [arg(0), arg(1)];
      return (context) => {
        const a = first(context);
        const b = second(context);
        if (!isPrimitive(a) || !isPrimitive(b)) return null;
        return op === 'eq' ? a === b : a !== b;
      };
    }
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte': {
      const [first, second] = [arg(0), arg(1)];
      return (context) => {
        const difference = compare(first(context), second(context));
        if (difference === null) return null;
        if (op === 'gt') return difference > 0;
        if (op === 'gte') return difference >= 0;
        if (op === 'lt') return difference < 0;
        return difference <= 0;
      };
    }
    case 'and':
    case 'or': {
      // Short-circuit on the deciding value; otherwise unknown wins over the neutral value.
      const decider = op === 'or';
      const operands = Array.from({ length: args.length }, (_, index) => arg(index));
      return (context) => {
        let unknown = operands.length === 0;
        for (const operand of operands) {
          const value = truth(operand(context));
          if (value === decider) return decider;
          if (value === null) unknown = true;
        }
        return unknown ? null : !decider;
      };
    }
    case 'not': {
      const first = arg(0);
      return (context) => {
        const value = truth(first(context));
        return value === null ? null : !value;
      };
    }
    case 'isEmpty': {
      const first = arg(0);
      return (context) => isEmptyValue(first(context));
    }
    case 'notEmpty': {
      const first = arg(0);
      return (context) => !isEmptyValue(first(context));
    }
    case 'in':
      return (context) => {
        const [first, ...rest] = all(context);
        if (first === undefined || !isPrimitive(first)) return null;
        return rest.some((candidate) => candidate === first);
      };
    case 'contains': {
      const [first, second] = [arg(0), arg(1)];
      return (context) => {
        const list = first(context);
        const value = second(context);
        if (list === null) return false;
        if (!Array.isArray(list) || !isPrimitive(value)) return null;
        return list.includes(value);
      };
    }
    case 'count': {
      const first = arg(0);
      return (context) => {
        const list = first(context);
        if (list === null) return 0;
        return Array.isArray(list) ? list.length : null;
      };
    }
    case 'if': {
      const [condition, then, otherwise] = [arg(0), arg(1), arg(2)];
      return (context) => {
        const value = truth(condition(context));
        if (value === null) return null;
        return value ? then(context) : otherwise(context);
      };
    }
    case 'add':
    case 'mul':
      return (context) => {
        const values = all(context).map(num);
        if (values.length === 0 || values.some((v) => v === null)) return null;
        const numbers = values as number[];
        return finite(op === 'add' ? numbers.reduce((s, v) => s + v, 0) : numbers.reduce((p, v) => p * v, 1));
      };
    case 'sub':
    case 'div':
    case 'percent': {
      const [first, second] = [arg(0), arg(1)];
      return (context) => {
        const a = num(first(context));
        const b = num(second(context));
        if (a === null || b === null) return null;
        if (op === 'sub') return finite(a - b);
        if (b === 0) return null;
        return finite(op === 'div' ? a / b : (a / b) * 100);
      };
    }
    case 'round': {
      const first = arg(0);
      const second = args.length > 1 ? arg(1) : () => 0;
      return (context) => {
        const value = num(first(context));
        const decimals = num(second(context));
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
      };
    }
    case 'avg':
      return (context) => {
        // The average of the values present: empty arguments are skipped, a non-number is a type error.
        const values = all(context).filter((v) => !isEmptyValue(v));
        if (values.length === 0) return null;
        const numbers = values.map(num);
        if (numbers.some((v) => v === null)) return null;
        return finite((numbers as number[]).reduce((s, v) => s + v, 0) / numbers.length);
      };
    case 'daysBetween': {
      const [first, second] = [arg(0), arg(1)];
      return (context) => daysBetween(first(context), second(context));
    }
    case 'yearsBetween': {
      const [first, second] = [arg(0), arg(1)];
      return (context) => yearsBetween(first(context), second(context));
    }
    case 'today':
      return (context) => (isValidDate(context.today) ? context.today : null);
    case 'band': {
      const first = arg(0);
      const bands = own(expression, 'bands');
      return (context) => lookupBand(first(context), bands);
    }
    case 'tracingAreaPercent': {
      const first = arg(0);
      return (context) => rememberedTracingPercent(areaPercents, tracingAreaPercent, first(context));
    }
    case 'tracingDiameterPercent': {
      const first = arg(0);
      return (context) => rememberedTracingPercent(diameterPercents, tracingDiameterPercent, first(context));
    }
    default:
      return alwaysNull;
  }
}
