import type { LocalizedText } from '../model/localized-text.ts';
import {
  type ExpressionTextContext,
  findForm,
  formKeys,
  formKeysAtVisit,
  type ScopeKey,
} from './expression-scope.ts';
import { arityText, FUNCTION_OPERATORS, RESERVED_WORDS } from './expression-syntax.ts';
import { tokenizeExpression } from './tokenize-expression.ts';

export type CompletionKind = 'item' | 'form' | 'visit' | 'function' | 'param' | 'keyword';

export interface CompletionOption {
  label: string;
  kind: CompletionKind;
  detail?: LocalizedText;
}

/** The text in [from, to) is what an option replaces. */
export interface ExpressionCompletions {
  from: number;
  to: number;
  options: CompletionOption[];
}

const KEYWORD_DETAIL: Record<string, LocalizedText> = {
  and: { en: 'both hold', ko: '둘 다 참' },
  or: { en: 'either holds', ko: '하나라도 참' },
  not: { en: 'does not hold', ko: '참이 아님' },
  true: { en: 'yes', ko: '참' },
  false: { en: 'no', ko: '거짓' },
  null: { en: 'no value', ko: '값 없음' },
};

const isKeyChar = (char: string | undefined) => char !== undefined && /[A-Za-z0-9]/.test(char);

/** Whether the cursor sits inside a string literal (after an odd number of unescaped quotes). */
function insideString(text: string, cursor: number): boolean {
  let inside = false;
  for (let at = 0; at < cursor; at++) {
    if (inside && text[at] === '\\') at++;
    else if (text[at] === '"') inside = !inside;
  }
  return inside;
}

/**
 * Whether the text before the word ends with a value (`age `, `1 `, `) `): then only `and` and `or` can
 * follow as a word (comparisons and arithmetic are symbols).
 */
function followsOperand(before: string): boolean {
  const { tokens, problem } = tokenizeExpression(before);
  if (problem) return false;
  const last = tokens[tokens.length - 2];
  if (last === undefined) return false;
  if (last.kind === 'word') return !['and', 'or', 'not'].includes(last.text);
  return last.kind !== 'symbol' || last.text === ')';
}

const startsWith = (label: string, prefix: string) => label.toLowerCase().startsWith(prefix.toLowerCase());

function keyOptions(keys: ScopeKey[], kind: CompletionKind, prefix: string): CompletionOption[] {
  return keys
    .filter(({ key }) => startsWith(key, prefix))
    .map(({ key, label }) => ({ label: key, kind, detail: label }));
}

/**
 * What can be typed at the cursor, for the editor's autocompletion: after `visit.` the forms of that visit,
 * after `form.` (or `visit.form.`) its items, after `$` the parameters, and at the start of a word the
 * current form's items, the forms, the visits, the functions (their number of arguments as detail), the
 * parameters and the keywords — each filtered by what is already typed; right after a value only `and`
 * and `or`. Nothing inside a text literal or a number.
 */
export function expressionCompletions(
  text: string,
  cursor: number,
  context: ExpressionTextContext,
): ExpressionCompletions {
  const { definition } = context;
  const position = Math.max(0, Math.min(cursor, text.length));
  let to = position;
  while (isKeyChar(text[to])) to++;
  if (insideString(text, position)) return { from: position, to: position, options: [] };

  let start = position;
  while (start > 0 && (isKeyChar(text[start - 1]) || text[start - 1] === '.')) start--;
  const word = text.slice(start, position);
  const parameters = Object.entries(definition.parameters ?? {}).map(([key, parameter]) => ({
    key,
    label: parameter.label,
  }));
  const parameterOptions = (prefix: string) =>
    keyOptions(parameters, 'param', prefix).map((option) => ({ ...option, label: `$${option.label}` }));

  if (text[start - 1] === '$') {
    return { from: start - 1, to, options: word.includes('.') ? [] : parameterOptions(word) };
  }
  // A number being typed (`12`, `1.5`) is no name.
  if (/^[0-9]/.test(word)) return { from: start, to, options: [] };

  const parts = word.split('.');
  const prefix = parts.pop() ?? '';
  const from = position - prefix.length;
  if (parts.length === 1) {
    const [head = ''] = parts;
    const options: CompletionOption[] = [];
    const visit = definition.visits.find((v) => v.key === head);
    if (visit) {
      const forms = definition.forms.filter((form) => visit.forms.includes(form.key));
      options.push(...keyOptions(forms, 'form', prefix));
    }
    const form = findForm(definition, head);
    if (form) options.push(...keyOptions(formKeys(form), 'item', prefix));
    return { from, to, options };
  }
  if (parts.length === 2) {
    const [visitKey = '', formKey = ''] = parts;
    return { from, to, options: keyOptions(formKeysAtVisit(definition, visitKey, formKey), 'item', prefix) };
  }
  if (parts.length > 2) return { from, to, options: [] };

  if (followsOperand(text.slice(0, start))) {
    const joiners = (['and', 'or'] as const).filter((keyword) => startsWith(keyword, prefix));
    return {
      from,
      to,
      options: joiners.map((keyword) => ({
        label: keyword,
        kind: 'keyword',
        detail: KEYWORD_DETAIL[keyword],
      })),
    };
  }
  const currentForm = context.formKey === undefined ? undefined : findForm(definition, context.formKey);
  const functions = FUNCTION_OPERATORS.filter((op) => startsWith(op, prefix)).map(
    (op): CompletionOption => ({ label: op, kind: 'function', detail: arityText(op) }),
  );
  const keywords = RESERVED_WORDS.filter((keyword) => startsWith(keyword, prefix)).map(
    (keyword): CompletionOption => ({ label: keyword, kind: 'keyword', detail: KEYWORD_DETAIL[keyword] }),
  );
  return {
    from,
    to,
    options: [
      ...(currentForm ? keyOptions(formKeys(currentForm), 'item', prefix) : []),
      ...keyOptions(definition.forms, 'form', prefix),
      ...keyOptions(definition.visits, 'visit', prefix),
      ...functions,
      ...parameterOptions(prefix),
      ...keywords,
    ],
  };
}
