import type { JsonValue } from '../model/json-value.ts';
import type { ItemType } from '../model/study-definition.ts';

// How a stored value of one item type becomes a value of another. Widenings keep every value as it is
// and need no declaration; the others are total and lossless but change how a value reads, so the data
// manager declares them; any other pair is refused (a decimal to an integer would round, a text to a
// number would fail on some values).

export type ConversionKind = 'widening' | 'declared' | 'impossible';

const WIDENINGS: ReadonlySet<string> = new Set(['integer>decimal', 'text>textarea']);

const DECLARED: Readonly<Record<string, (value: JsonValue) => JsonValue>> = {
  'textarea>text': (value) => value,
  'integer>text': (value) => (typeof value === 'number' ? String(value) : value),
  'integer>textarea': (value) => (typeof value === 'number' ? String(value) : value),
  'decimal>text': (value) => (typeof value === 'number' ? String(value) : value),
  'decimal>textarea': (value) => (typeof value === 'number' ? String(value) : value),
  'date>text': (value) => value,
  'time>text': (value) => value,
  'singleChoice>multipleChoice': (value) => (typeof value === 'string' ? [value] : value),
  'yesNo>singleChoice': (value) => value,
  'checkbox>yesNo': (value) => (value === true ? 'Y' : value === false ? 'N' : value),
};

/** Whether a type change keeps values by itself, can be declared, or is refused. */
export function conversionKind(from: ItemType, to: ItemType): ConversionKind {
  const pair = `${from}>${to}`;
  if (from === to || WIDENINGS.has(pair)) return 'widening';
  return Object.hasOwn(DECLARED, pair) ? 'declared' : 'impossible';
}

/** A stored value converted (an empty value stays empty); a widening or an impossible pair keeps it. */
export function convertValue(from: ItemType, to: ItemType, value: JsonValue): JsonValue {
  if (value === null || value === '') return value;
  const convert = DECLARED[`${from}>${to}`];
  return convert ? convert(value) : value;
}
