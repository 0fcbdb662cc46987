import {
  type Band,
  type Expression,
  expressionSchema,
  OPERATOR_ARITY,
  type OpExpression,
  type Operator,
} from '../model/expression.ts';
import { arityText, type ExpressionTextProblem, isOperator, isReservedWord } from './expression-syntax.ts';
import { type Token, tokenizeExpression } from './tokenize-expression.ts';

// A recursive-descent parser, one function per precedence level (loosest first):
// or → and → not → comparison → additive (+ -) → multiplicative (* /) → primary.

/** A reference or parameter with where it was written, so that a problem about it can be underlined. */
export interface ExpressionTextReference {
  kind: 'ref' | 'param';
  name: string;
  start: number;
  end: number;
}

export interface ParsedExpression {
  /** The expression, or null when the text has a problem. */
  expression: Expression | null;
  problems: ExpressionTextProblem[];
}

export interface ParsedExpressionWithReferences extends ParsedExpression {
  references: ExpressionTextReference[];
}

/** Parses the text syntax (README.md in this folder) into an expression; never throws. */
export function parseExpression(text: string): ParsedExpression {
  const { expression, problems } = parseExpressionText(text);
  return { expression, problems };
}

/** A problem that stops the parse: the rest of the text cannot be read reliably after it. */
class StopParsing extends Error {
  readonly problem: ExpressionTextProblem;
  constructor(problem: ExpressionTextProblem) {
    super(problem.message.en);
    this.problem = problem;
  }
}

const COMPARISON_SYMBOLS: Record<string, Operator> = {
  '=': 'eq',
  '<>': 'ne',
  '>': 'gt',
  '>=': 'gte',
  '<': 'lt',
  '<=': 'lte',
};

/** Deeper nesting than this is refused rather than risking the stack (the engine stops at 64 anyway). */
const MAX_DEPTH = 200;

