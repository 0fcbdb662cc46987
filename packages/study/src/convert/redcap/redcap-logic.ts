import type { Expression } from '../../model/expression.ts';
import type { LocalizedText } from '../../model/localized-text.ts';
import type { ItemType } from '../../model/study-definition.ts';

/**
 * REDCap's branching logic and calculations (`[age] >= 18 and [sex] = '2'`,
 * `datediff([dob], 'today', 'y')`, `[visit_2_arm_1][weight]`, `[race(3)] = '1'`) read into the
 * definition's expressions (model/expression.ts), and expressions written back as REDCap logic.
 * What has no counterpart (an operator or function the engine lacks) is not guessed at: the
 * translation fails with a message that names it, and the importer keeps the field without it.
 */

/** What the translation needs to know of a field the logic names. */
export interface LogicField {
  key: string;
  formKey: string;
  type: ItemType;
  /** REDCap's `yesno` is stored 1/0, CDMS's yesNo Y/N: its literals are translated. */
  yesNo: boolean;
}

/** Where the logic stands: its form, and how REDCap names resolve. */
export interface LogicScope {
  formKey: string;
  field(name: string): LogicField | undefined;
  /** The visit key of a REDCap unique event name, undefined when the schedule has no such event. */
  visit(eventName: string): string | undefined;
}

export type LogicTranslation =
  | { expression: Expression; notes: LocalizedText[] }
  | { problem: LocalizedText };

class LogicError extends Error {
  readonly text: LocalizedText;
  constructor(text: LocalizedText) {
    super(text.en);
    this.text = text;
  }
}

function fail(en: string, ko: string): never {
  throw new LogicError({ en, ko });
}

type Token =
  | { kind: 'field'; name: string; code?: string | undefined; event?: string | undefined }
  | { kind: 'number'; value: number }
  | { kind: 'string'; value: string }
  | { kind: 'word'; value: string }
  | { kind: 'symbol'; value: string };

const SYMBOLS = ['<=', '>=', '<>', '!=', '==', '=', '<', '>', '+', '-', '*', '/', '^', '(', ')', ','];

/** One `[name]` or `[name(code)]` starting at `at`, and where the text goes on after it. */
function readBracket(text: string, at: number): { name: string; code?: string | undefined; next: number } {
  const end = text.indexOf(']', at);
  if (end < 0) fail(`unclosed [ at ${at + 1}`, `${at + 1}번째 글자의 [가 닫히지 않았습니다`);
  const inner = text.slice(at + 1, end).trim();
  const match = /^([A-Za-z][A-Za-z0-9_-]*)(?:\(([^()]+)\))?$/.exec(inner);
  if (!match?.[1]) fail(`[${inner}] is not a field name`, `필드 이름이 아닙니다: [${inner}]`);
  return { name: match[1], code: match[2], next: end + 1 };
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < text.length) {
    const char = text.charAt(at);
    if (/\s/.test(char)) {
      at += 1;
      continue;
    }
    if (char === '[') {
      // `[field]`, `[field(code)]`, or `[event][field]`: a bracket right after another names the field.
      const first = readBracket(text, at);
      at = first.next;
      if (text.charAt(at) === '[') {
        const second = readBracket(text, at);
        at = second.next;
        if (first.code !== undefined)
          fail(
            `[${first.name}(${first.code})] is not an event`,
            `이벤트가 아닙니다: [${first.name}(${first.code})]`,
          );
        tokens.push({ kind: 'field', name: second.name, code: second.code, event: first.name });
      } else {
        tokens.push({ kind: 'field', name: first.name, code: first.code });
      }
      continue;
    }
    if (char === "'" || char === '"') {
      const end = text.indexOf(char, at + 1);
      if (end < 0) fail(`unclosed quote at ${at + 1}`, `${at + 1}번째 글자의 따옴표가 닫히지 않았습니다`);
      tokens.push({ kind: 'string', value: text.slice(at + 1, end) });
      at = end + 1;
      continue;
    }
    const number = /^\d+(\.\d+)?|^\.\d+/.exec(text.slice(at));
    if (number) {
      tokens.push({ kind: 'number', value: Number(number[0]) });
      at += number[0].length;
      continue;
    }
    const word = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(at));
    if (word) {
      tokens.push({ kind: 'word', value: word[0].toLowerCase() });
      at += word[0].length;
      continue;
    }
    const symbol = SYMBOLS.find((candidate) => text.startsWith(candidate, at));
    if (!symbol)
      fail(`unexpected "${char}" at ${at + 1}`, `${at + 1}번째 글자를 읽을 수 없습니다: "${char}"`);
    tokens.push({ kind: 'symbol', value: symbol });
    at += symbol.length;
  }
  return tokens;
}

