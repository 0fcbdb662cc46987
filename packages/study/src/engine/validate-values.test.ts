import { describe, expect, it } from 'vitest';
import { tmPerforationStudy } from '../studies/tm-perforation/index.ts';
import { VALUE_ERROR_CODES, valueErrorMessage } from './messages.ts';
import { miniStudy } from './test-fixtures.ts';
import { validateFormValues } from './validate-values.ts';

/** A deep copy (definitions are plain JSON). */
const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

const codes = (values: unknown, visit = 'a', form = 'main') =>
  validateFormValues(miniStudy, visit, form, values).errors.map((e) => `${e.path}:${e.code}`);

describe('validateFormValues', () => {
  it('accepts well-formed values, empty values and derived values', () => {
    const result = validateFormValues(miniStudy, 'a', 'main', {
      nd: false,
      count: 3,
      double: 6,
      name: 'abc',
      amount: 1.5,
      color: 'red',
      tags: ['red', 'blue'],
      flag: 'Y',
      time: '09:05',
      note: '',
      hiddenNote: null,
      entries: [{ title: 't', start: '2025-01-01', stop: null }],
    });
    expect(result).toEqual({ valid: true, errors: [] });
    expect(codes({ entries: null, tags: null })).toEqual([]);
  });

  it('refuses values of the wrong type with a code and a message in both languages', () => {
    expect(
      codes({
        nd: 'yes',
        count: 2.5,
        double: '6',
        amount: 1.25,
        rough: Number.NaN,
        color: 'green',
        tags: 'red',
        flag: true,
        time: '9:05',
        name: 5,
      }),
    ).toEqual([
      'main.nd:notABoolean',
      'main.count:notAnInteger',
      'main.double:notANumber',
      'main.amount:tooManyDecimals',
      'main.rough:notANumber',
      'main.color:notInCodeList',
      'main.tags:notAList',
      'main.flag:notInCodeList',
      'main.time:invalidTime',
      'main.name:notAString',
    ]);
    const result = validateFormValues(miniStudy, 'a', 'main', { amount: 1.25 });
    expect(result.valid).toBe(false);
    expect(result.errors[0]?.message).toEqual({
      ko: '소수점 이하 1자리까지 입력할 수 있습니다.',
      en: 'At most 1 decimal places are allowed.',
    });
  });

  it('checks text length and pattern, choices and dates', () => {
    expect(codes({ name: 'abcdef' })).toEqual(['main.name:tooLong']);
    expect(codes({ name: 'AB' })).toEqual(['main.name:patternMismatch']);
    expect(codes({ tags: ['red', 'red'] })).toEqual(['main.tags:duplicateChoice']);
    expect(codes({ tags: ['red', 'pink'] })).toEqual(['main.tags:notInCodeList']);
    expect(codes({ rough: 1e-7 })).toEqual(['main.rough:tooManyDecimals']);
    expect(codes({ rough: 1.123456 })).toEqual([]);
    expect(codes({ date: '2025-02-30' }, 'a', 'visit')).toEqual(['visit.date:invalidDate']);
    expect(codes({ date: '2025-02-28' }, 'a', 'visit')).toEqual([]);
  });

  it('refuses unknown items, items of another visit variant and row items at form level', () => {
    expect(codes({ ghost: 1, title: 'x' })).toEqual(['main.ghost:unknownItem', 'main.title:unknownItem']);
    expect(codes({ name: 'abc' }, 'b')).toEqual(['main.name:unknownItem']);
  });

  it('checks repeating groups: a list of row objects with known items, at most maxRows', () => {
    expect(codes({ entries: 'x' })).toEqual(['main.entries:notAList']);
    expect(codes({ entries: [1, { ghost: 1, start: 'soon', title: '' }] })).toEqual([
      'main.entries[0]:notARow',
      'main.entries[1].ghost:unknownItem',
      'main.entries[1].start:invalidDate',
    ]);
    expect(codes({ entries: [{}, {}, {}] })).toEqual(['main.entries:tooManyRows']);
    const row = validateFormValues(miniStudy, 'a', 'main', { entries: [{ ghost: 1 }] }).errors[0];
    expect(row).toMatchObject({ itemKey: 'ghost', groupKey: 'entries', rowIndex: 0 });
  });

  it('refuses values that are not an object and forms not in the visit', () => {
    expect(codes([])).toEqual(['main.:notAnObject']);
    expect(codes({}, 'b', 'log')).toEqual(['log.:unknownForm']);
  });

  it('does not block data over a broken pattern in a definition', () => {
    const broken = clone(miniStudy);
    const name = broken.forms[1]?.sections[1]?.items[0];
    if (name) name.pattern = '(';
    expect(validateFormValues(broken, 'a', 'main', { name: 'abc' }).valid).toBe(true);
  });

  it('validates the sample study forms', () => {
    expect(
      validateFormValues(tmPerforationStudy, 'v1', 'ptaTest', { air500: 30, airSeverity: '003' }).valid,
    ).toBe(true);
    expect(
      validateFormValues(tmPerforationStudy, 'v2', 'deviceApplication', { applicationTime: '25:00' }).valid,
    ).toBe(false);
  });

  it('has a message for every error code', () => {
    for (const code of VALUE_ERROR_CODES) {
      const message = valueErrorMessage(code, 3);
      expect(message.ko.length).toBeGreaterThan(0);
      expect(message.en.length).toBeGreaterThan(0);
    }
  });
});