/** `parseExpression` plus every reference and parameter with its span, for `checkExpressionText`. */
export function parseExpressionText(text: string): ParsedExpressionWithReferences {
  const references: ExpressionTextReference[] = [];
  const problems: ExpressionTextProblem[] = [];
  const tokenized = tokenizeExpression(text);
  if (tokenized.problem) return { expression: null, problems: [tokenized.problem], references };
  const tokens = tokenized.tokens;
  if (tokens.length === 1)
    return {
      expression: null,
      problems: [
        { start: 0, end: text.length, message: { en: 'empty expression', ko: '식이 비어 있습니다' } },
      ],
      references,
    };

  let position = 0;
  let depth = 0;
  const peek = (offset = 0): Token => tokens[Math.min(position + offset, tokens.length - 1)] as Token;
  const next = (): Token => {
    const token = peek();
    if (position < tokens.length - 1) position++;
    return token;
  };
  const isSymbol = (token: Token, symbol: string) => token.kind === 'symbol' && token.text === symbol;
  const isWord = (token: Token, word: string) => token.kind === 'word' && token.text === word;
  const stop = (token: Token, en: string, ko: string): never => {
    throw new StopParsing({ start: token.start, end: token.end, message: { en, ko } });
  };
  const unexpected = (token: Token): never =>
    token.kind === 'end'
      ? stop(token, 'the expression ends too early', '식이 끝나지 않았습니다')
      : stop(token, `unexpected ${token.text}`, `예상하지 못한 ${token.text}`);
  const expect = (symbol: string): Token => {
    const token = peek();
    if (!isSymbol(token, symbol))
      stop(token, `"${symbol}" expected here`, `여기에 "${symbol}" 기호가 와야 합니다`);
    return next();
  };

  /** `a or b or c`: one `or` of all the operands (a nested `or` is written in parentheses). */
  const parseChain = (word: 'or' | 'and', parseOperand: () => Expression): Expression => {
    const first = parseOperand();
    if (!isWord(peek(), word)) return first;
    const args = [first];
    while (isWord(peek(), word)) {
      next();
      args.push(parseOperand());
    }
    return { op: word, args };
  };
  const parseOr = (): Expression => {
    depth++;
    if (depth > MAX_DEPTH) stop(peek(), 'the expression is nested too deeply', '식의 중첩이 너무 깊습니다');
    const expression = parseChain('or', parseAnd);
    depth--;
    return expression;
  };
  const parseAnd = (): Expression => parseChain('and', parseNot);
  const parseNot = (): Expression => {
    if (!isWord(peek(), 'not')) return parseComparison();
    next();
    depth++;
    if (depth > MAX_DEPTH) stop(peek(), 'the expression is nested too deeply', '식의 중첩이 너무 깊습니다');
    const operand = parseNot();
    depth--;
    return { op: 'not', args: [operand] };
  };
  const parseComparison = (): Expression => {
    const left = parseAdditive();
    const token = peek();
    const op = token.kind === 'symbol' ? COMPARISON_SYMBOLS[token.text] : undefined;
    if (op === undefined) return left;
    next();
    const right = parseAdditive();
    const after = peek();
    if (after.kind === 'symbol' && COMPARISON_SYMBOLS[after.text] !== undefined)
      stop(
        after,
        'comparisons do not chain: join them with "and" or use parentheses',
        '비교는 이어 쓸 수 없습니다: "and"로 잇거나 괄호를 쓰십시오',
      );
    return { op, args: [left, right] };
  };
  /** `a + b + c` is one `add`; `a - b - c` is sub(sub(a, b), c). The same for `*` and `/`. */
  const parseArithmetic = (
    plus: '+' | '*',
    minus: '-' | '/',
    chainOp: 'add' | 'mul',
    pairOp: 'sub' | 'div',
    parseOperand: () => Expression,
  ): Expression => {
    let left = parseOperand();
    let chain: OpExpression | null = null;
    for (;;) {
      const token = peek();
      if (isSymbol(token, plus)) {
        next();
        const right = parseOperand();
        if (chain) chain.args?.push(right);
        else {
          chain = { op: chainOp, args: [left, right] };
          left = chain;
        }
      } else if (isSymbol(token, minus)) {
        next();
        left = { op: pairOp, args: [left, parseOperand()] };
        chain = null;
      } else {
        return left;
      }
    }
  };
  const parseAdditive = (): Expression => parseArithmetic('+', '-', 'add', 'sub', parseMultiplicative);
  const parseMultiplicative = (): Expression => parseArithmetic('*', '/', 'mul', 'div', parsePrimary);

  const signedNumber = (): number | undefined => {
    const token = peek();
    const negative = isSymbol(token, '-');
    const numberToken = negative ? peek(1) : token;
    if (numberToken.kind !== 'number') return undefined;
    next();
    if (negative) next();
    return negative ? -(numberToken.value as number) : (numberToken.value as number);
  };

  /** `min..max: value`, either bound may be left out (both inclusive, as the engine reads them). */
  const parseBand = (): Band => {
    const min = signedNumber();
    expect('..');
    const max = signedNumber();
    expect(':');
    const token = peek();
    let value: string | number | undefined;
    if (token.kind === 'string') value = next().value as string;
    else value = signedNumber();
    if (value === undefined)
      stop(
        token,
        'a band value (text or number) expected here',
        '여기에 구간의 값(문자열 또는 숫자)이 와야 합니다',
      );
    const band: Band = { value: value as string | number };
    return { ...(min === undefined ? {} : { min }), ...(max === undefined ? {} : { max }), ...band };
  };

  const parseCall = (nameToken: Token): Expression => {
    const name = nameToken.text;
    if (!isOperator(name)) stop(nameToken, `unknown function ${name}`, `알 수 없는 함수 ${name}`);
    const op = name as Operator;
    expect('(');
    const args: Expression[] = [];
    let bands: Band[] | undefined;
    if (!isSymbol(peek(), ')') && !isSymbol(peek(), ';')) {
      args.push(parseOr());
      while (isSymbol(peek(), ',')) {
        next();
        args.push(parseOr());
      }
    }
    if (op === 'band') {
      if (!isSymbol(peek(), ';'))
        stop(peek(), 'band needs its bands after ";"', 'band에는 ";" 뒤에 구간이 와야 합니다');
      next();
      bands = [parseBand()];
      while (isSymbol(peek(), ',')) {
        next();
        bands.push(parseBand());
      }
    }
    const close = expect(')');
    const [min, max] = OPERATOR_ARITY[op];
    if (args.length < min || (max !== null && args.length > max)) {
      const arity = arityText(op);
      problems.push({
        start: nameToken.start,
        end: close.end,
        message: { en: `${op} takes ${arity.en}`, ko: `${op}: ${arity.ko}가 필요합니다` },
      });
    }
    const call: OpExpression = { op };
    // A call without arguments (`today()`) has no `args`, as the builders write it.
    if (args.length > 0) call.args = args;
    if (bands) call.bands = bands;
    return call;
  };

  const parsePrimary = (): Expression => {
    const token = peek();
    if (token.kind === 'number') return next().value as number;
    if (token.kind === 'string') return next().value as string;
    if (token.kind === 'param') {
      next();
      references.push({ kind: 'param', name: token.text, start: token.start, end: token.end });
      return { param: token.text };
    }
    if (token.kind === 'quotedRef') {
      next();
      references.push({ kind: 'ref', name: token.text, start: token.start, end: token.end });
      return { ref: token.text };
    }
    if (isSymbol(token, '-')) {
      const value = signedNumber();
      if (value === undefined)
        stop(
          token,
          'a minus sign goes before a number only: write 0 - x',
          '빼기 부호는 숫자 앞에만 씁니다: 0 - x로 쓰십시오',
        );
      return value as number;
    }
    if (isSymbol(token, '(')) {
      next();
      const inner = parseOr();
      expect(')');
      return inner;
    }
    if (token.kind === 'word') {
      if (isSymbol(peek(1), '(')) {
        next();
        return parseCall(token);
      }
      if (token.text === 'true' || token.text === 'false') {
        next();
        return token.text === 'true';
      }
      if (token.text === 'null') {
        next();
        return null;
      }
      if (isReservedWord(token.text)) unexpected(token);
      if (token.text.split('.').length > 3)
        stop(
          token,
          'a reference has at most three parts: visit.form.item',
          '참조는 최대 세 부분입니다: visit.form.item',
        );
      next();
      references.push({ kind: 'ref', name: token.text, start: token.start, end: token.end });
      return { ref: token.text };
    }
    return unexpected(token);
  };

  try {
    const expression = parseOr();
    if (peek().kind !== 'end') unexpected(peek());
    if (problems.length > 0) return { expression: null, problems, references };
    // The parser only builds valid nodes; the schema is asked anyway, so that nothing invalid leaves here.
    if (!expressionSchema.safeParse(expression).success)
      return {
        expression: null,
        problems: [
          { start: 0, end: text.length, message: { en: 'invalid expression', ko: '올바르지 않은 식' } },
        ],
        references,
      };
    return { expression, problems, references };
  } catch (error) {
    if (error instanceof StopParsing)
      return { expression: null, problems: [...problems, error.problem], references };
    // Unreachable by design; kept so that typing can never crash the editor.
    return {
      expression: null,
      problems: [
        { start: 0, end: text.length, message: { en: 'invalid expression', ko: '올바르지 않은 식' } },
      ],
      references,
    };
  }
}