/** The logic as a tree, before its names and literals are resolved against the fields. */
type Node =
  | { kind: 'field'; name: string; code?: string | undefined; event?: string | undefined }
  | { kind: 'number'; value: number }
  | { kind: 'string'; value: string }
  | { kind: 'call'; name: string; args: Node[] }
  | { kind: 'binary'; op: string; left: Node; right: Node }
  | { kind: 'negate'; operand: Node }
  | { kind: 'not'; operand: Node };

const COMPARISONS = ['=', '==', '<>', '!=', '<', '<=', '>', '>='];

class Parser {
  private at = 0;
  private readonly tokens: Token[];
  constructor(tokens: Token[]) {
    this.tokens = tokens;
  }

  parse(): Node {
    if (this.tokens.length === 0) fail('the logic is empty', '로직이 비어 있습니다');
    const node = this.or();
    const rest = this.tokens[this.at];
    if (rest) fail(`unexpected ${describe(rest)}`, `예상하지 못한 ${describe(rest)}`);
    return node;
  }

  private peek(): Token | undefined {
    return this.tokens[this.at];
  }

  private isWord(value: string): boolean {
    const token = this.peek();
    return token?.kind === 'word' && token.value === value;
  }

  private isSymbol(...values: string[]): string | undefined {
    const token = this.peek();
    return token?.kind === 'symbol' && values.includes(token.value) ? token.value : undefined;
  }

  private expect(symbol: string): void {
    if (!this.isSymbol(symbol)) {
      const token = this.peek();
      fail(
        `expected "${symbol}"${token ? ` before ${describe(token)}` : ' at the end'}`,
        `필요한 기호가 없습니다: "${symbol}"${token ? ` (${describe(token)} 앞)` : ' (끝)'}`,
      );
    }
    this.at += 1;
  }

  private or(): Node {
    let left = this.and();
    while (this.isWord('or')) {
      this.at += 1;
      left = { kind: 'binary', op: 'or', left, right: this.and() };
    }
    return left;
  }

  private and(): Node {
    let left = this.not();
    while (this.isWord('and')) {
      this.at += 1;
      left = { kind: 'binary', op: 'and', left, right: this.not() };
    }
    return left;
  }

  private not(): Node {
    if (this.isWord('not')) {
      this.at += 1;
      return { kind: 'not', operand: this.not() };
    }
    return this.comparison();
  }

  private comparison(): Node {
    const left = this.additive();
    const op = this.isSymbol(...COMPARISONS);
    if (!op) return left;
    this.at += 1;
    return { kind: 'binary', op, left, right: this.additive() };
  }

  private additive(): Node {
    let left = this.multiplicative();
    for (let op = this.isSymbol('+', '-'); op; op = this.isSymbol('+', '-')) {
      this.at += 1;
      left = { kind: 'binary', op, left, right: this.multiplicative() };
    }
    return left;
  }

  private multiplicative(): Node {
    let left = this.power();
    for (let op = this.isSymbol('*', '/'); op; op = this.isSymbol('*', '/')) {
      this.at += 1;
      left = { kind: 'binary', op, left, right: this.power() };
    }
    return left;
  }

