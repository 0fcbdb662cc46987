import type { ItemDefinition, JsonValue } from '@cdms/study';

// Number inputs are text inputs: what the user types is cleaned as they type (spec §5: height and weight
// keep only digits and a dot), and the store receives a number, or null while the text is empty or
// unfinished ("-", ".").

type NumberItem = Pick<ItemDefinition, 'type' | 'decimals' | 'min' | 'hardMin'>;

/**
 * A minus sign is only worth accepting when the item's range allows negative values: its hard limit
 * where it has one (a soft range may be left, with a query), else its soft range.
 */
function allowsNegative(item: NumberItem): boolean {
  const lowest = item.hardMin ?? item.min;
  return lowest === undefined || lowest < 0;
}

/** Keeps digits, at most one dot (decimal items, up to `decimals` places) and a leading minus sign. */
export function cleanNumberText(item: NumberItem, text: string): string {
  const negative = allowsNegative(item) && text.trimStart().startsWith('-');
  let digits = '';
  let seenDot = false;
  let fraction = 0;
  for (const char of text) {
    if (char >= '0' && char <= '9') {
      if (seenDot) {
        if (item.decimals !== undefined && fraction >= item.decimals) continue;
        fraction += 1;
      }
      digits += char;
    } else if (char === '.' && item.type === 'decimal' && !seenDot && item.decimals !== 0) {
      seenDot = true;
      digits += char;
    }
  }
  return negative ? `-${digits}` : digits;
}

/** The number a cleaned text stands for; null while empty or unfinished. */
export function parseNumberText(text: string): number | null {
  if (text === '' || text === '-' || text === '.' || text === '-.') return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}

/** The text shown for a stored value (a number, or anything else the data happens to hold). */
export function numberToText(value: JsonValue): string {
  return value === null || value === undefined ? '' : String(value);
}
