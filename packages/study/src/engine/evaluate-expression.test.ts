import { describe, expect, it } from 'vitest';
import type { SubjectData } from '../model/json-value.ts';
import {
  type ExpressionContext,
  evaluateExpression,
  holds,
  isEmptyValue,
  resolveRef,
  roundTo,
} from './evaluate-expression.ts';
import {
  parseTracing,
  serializeTracing,
  type Tracing,
  tracingAreaPercent,
  tracingDiameterPercent,
} from './tracing.ts';

const data: SubjectData = {
  v1: {
    vitals: {
      weight: 70,
      height: 175,
      name: 'Kim',
      tags: ['a', 'b'],
      empty: '  ',
      done: true,
      nothing: null,
    },
    visit: { date: '2025-03-10' },
  },
  v2: { vitals: { weight: 68 } },
};
const context: ExpressionContext = {
  data,
  visitKey: 'v1',
  formKey: 'vitals',
  today: '2025-06-20',
  params: { limit: 30 },
};
const run = (expression: unknown, extra: Partial<ExpressionContext> = {}) =>
  evaluateExpression(expression, { ...context, ...extra });
const call = (op: string, ...args: unknown[]) => run({ op, args });

describe('evaluateExpression', () => {
  it('returns literals, and null for values that are not JSON', () => {
    expect(run(3)).toBe(3);
    expect(run('x')).toBe('x');
    expect(run(true)).toBe(true);
    expect(run(null)).toBeNull();
    expect(run(undefined)).toBeNull();
    expect(run(Number.NaN)).toBeNull();
    expect(run(() => 1)).toBeNull();
    expect(run([1, 2])).toBeNull();
    expect(run({ something: 'else' })).toBeNull();
  });

  it('resolves references: item, form.item, visit.form.item, rows first', () => {
    expect(run({ ref: 'weight' })).toBe(70);
    expect(run({ ref: 'visit.date' })).toBe('2025-03-10');
    expect(run({ ref: 'v2.vitals.weight' })).toBe(68);
    expect(run({ ref: 'weight' }, { row: { weight: 1 } })).toBe(1);
    expect(run({ ref: 'height' }, { row: { weight: 1 } })).toBe(175);
    expect(run({ ref: 'missing' })).toBeNull();
    expect(run({ ref: 'constructor' })).toBeNull();
    expect(run({ ref: 'v3.vitals.weight' })).toBeNull();
    expect(resolveRef('a.b.c.d', context)).toBeNull();
    expect(run({ ref: 'weight' }, { data: null as unknown as SubjectData })).toBeNull();
  });

  it('reads parameters', () => {
    expect(run({ param: 'limit' })).toBe(30);
    expect(run({ param: 'unknown' })).toBeNull();
    expect(run({ param: 'limit' }, { params: undefined })).toBeNull();
  });

  it('compares numbers and strings (dates sort as strings); other pairs are unknown', () => {
    expect(call('gt', 2, 1)).toBe(true);
    expect(call('gte', 2, 2)).toBe(true);
    expect(call('lt', '2025-01-01', '2025-02-01')).toBe(true);
    expect(call('lte', 'b', 'a')).toBe(false);
    expect(call('lt', 'a', 'a')).toBe(false);
    expect(call('gt', 'b', 'a')).toBe(true);
    expect(call('gt', 1, '1')).toBeNull();
    expect(call('gt', null, 1)).toBeNull();
    expect(call('eq', 1, 1)).toBe(true);
    expect(call('eq', null, 'Y')).toBe(false);
    expect(call('ne', null, true)).toBe(true);
    expect(call('eq', { ref: 'tags' }, 'a')).toBeNull();
  });

  it('uses three-valued logic', () => {
    const unknown = { op: 'gt', args: [null, 1] };
    expect(call('and', true, true)).toBe(true);
    expect(call('and', true, false)).toBe(false);
    expect(call('and', unknown, false)).toBe(false);
    expect(call('and', true, unknown)).toBeNull();
    expect(call('and', true, 'text')).toBeNull();
    expect(call('and')).toBeNull();
    expect(call('or', false, true)).toBe(true);
    expect(call('or', unknown, true)).toBe(true);
    expect(call('or', false, unknown)).toBeNull();
    expect(call('or', false, false)).toBe(false);
    expect(call('not', true)).toBe(false);
    expect(call('not', unknown)).toBeNull();
    expect(holds(unknown, context)).toBe(false);
    expect(holds(true, context)).toBe(true);
  });

  it('tests emptiness', () => {
    expect(call('isEmpty', { ref: 'empty' })).toBe(true);
    expect(call('isEmpty', { ref: 'nothing' })).toBe(true);
    expect(call('notEmpty', { ref: 'name' })).toBe(true);
    expect(call('notEmpty', { ref: 'done' })).toBe(true);
    expect(isEmptyValue([])).toBe(true);
    expect(isEmptyValue(undefined)).toBe(true);
    expect(isEmptyValue(0)).toBe(false);
    expect(isEmptyValue(false)).toBe(false);
  });

  it('tests membership, lists and counts', () => {
    expect(call('in', 'b', 'a', 'b')).toBe(true);
    expect(call('in', 'c', 'a', 'b')).toBe(false);
    expect(call('in', { ref: 'tags' }, 'a')).toBeNull();
    expect(run({ op: 'in' })).toBeNull();
    expect(call('contains', { ref: 'tags' }, 'a')).toBe(true);
    expect(call('contains', { ref: 'nothing' }, 'a')).toBe(false);
    expect(call('contains', { ref: 'name' }, 'a')).toBeNull();
    expect(call('count', { ref: 'tags' })).toBe(2);
    expect(call('count', { ref: 'nothing' })).toBe(0);
    expect(call('count', { ref: 'name' })).toBeNull();
  });

  it('chooses with if', () => {
    expect(call('if', true, 'a', 'b')).toBe('a');
    expect(call('if', false, 'a', 'b')).toBe('b');
    expect(call('if', null, 'a', 'b')).toBeNull();
  });

  it('does arithmetic on numbers only, with unknown for type errors and division by zero', () => {
    expect(call('add', 1, 2, 3)).toBe(6);
    expect(call('mul', 2, 3, 4)).toBe(24);
    expect(call('add', 1, '2')).toBeNull();
    expect(run({ op: 'add' })).toBeNull();
    expect(call('mul', 1e200, 1e200)).toBeNull();
    expect(call('sub', 5, 3)).toBe(2);
    expect(call('sub', 5, null)).toBeNull();
    expect(call('div', 6, 3)).toBe(2);
    expect(call('div', 6, 0)).toBeNull();
    expect(call('percent', 1, 4)).toBe(25);
    expect(call('percent', 1, 0)).toBeNull();
  });

  it('rounds half away from zero', () => {
    expect(call('round', 1.005, 2)).toBe(1.01);
    expect(call('round', 2.5)).toBe(3);
    expect(call('round', -2.5)).toBe(-3);
    expect(call('round', -0.4)).toBe(0);
    expect(Object.is(roundTo(-0.4, 0), 0)).toBe(true);
    expect(call('round', 22.857, 1)).toBe(22.9);
    expect(call('round', 'x', 1)).toBeNull();
    expect(call('round', 1.5, 1.5)).toBeNull();
    expect(call('round', 1.5, -1)).toBeNull();
    expect(call('round', 1.5, 11)).toBeNull();
    expect(call('round', 1.5, 'x')).toBeNull();
  });

  it('averages the values present', () => {
    expect(call('avg', 1, 2, null, 3)).toBe(2);
    expect(call('avg', null, '')).toBeNull();
    expect(call('avg', 1, 'x')).toBeNull();
  });

  it('computes date differences and today', () => {
    expect(call('daysBetween', { ref: 'visit.date' }, { op: 'today' })).toBe(102);
    expect(call('yearsBetween', '2000-06-21', { op: 'today' })).toBe(24);
    expect(run({ op: 'today' })).toBe('2025-06-20');
    expect(run({ op: 'today' }, { today: 'yesterday' })).toBeNull();
    expect(call('daysBetween', 'x', '2025-01-01')).toBeNull();
  });

  it('looks values up in bands', () => {
    const bands = [
      { max: 15, value: 'low' },
      { min: 16, max: 25, value: 'mid' },
      { min: 26, value: 'high' },
    ];
    const lookup = (value: unknown, b: unknown = bands) => run({ op: 'band', args: [value], bands: b });
    expect(lookup(-100)).toBe('low');
    expect(lookup(16)).toBe('mid');
    expect(lookup(1000)).toBe('high');
    expect(lookup(15.5)).toBeNull();
    expect(lookup('x')).toBeNull();
    expect(lookup(10, 'not bands')).toBeNull();
    expect(lookup(10, [null, 7, { min: 0, value: 3 }])).toBe(3);
  });

  it('treats unknown operators, odd arguments and deep nesting as unknown', () => {
    expect(run({ op: 'explode', args: [1] })).toBeNull();
    expect(run({ op: 'add', args: 'nope' })).toBeNull();
    let deep: unknown = 1;
    for (let i = 0; i < 100; i += 1) deep = { op: 'add', args: [deep, 1] };
    expect(run(deep)).toBeNull();
    let shallow: unknown = 1;
    for (let i = 0; i < 50; i += 1) shallow = { op: 'add', args: [shallow, 1] };
    expect(run(shallow)).toBe(51);
  });

  it('never throws, even when reading the data throws', () => {
    const trap: Record<string, unknown> = {};
    Object.defineProperty(trap, 'boom', {
      enumerable: true,
      get() {
        throw new Error('trap');
      },
    });
    const trapped = { v1: { vitals: trap } } as unknown as SubjectData;
    expect(run({ ref: 'boom' }, { data: trapped })).toBeNull();
  });

  it('measures each tracing text by itself, however many texts came before (remembered percents)', () => {
    // The percent of recent texts is remembered (parsing is costly): a text must never get another's.
    const tracingText = (perforationRadius: number) =>
      serializeTracing({
        version: 1,
        aspect: 1,
        membrane: { kind: 'ellipse', cx: 0.5, cy: 0.5, rx: 0.4, ry: 0.4 },
        perforation: { kind: 'ellipse', cx: 0.5, cy: 0.5, rx: perforationRadius, ry: perforationRadius },
      });
    const measure = (text: string) => {
      const withText: ExpressionContext = { ...context, data: { v1: { vitals: { t: text } } } };
      return [
        run({ op: 'tracingAreaPercent', args: [{ ref: 't' }] }, withText),
        run({ op: 'tracingDiameterPercent', args: [{ ref: 't' }] }, withText),
      ];
    };
    const radii = Array.from({ length: 150 }, (_, i) => 0.001 * (i + 1));
    // Twice over more texts than are remembered, so both remembered and forgotten texts are measured.
    for (const radius of [...radii, ...radii, ...radii.slice(0, 10)]) {
      const tracing = parseTracing(tracingText(radius)) as Tracing;
      const [area, diameter] = measure(tracingText(radius));
      expect(area).toBe(tracingAreaPercent(tracing));
      expect(diameter).toBe(tracingDiameterPercent(tracing));
    }
    expect(measure('{"version":1}')).toEqual([null, null]);
    expect(measure('not json')).toEqual([null, null]);
    expect(measure(`${tracingText(0.1)}${' '.repeat(30_000)}`)).toEqual([null, null]);
  });
});