  private power(): Node {
    const base = this.unary();
    if (!this.isSymbol('^')) return base;
    this.at += 1;
    return { kind: 'binary', op: '^', left: base, right: this.power() };
  }

  private unary(): Node {
    if (this.isSymbol('-')) {
      this.at += 1;
      return { kind: 'negate', operand: this.unary() };
    }
    return this.primary();
  }

  private primary(): Node {
    const token = this.peek();
    if (!token) fail('the logic ends too early', '로직이 중간에 끝납니다');
    this.at += 1;
    switch (token.kind) {
      case 'field':
        return { kind: 'field', name: token.name, code: token.code, event: token.event };
      case 'number':
        return token;
      case 'string':
        return token;
      case 'word': {
        if (token.value === 'true' || token.value === 'false')
          return { kind: 'number', value: token.value === 'true' ? 1 : 0 };
        this.expect('(');
        const args: Node[] = [];
        if (!this.isSymbol(')')) {
          args.push(this.or());
          while (this.isSymbol(',')) {
            this.at += 1;
            args.push(this.or());
          }
        }
        this.expect(')');
        return { kind: 'call', name: token.value, args };
      }
      case 'symbol': {
        if (token.value !== '(') fail(`unexpected "${token.value}"`, `예상하지 못한 "${token.value}"`);
        const inner = this.or();
        this.expect(')');
        return inner;
      }
    }
  }
}

function describe(token: Token): string {
  switch (token.kind) {
    case 'field':
      return `[${token.name}]`;
    case 'number':
      return String(token.value);
    case 'string':
      return `'${token.value}'`;
    default:
      return `"${token.value}"`;
  }
}

const NUMBER_TYPES: readonly ItemType[] = ['integer', 'decimal'];

/** Resolves a parsed tree against the fields into an expression. */
class Translator {
  readonly notes: LocalizedText[] = [];
  private readonly scope: LogicScope;
  constructor(scope: LogicScope) {
    this.scope = scope;
  }

  private fieldOf(node: Node): LogicField | undefined {
    return node.kind === 'field' && node.code === undefined ? this.scope.field(node.name) : undefined;
  }

  private ref(node: Extract<Node, { kind: 'field' }>): Expression {
    const field = this.scope.field(node.name);
    if (!field) fail(`unknown field [${node.name}]`, `알 수 없는 필드 [${node.name}]`);
    if (node.event !== undefined) {
      const visit = this.scope.visit(node.event);
      if (!visit) fail(`unknown event [${node.event}]`, `알 수 없는 이벤트 [${node.event}]`);
      return { ref: `${visit}.${field.formKey}.${field.key}` };
    }
    return { ref: field.formKey === this.scope.formKey ? field.key : `${field.formKey}.${field.key}` };
  }

  /** A literal compared with a field takes the field's kind: numbers for numbers, Y/N for yes/no. */
  private literalFor(node: Node, field: LogicField | undefined): Expression {
    if (node.kind === 'string' && field) {
      if (field.yesNo && (node.value === '1' || node.value === '0')) return node.value === '1' ? 'Y' : 'N';
      if (
        NUMBER_TYPES.includes(field.type) &&
        node.value.trim() !== '' &&
        Number.isFinite(Number(node.value))
      )
        return Number(node.value);
    }
    if (
      field?.type === 'checkbox' &&
      (node.kind === 'number' || node.kind === 'string') &&
      ['1', '0'].includes(String(node.value))
    )
      return String(node.value) === '1';
    if (node.kind === 'number' && field && !NUMBER_TYPES.includes(field.type)) {
      if (field.yesNo && (node.value === 1 || node.value === 0)) return node.value === 1 ? 'Y' : 'N';
      return String(node.value);
    }
    return this.expression(node);
  }

