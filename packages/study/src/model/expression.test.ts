import { describe, expect, it } from 'vitest';
import { collectParams, collectRefs, expressionSchema } from './expression.ts';
import { band, isChecked, oneOf, op, param, ref, today } from './expression-builders.ts';

describe('expressionSchema', () => {
  it('accepts literals, references, parameters and operators', () => {
    for (const expression of [
      1,
      'Y',
      true,
      null,
      { ref: 'age' },
      { ref: 'v1.diseaseBasicInfo.earDischarge' },
      { param: 'minimumAge' },
      { op: 'gte', args: [{ ref: 'age' }, 15] },
      { op: 'today' },
      band(ref('x'), [{ max: 15, value: '001' }]),
      oneOf(ref('x'), 'a', 'b'),
      isChecked('nd'),
    ]) {
      expect(expressionSchema.safeParse(expression).success, JSON.stringify(expression)).toBe(true);
    }
  });

  it('refuses functions, bad references, unknown operators, wrong arity and stray bands', () => {
    for (const expression of [
      () => 1,
      Number.POSITIVE_INFINITY,
      { ref: 'a.b.c.d' },
      { ref: 'a..b' },
      { ref: 'x', extra: 1 },
      { param: 'a.b' },
      { op: 'explode', args: [] },
      { op: 'not', args: [true, false] },
      { op: 'eq', args: [1] },
      { op: 'today', args: [1] },
      { op: 'band', args: [1] },
      { op: 'eq', args: [1, 2], bands: [{ value: 'x' }] },
      [1, 2],
    ]) {
      expect(expressionSchema.safeParse(expression).success, String(JSON.stringify(expression))).toBe(false);
    }
  });
});

describe('collectRefs and collectParams', () => {
  const expression = op('and', op('gt', ref('a'), param('p')), op('lt', ref('v1.f.b'), today()), 'literal');
  it('find every reference and parameter', () => {
    expect(collectRefs(expression)).toEqual(['a', 'v1.f.b']);
    expect(collectParams(expression)).toEqual(['p']);
    expect(collectRefs(undefined)).toEqual([]);
    expect(collectParams(null)).toEqual([]);
    expect(collectRefs(param('p'))).toEqual([]);
    expect(collectParams(ref('a'))).toEqual([]);
  });
});
