import { REF_PATTERN } from '../model/expression.ts';
import type { ExpressionTextProblem } from './expression-syntax.ts';

// The tokenizer of the expression syntax: a hand-written scanner, so that every token and every problem
// carries the character offsets the editor underlines.

export type TokenKind =
  /** A key or a dotted reference `a`, `a.b`, `a.b.c`; also the reserved words and function names. */
  | 'word'
  /** A reference in backticks, for a key that is a reserved word: `and`. */
  | 'quotedRef'
  /** `$name` */
  | 'param'
  | 'number'
  | 'string'
  /** Operators and punctuation: = <> < <= > >= + - * / ( ) , ; : .. */
  | 'symbol'
  | 'end';

export interface Token {
  kind: TokenKind;
  /** The word, the reference or parameter name, the symbol; the source text for numbers and strings. */
  text: string;
  /** The value of a number or string literal. */
  value?: number | string;
  start: number;
  end: number;
}

export interface TokenizeResult {
  tokens: Token[];
  /** The first problem met, if any; tokens then stop before it. */
  problem: ExpressionTextProblem | null;
}

const SYMBOLS = ['<>', '<=', '>=', '..', '=', '<', '>', '+', '-', '*', '/', '(', ')', ',', ';', ':'];

const isLetter = (char: string | undefined) => char !== undefined && /[A-Za-z]/.test(char);
const isKeyChar = (char: string | undefined) => char !== undefined && /[A-Za-z0-9]/.test(char);
const isDigit = (char: string | undefined) => char !== undefined && /[0-9]/.test(char);

export function tokenizeExpression(text: string): TokenizeResult {
  const tokens: Token[] = [];
  const fail = (start: number, end: number, en: string, ko: string): TokenizeResult => ({
    tokens,
    problem: { start, end, message: { en, ko } },
  });
  let at = 0;
  /** The end of a key starting at `from` (a letter, then letters and digits). */
  const keyEnd = (from: number) => {
    let end = from + 1;
    while (isKeyChar(text[end])) end++;
    return end;
  };

  while (at < text.length) {
    const char = text[at] as string;
    if (/\s/.test(char)) {
      at++;
      continue;
    }
    const start = at;
    if (isLetter(char)) {
      at = keyEnd(at);
      while (text[at] === '.' && text[at + 1] !== '.') {
        if (!isLetter(text[at + 1]))
          return fail(at, at + 1, 'a key is expected after "."', '"." 뒤에 키가 와야 합니다');
        at = keyEnd(at + 1);
      }
      tokens.push({ kind: 'word', text: text.slice(start, at), start, end: at });
      continue;
    }
    if (char === '`') {
      const close = text.indexOf('`', at + 1);
      if (close < 0) return fail(start, text.length, 'closing ` is missing', '닫는 `가 없습니다');
      const ref = text.slice(at + 1, close);
      at = close + 1;
      if (!REF_PATTERN.test(ref))
        return fail(start, at, `not a reference: ${ref}`, `참조 형식이 아닙니다: ${ref}`);
      tokens.push({ kind: 'quotedRef', text: ref, start, end: at });
      continue;
    }
    if (char === '$') {
      if (!isLetter(text[at + 1]))
        return fail(
          start,
          at + 1,
          'a parameter name is expected after "$"',
          '"$" 뒤에 매개변수 이름이 와야 합니다',
        );
      at = keyEnd(at + 1);
      tokens.push({ kind: 'param', text: text.slice(start + 1, at), start, end: at });
      continue;
    }
    if (isDigit(char)) {
      while (isDigit(text[at])) at++;
      if (text[at] === '.' && isDigit(text[at + 1])) {
        at++;
        while (isDigit(text[at])) at++;
      }
      if ((text[at] === 'e' || text[at] === 'E') && /^[eE][+-]?[0-9]/.test(text.slice(at, at + 3))) {
        at += text[at + 1] === '+' || text[at + 1] === '-' ? 2 : 1;
        while (isDigit(text[at])) at++;
      }
      if (isLetter(text[at]))
        return fail(start, keyEnd(at), 'a key cannot start with a digit', '키는 숫자로 시작할 수 없습니다');
      const source = text.slice(start, at);
      if (!Number.isFinite(Number(source))) return fail(start, at, 'number too large', '숫자가 너무 큽니다');
      tokens.push({ kind: 'number', text: source, value: Number(source), start, end: at });
      continue;
    }
    if (char === '"') {
      at++;
      while (at < text.length && text[at] !== '"') at += text[at] === '\\' ? 2 : 1;
      if (at >= text.length) return fail(start, text.length, 'closing " is missing', '닫는 "가 없습니다');
      at++;
      const source = text.slice(start, at);
      let value: string;
      try {
        // The escapes are JSON's (\" \\ \n \t \u0041 …), so JSON reads them.
        value = JSON.parse(source) as string;
      } catch {
        return fail(start, at, 'bad escape in text', '문자열의 이스케이프가 올바르지 않습니다');
      }
      tokens.push({ kind: 'string', text: source, value, start, end: at });
      continue;
    }
    const symbol = SYMBOLS.find((s) => text.startsWith(s, at));
    if (symbol === undefined)
      return fail(start, start + 1, `unexpected character ${char}`, `예상하지 못한 문자 ${char}`);
    at += symbol.length;
    tokens.push({ kind: 'symbol', text: symbol, start, end: at });
  }
  tokens.push({ kind: 'end', text: '', start: text.length, end: text.length });
  return { tokens, problem: null };
}