  private comparison(op: string, left: Node, right: Node): Expression {
    // `[x] = ''` and `[x] <> ''`: REDCap's test of a blank field.
    const blank = (node: Node) => node.kind === 'string' && node.value === '';
    if ((op === '=' || op === '==' || op === '<>' || op === '!=') && (blank(left) || blank(right))) {
      const operand = this.expression(blank(left) ? right : left);
      return { op: op === '=' || op === '==' ? 'isEmpty' : 'notEmpty', args: [operand] };
    }
    // `[race(3)] = '1'`: the checkbox's option 3 is ticked ('0': it is not).
    const checkbox = [left, right].find((node) => node.kind === 'field' && node.code !== undefined);
    if (checkbox?.kind === 'field' && checkbox.code !== undefined) {
      const other = checkbox === left ? right : left;
      const ticked = other.kind === 'string' || other.kind === 'number' ? String(other.value) : undefined;
      if ((ticked !== '1' && ticked !== '0') || !['=', '==', '<>', '!='].includes(op))
        fail(
          `[${checkbox.name}(${checkbox.code})] is compared with something other than '1' or '0'`,
          `체크박스 [${checkbox.name}(${checkbox.code})]는 '1'이나 '0'과만 비교할 수 있습니다`,
        );
      const field = this.ref({ kind: 'field', name: checkbox.name, event: checkbox.event });
      const wantTicked = (ticked === '1') === (op === '=' || op === '==');
      // A single tick box (CDMS's checkbox) holds true when ticked; a choice of several holds its codes.
      if (this.scope.field(checkbox.name)?.type === 'checkbox')
        return { op: wantTicked ? 'eq' : 'ne', args: [field, true] };
      const contains: Expression = { op: 'contains', args: [field, checkbox.code] };
      return wantTicked ? contains : { op: 'not', args: [contains] };
    }
    const operator = {
      '=': 'eq',
      '==': 'eq',
      '<>': 'ne',
      '!=': 'ne',
      '<': 'lt',
      '<=': 'lte',
      '>': 'gt',
      '>=': 'gte',
    }[op] as 'eq' | 'ne' | 'lt' | 'lte' | 'gt' | 'gte';
    return {
      op: operator,
      args: [this.literalFor(left, this.fieldOf(right)), this.literalFor(right, this.fieldOf(left))],
    };
  }

  expression(node: Node): Expression {
    switch (node.kind) {
      case 'field':
        if (node.code !== undefined)
          fail(
            `[${node.name}(${node.code})] stands alone: compare it with '1' or '0'`,
            `체크박스 [${node.name}(${node.code})]는 '1'이나 '0'과 비교해야 합니다`,
          );
        return this.ref(node);
      case 'number':
        return node.value;
      case 'string':
        // '' is REDCap's blank; 'today' stands for the current date in datediff and comparisons.
        if (node.value === '') return null;
        return node.value.toLowerCase() === 'today' ? { op: 'today' } : node.value;
      case 'negate':
        return node.operand.kind === 'number'
          ? -node.operand.value
          : { op: 'sub', args: [0, this.expression(node.operand)] };
      case 'not':
        return { op: 'not', args: [this.expression(node.operand)] };
      case 'binary':
        return this.binary(node.op, node.left, node.right);
      case 'call':
        return this.call(node.name, node.args);
    }
  }

  private binary(op: string, left: Node, right: Node): Expression {
    if (COMPARISONS.includes(op)) return this.comparison(op, left, right);
    if (op === 'and' || op === 'or') {
      // `a and b and c` is one `and` of three, as a definition writes it.
      const first = this.expression(left);
      const rest = this.expression(right);
      const joined =
        typeof first === 'object' && first !== null && 'op' in first && first.op === op
          ? (first.args ?? [])
          : [first];
      return { op, args: [...joined, rest] };
    }
    if (op === '^') {
      // No power operator: a small whole exponent is a product (x^2 = x*x).
      if (right.kind !== 'number' || !Number.isInteger(right.value) || right.value < 1 || right.value > 4)
        fail('"^" with an exponent other than 1 to 4', '"^"의 지수가 1~4의 정수가 아닙니다');
      const base = this.expression(left);
      return right.value === 1 ? base : { op: 'mul', args: Array.from({ length: right.value }, () => base) };
    }
    const operator = { '+': 'add', '-': 'sub', '*': 'mul', '/': 'div' }[op] as 'add' | 'sub' | 'mul' | 'div';
    return { op: operator, args: [this.expression(left), this.expression(right)] };
  }

