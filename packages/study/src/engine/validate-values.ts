import type { LocalizedText } from '../model/localized-text.ts';
import type { ItemDefinition, StudyDefinition } from '../model/study-definition.ts';
import { isValidDate, isValidTime } from './dates.ts';
import { isEmptyValue, isRecord } from './evaluate-expression.ts';
import { type ValueErrorCode, valueErrorMessage } from './messages.ts';
import { getFormLayout, getItemCodes } from './study-index.ts';
import { parsePhotoReference, parseTracing } from './tracing.ts';

// Shape checks the server runs before saving a form: is every value of the type its item declares? Empty
// values (null, "") are always acceptable here; whether they are required is the engine's business.
// Errors are returned, never thrown, so the server can answer 422 with every problem at once.

export interface ValueError {
  itemKey: string;
  groupKey?: string | undefined;
  rowIndex?: number | undefined;
  /** "medicalHistory.histories[0].endDate" */
  path: string;
  code: ValueErrorCode;
  message: LocalizedText;
}

export interface ValueValidation {
  valid: boolean;
  errors: ValueError[];
}

interface Place {
  itemKey: string;
  groupKey?: string | undefined;
  rowIndex?: number | undefined;
}

function decimalPlaces(value: number): number {
  const text = String(value);
  if (text.includes('e')) return Number.POSITIVE_INFINITY;
  return text.split('.')[1]?.length ?? 0;
}

function matchesPattern(pattern: string, value: string): boolean {
  try {
    return new RegExp(`^(?:${pattern})$`).test(value);
  } catch {
    // A definition with a broken pattern is refused by its schema; do not block data over it here.
    return true;
  }
}

/** The error code for one non-empty value of an item, or null when it fits. */
function checkValue(
  definition: StudyDefinition,
  item: ItemDefinition,
  value: unknown,
): { code: ValueErrorCode; limit?: number } | null {
  switch (item.type) {
    case 'text':
    case 'textarea':
      if (typeof value !== 'string') return { code: 'notAString' };
      if (item.maxLength !== undefined && value.length > item.maxLength)
        return { code: 'tooLong', limit: item.maxLength };
      if (item.pattern !== undefined && !matchesPattern(item.pattern, value))
        return { code: 'patternMismatch' };
      return null;
    case 'integer':
      if (typeof value !== 'number' || !Number.isFinite(value)) return { code: 'notANumber' };
      return Number.isInteger(value) ? null : { code: 'notAnInteger' };
    case 'decimal': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return { code: 'notANumber' };
      const allowed = item.decimals ?? 6;
      return decimalPlaces(value) > allowed ? { code: 'tooManyDecimals', limit: allowed } : null;
    }
    case 'date':
      return isValidDate(value) ? null : { code: 'invalidDate' };
    case 'time':
      return isValidTime(value) ? null : { code: 'invalidTime' };
    case 'checkbox':
      return typeof value === 'boolean' ? null : { code: 'notABoolean' };
    case 'singleChoice':
    case 'yesNo': {
      const codes = getItemCodes(definition, item);
      return typeof value === 'string' && codes.some((c) => c.code === value)
        ? null
        : { code: 'notInCodeList' };
    }
    case 'photo':
      return parsePhotoReference(value) ? null : { code: 'invalidPhotoReference' };
    case 'tracing':
      return parseTracing(value) ? null : { code: 'invalidTracing' };
    case 'multipleChoice': {
      if (!Array.isArray(value)) return { code: 'notAList' };
      const codes = getItemCodes(definition, item);
      if (!value.every((v) => typeof v === 'string' && codes.some((c) => c.code === v)))
        return { code: 'notInCodeList' };
      return new Set(value).size === value.length ? null : { code: 'duplicateChoice' };
    }
  }
}

/**
 * Validates the values of one form of one visit: unknown keys are refused, each value must fit its item's
 * type, repeating groups must be arrays of row objects. Values of derived items are accepted (the engine
 * recomputes them); hidden items are not refused (the renderer may keep a value while a condition is off).
 */
export function validateFormValues(
  definition: StudyDefinition,
  visitKey: string,
  formKey: string,
  values: unknown,
): ValueValidation {
  const errors: ValueError[] = [];
  const add = (place: Place, code: ValueErrorCode, limit?: number) => {
    let path = `${formKey}.${place.itemKey}`;
    if (place.groupKey !== undefined)
      path = `${formKey}.${place.groupKey}[${place.rowIndex}].${place.itemKey}`;
    else if (place.rowIndex !== undefined) path = `${path}[${place.rowIndex}]`;
    errors.push({
      ...place,
      path,
      code,
      message: valueErrorMessage(code, limit),
    });
  };
  const layout = getFormLayout(definition, visitKey, formKey);
  if (!layout) {
    add({ itemKey: '' }, 'unknownForm');
    return { valid: false, errors };
  }
  if (!isRecord(values)) {
    add({ itemKey: '' }, 'notAnObject');
    return { valid: false, errors };
  }
  for (const [key, value] of Object.entries(values)) {
    const group = layout.groups.get(key);
    if (group) {
      if (value === null) continue;
      if (!Array.isArray(value)) {
        add({ itemKey: key }, 'notAList');
        continue;
      }
      const maxRows = group.repeating?.maxRows;
      if (maxRows !== undefined && value.length > maxRows) add({ itemKey: key }, 'tooManyRows', maxRows);
      value.forEach((row: unknown, rowIndex) => {
        if (!isRecord(row)) {
          add({ itemKey: key, rowIndex }, 'notARow');
          return;
        }
        for (const [rowKey, rowValue] of Object.entries(row)) {
          const place = { itemKey: rowKey, groupKey: key, rowIndex };
          const item = group.items.find((i) => i.key === rowKey);
          if (!item) {
            add(place, 'unknownItem');
            continue;
          }
          if (isEmptyValue(rowValue) && !Array.isArray(rowValue)) continue;
          const problem = checkValue(definition, item, rowValue);
          if (problem) add(place, problem.code, problem.limit);
        }
      });
      continue;
    }
    const location = layout.items.get(key);
    if (!location || location.groupKey !== undefined) {
      add({ itemKey: key }, 'unknownItem');
      continue;
    }
    if (isEmptyValue(value) && !Array.isArray(value)) continue;
    const problem = checkValue(definition, location.item, value);
    if (problem) add({ itemKey: key }, problem.code, problem.limit);
  }
  return { valid: errors.length === 0, errors };
}
