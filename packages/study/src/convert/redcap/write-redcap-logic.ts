import type { Expression, OpExpression } from '../../model/expression.ts';
import type { LocalizedText } from '../../model/localized-text.ts';

/**
 * An expression written as REDCap logic (the reverse of redcap-logic.ts): references become
 * `[field]` or `[event][field]`, yes/no literals 1/0, parameters their values. Operators REDCap
 * has no way to say (count, percent, band, the tracing measures) fail with a message.
 */

export interface LogicNames {
  /** The REDCap variable of an item (`form` is the item's form, resolved from a short reference). */
  field(formKey: string, itemKey: string): { name: string; yesNo: boolean; checkbox: boolean } | undefined;
  eventName(visitKey: string): string;
  param(name: string): number | string | undefined;
}

export type LogicWriting = { logic: string } | { problem: LocalizedText };

class Unwritable extends Error {
  readonly text: LocalizedText;
  constructor(text: LocalizedText) {
    super(text.en);
    this.text = text;
  }
}

function quote(value: string): string {
  return value.includes("'") ? `"${value}"` : `'${value}'`;
}

class Writer {
  private readonly names: LogicNames;
  private readonly formKey: string;
  constructor(names: LogicNames, formKey: string) {
    this.names = names;
    this.formKey = formKey;
  }

  private field(ref: string): {
    text: string;
    yesNo: boolean;
    checkbox: boolean;
    name: string;
    event?: string;
  } {
    const parts = ref.split('.');
    const [visitKey, formKey, itemKey] =
      parts.length === 3
        ? parts
        : parts.length === 2
          ? [undefined, parts[0], parts[1]]
          : [undefined, this.formKey, parts[0]];
    const field = this.names.field(formKey as string, itemKey as string);
    if (!field) throw new Unwritable({ en: `unknown reference ${ref}`, ko: `알 수 없는 참조 ${ref}` });
    const event = visitKey === undefined ? undefined : this.names.eventName(visitKey);
    return {
      text: `${event === undefined ? '' : `[${event}]`}[${field.name}]`,
      yesNo: field.yesNo,
      checkbox: field.checkbox,
      name: field.name,
      ...(event === undefined ? {} : { event }),
    };
  }

  /** A literal beside a yes/no field is written 1/0. */
  private literal(value: Expression, beside: Expression | undefined): string {
    const yesNo =
      typeof beside === 'object' && beside !== null && 'ref' in beside && this.field(beside.ref).yesNo;
    if (yesNo && (value === 'Y' || value === 'N')) return value === 'Y' ? "'1'" : "'0'";
    return this.write(value, true);
  }

  write(expression: Expression, nested = false): string {
    if (expression === null) return "''";
    if (typeof expression === 'string') return quote(expression);
    if (typeof expression === 'number') return String(expression);
    if (typeof expression === 'boolean') return expression ? '1' : '0';
    if ('ref' in expression) return this.field(expression.ref).text;
    if ('param' in expression) {
      const value = this.names.param(expression.param);
      if (value === undefined)
        throw new Unwritable({
          en: `unknown parameter ${expression.param}`,
          ko: `알 수 없는 매개변수 ${expression.param}`,
        });
      return typeof value === 'number' ? String(value) : quote(value);
    }
    const text = this.operation(expression);
    const atomic = expression.op === 'today' || /^[a-z]+\(.*\)$/.test(text);
    return nested && !atomic ? `(${text})` : text;
  }

  private operation(node: OpExpression): string {
    const args = node.args ?? [];
    const [first, second] = args;
    const all = (separator: string) => args.map((arg) => this.write(arg, true)).join(separator);
    switch (node.op) {
      case 'eq':
      case 'ne':
      case 'gt':
      case 'gte':
      case 'lt':
      case 'lte': {
        const tickBox = this.tickBox(node);
        if (tickBox !== undefined) return tickBox;
        const symbol = { eq: '=', ne: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=' }[node.op];
        return `${this.literal(first as Expression, second)} ${symbol} ${this.literal(second as Expression, first)}`;
      }
      case 'and':
      case 'or':
        return all(` ${node.op} `);
      case 'not': {
        const inner = first as Expression;
        if (typeof inner === 'object' && inner !== null && 'op' in inner && inner.op === 'contains')
          return this.ticked(inner, '0');
        return `not(${this.write(inner)})`;
      }
      case 'isEmpty':
        return `${this.write(first as Expression, true)} = ''`;
      case 'notEmpty':
        return `${this.write(first as Expression, true)} <> ''`;
      case 'contains':
        return this.ticked(node, '1');
      case 'in':
        return args
          .slice(1)
          .map((value) => `${this.literal(first as Expression, value)} = ${this.literal(value, first)}`)
          .join(' or ');
      case 'if':
        return `if(${args.map((arg) => this.write(arg)).join(', ')})`;
      case 'add':
        return all(' + ');
      case 'sub':
        return all(' - ');
      case 'mul':
        return all(' * ');
      case 'div':
        return all(' / ');
      case 'round':
        return `round(${args.map((arg) => this.write(arg)).join(', ')})`;
      case 'avg':
        return `mean(${args.map((arg) => this.write(arg)).join(', ')})`;
      case 'daysBetween':
      case 'yearsBetween':
        return `datediff(${this.write(first as Expression)}, ${this.write(second as Expression)}, "${node.op === 'daysBetween' ? 'd' : 'y'}", true)`;
      case 'today':
        return "'today'";
      default:
        throw new Unwritable({
          en: `REDCap logic has no counterpart for ${node.op}`,
          ko: `REDCap 로직에는 ${node.op}에 해당하는 것이 없습니다`,
        });
    }
  }

  /** `eq(tickBox, true)` as `[box(1)] = '1'`, the way REDCap tests a single checkbox. */
  private tickBox(node: OpExpression): string | undefined {
    if (node.op !== 'eq' && node.op !== 'ne') return undefined;
    const [first, second] = node.args ?? [];
    const ref = [first, second].find((arg) => typeof arg === 'object' && arg !== null && 'ref' in arg) as
      | { ref: string }
      | undefined;
    const value = [first, second].find((arg) => typeof arg === 'boolean');
    if (!ref || value === undefined) return undefined;
    const field = this.field(ref.ref);
    if (!field.checkbox) return undefined;
    const ticked = (value === true) === (node.op === 'eq');
    const event = field.event === undefined ? '' : `[${field.event}]`;
    return `${event}[${field.name}(1)] = '${ticked ? '1' : '0'}'`;
  }

  /** `contains(field, code)` as `[field(code)] = '1'` (ticked) or `= '0'`. */
  private ticked(node: OpExpression, value: '1' | '0'): string {
    const [list, code] = node.args ?? [];
    if (typeof list !== 'object' || list === null || !('ref' in list) || typeof code !== 'string')
      throw new Unwritable({
        en: 'contains() of something other than a field and a code',
        ko: '필드와 코드가 아닌 contains()',
      });
    const field = this.field(list.ref);
    const event = field.event === undefined ? '' : `[${field.event}]`;
    return `${event}[${field.name}(${code})] = '${value}'`;
  }
}

/** Writes an expression of a form as REDCap logic, or says why it cannot. */
export function writeRedcapLogic(expression: Expression, formKey: string, names: LogicNames): LogicWriting {
  try {
    return { logic: new Writer(names, formKey).write(expression) };
  } catch (error) {
    if (error instanceof Unwritable) return { problem: error.text };
    throw error;
  }
}