  private call(name: string, args: Node[]): Expression {
    const translated = () => args.map((arg) => this.expression(arg));
    switch (name) {
      case 'if':
        if (args.length !== 3) fail('if() takes 3 arguments', 'if()의 인수는 3개입니다');
        return { op: 'if', args: translated() };
      case 'round':
        if (args.length < 1 || args.length > 2)
          fail('round() takes 1 or 2 arguments', 'round()의 인수는 1~2개입니다');
        return { op: 'round', args: translated() };
      case 'mean':
        if (args.length === 0) fail('mean() needs arguments', 'mean()에 인수가 없습니다');
        return { op: 'avg', args: translated() };
      case 'sum':
        if (args.length === 0) fail('sum() needs arguments', 'sum()에 인수가 없습니다');
        this.notes.push({
          en: 'sum() became an addition: a blank value leaves the result blank (REDCap skips blanks)',
          ko: 'sum()을 덧셈으로 옮겼습니다: 빈 값이 있으면 결과가 비어 있습니다(REDCap은 빈 값을 건너뜀)',
        });
        return args.length === 1 ? (translated()[0] as Expression) : { op: 'add', args: translated() };
      case 'isblankormissingcode':
        if (args.length !== 1)
          fail('isblankormissingcode() takes 1 argument', 'isblankormissingcode()의 인수는 1개입니다');
        return { op: 'isEmpty', args: translated() };
      case 'datediff':
        return this.dateDifference(args);
      default:
        fail(
          `the function ${name}() has no counterpart in CDMS`,
          `함수 ${name}()에 해당하는 CDMS 연산이 없습니다`,
        );
    }
  }

  /** `datediff(date1, date2, units[, format][, signed])`: date2 − date1 in days or whole years. */
  private dateDifference(args: Node[]): Expression {
    const [first, second, units, ...rest] = args;
    if (!first || !second || units?.kind !== 'string')
      fail('datediff() needs two dates and its units', 'datediff()에는 두 날짜와 단위가 필요합니다');
    const op = { d: 'daysBetween', y: 'yearsBetween' }[units.value] as
      | 'daysBetween'
      | 'yearsBetween'
      | undefined;
    if (!op)
      fail(
        `datediff() in "${units.value}": only days ("d") and years ("y") have a counterpart`,
        `datediff() 단위 "${units.value}": 일("d")과 연("y")만 옮길 수 있습니다`,
      );
    // The signed flag is `true` (read as 1) after the units or after the date format.
    const signed = rest.some(
      (arg) =>
        (arg.kind === 'number' && arg.value === 1) ||
        (arg.kind === 'string' && arg.value.toLowerCase() === 'true'),
    );
    if (!signed)
      this.notes.push({
        en: 'datediff() without its signed flag gives the absolute difference; CDMS gives date2 − date1',
        ko: '부호 옵션 없는 datediff()는 절댓값이지만 CDMS는 date2 − date1을 계산합니다',
      });
    return { op, args: [this.expression(first), this.expression(second)] };
  }
}

/** Reads a piece of REDCap logic; fails with a message in both languages when it cannot be translated. */
export function translateRedcapLogic(text: string, scope: LogicScope): LogicTranslation {
  try {
    const tree = new Parser(tokenize(text)).parse();
    const translator = new Translator(scope);
    const expression = translator.expression(tree);
    return { expression, notes: translator.notes };
  } catch (error) {
    if (error instanceof LogicError) return { problem: error.text };
    throw error;
  }
}
