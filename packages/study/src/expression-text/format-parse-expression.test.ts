import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type Expression,
  expressionSchema,
  OPERATOR_ARITY,
  OPERATORS,
  type Operator,
} from '../model/expression.ts';
import { type StudyDefinition, studyDefinitionSchema } from '../model/study-definition.ts';
import { eachExpression } from './each-expression.ts';
import { formatExpression } from './format-expression.ts';
import { parseExpression } from './parse-expression.ts';

const definitions = path.resolve(import.meta.dirname, '../../definitions');
function loadDefinition(file: string): StudyDefinition {
  return studyDefinitionSchema.parse(JSON.parse(fs.readFileSync(path.join(definitions, file), 'utf8')));
}

const roundTrip = (expression: Expression) => parseExpression(formatExpression(expression));

describe('formatExpression', () => {
  it.each<[Expression, string]>([
    [{ ref: 'age' }, 'age'],
    [{ ref: 'screening.demographics.age' }, 'screening.demographics.age'],
    [{ ref: 'and' }, '`and`'],
    [{ ref: 'today' }, 'today'],
    [{ param: 'minimumAge' }, '$minimumAge'],
    ['say "hi"\n', '"say \\"hi\\"\\n"'],
    [-0, '-0'],
    [1.5e-7, '1.5e-7'],
    [{ op: 'gte', args: [{ ref: 'age' }, { param: 'minimumAge' }] }, 'age >= $minimumAge'],
    [
      {
        op: 'and',
        args: [
          { op: 'or', args: [{ ref: 'a' }, { ref: 'b' }] },
          { op: 'not', args: [{ ref: 'c' }] },
        ],
      },
      '(a or b) and not c',
    ],
    [{ op: 'not', args: [{ op: 'eq', args: [{ ref: 'a' }, 1] }] }, 'not a = 1'],
    [{ op: 'mul', args: [{ op: 'add', args: [1, 2] }, 3] }, '(1 + 2) * 3'],
    [{ op: 'add', args: [{ op: 'add', args: [1, 2] }, 3] }, '(1 + 2) + 3'],
    [{ op: 'add', args: [{ op: 'sub', args: [1, 2] }, 3] }, '1 - 2 + 3'],
    [{ op: 'sub', args: [1, { op: 'sub', args: [2, 3] }] }, '1 - (2 - 3)'],
    [{ op: 'sub', args: [1, -2] }, '1 - -2'],
    [{ op: 'and', args: [{ ref: 'a' }] }, 'and(a)'],
    [{ op: 'today' }, 'today()'],
    [{ op: 'in', args: [{ ref: 'x' }, 'a', 'b'] }, 'in(x, "a", "b")'],
    [
      {
        op: 'band',
        args: [{ ref: 'x' }],
        bands: [
          { max: 9, value: 'low' },
          { min: 10, max: 20, value: 2 },
          { min: 21, value: 'high' },
        ],
      },
      'band(x; ..9: "low", 10..20: 2, 21..: "high")',
    ],
  ])('%j → %s', (expression, text) => {
    expect(formatExpression(expression)).toBe(text);
    expect(parseExpression(text)).toEqual({ expression, problems: [] });
  });
});

describe('parseExpression', () => {
  it('reads the same expression written more freely', () => {
    expect(parseExpression('  eq( a ,1 )').expression).toEqual({ op: 'eq', args: [{ ref: 'a' }, 1] });
    expect(parseExpression('not(a)').expression).toEqual({ op: 'not', args: [{ ref: 'a' }] });
    expect(parseExpression('((a))').expression).toEqual({ ref: 'a' });
    expect(parseExpression('a - b - c').expression).toEqual({
      op: 'sub',
      args: [{ op: 'sub', args: [{ ref: 'a' }, { ref: 'b' }] }, { ref: 'c' }],
    });
    expect(parseExpression('a or b and c').expression).toEqual({
      op: 'or',
      args: [{ ref: 'a' }, { op: 'and', args: [{ ref: 'b' }, { ref: 'c' }] }],
    });
  });

  it.each<[string, number, number, string]>([
    ['', 0, 0, 'empty expression'],
    ['a +', 3, 3, 'the expression ends too early'],
    ['a = b = c', 6, 7, 'comparisons do not chain: join them with "and" or use parentheses'],
    ['round(a, 1, 2)', 0, 14, 'round takes 1..2 arguments'],
    ['today(1)', 0, 8, 'today takes 0 arguments'],
    ['foo(a)', 0, 3, 'unknown function foo'],
    ['"abc', 0, 4, 'closing " is missing'],
    ['a.b.c.d', 0, 7, 'a reference has at most three parts: visit.form.item'],
    ['screening.', 9, 10, 'a key is expected after "."'],
    ['a and', 5, 5, 'the expression ends too early'],
    ['and', 0, 3, 'unexpected and'],
    ['a # b', 2, 3, 'unexpected character #'],
    ['-a', 0, 1, 'a minus sign goes before a number only: write 0 - x'],
    ['band(a)', 6, 7, 'band needs its bands after ";"'],
    ['(a', 2, 2, '")" expected here'],
    ['a b', 2, 3, 'unexpected b'],
    ['1e400', 0, 5, 'number too large'],
    [`${'not '.repeat(300)}a`, 800, 803, 'the expression is nested too deeply'],
    [`${'('.repeat(300)}a`, 200, 201, 'the expression is nested too deeply'],
    ['round(x; 1..2: 3)', 7, 8, '")" expected here'],
  ])('%j: a problem at [%i, %i): %s', (text, start, end, en) => {
    const result = parseExpression(text);
    expect(result.expression).toBeNull();
    expect(result.problems[0]).toMatchObject({ start, end, message: { en } });
    expect(result.problems[0]?.message.ko).toBeTruthy();
  });

  it('never throws, whatever is typed', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...'ab.$`"\\()-+*/<>=,;:.0 1eandornot'.split('')) }),
        (text) => {
          const result = parseExpression(text);
          if (result.expression !== null)
            expect(expressionSchema.safeParse(result.expression).success).toBe(true);
          else expect(result.problems.length).toBeGreaterThan(0);
        },
      ),
    );
  });
});

describe('round trip', () => {
  it.each(['tm-perforation.json', 'hear-followup.json'])('every expression of %s', (file) => {
    const placed = eachExpression(loadDefinition(file));
    expect(placed.length).toBeGreaterThan(10);
    for (const { where, expression } of placed) {
      const result = roundTrip(expression);
      expect({ where, ...result }).toEqual({ where, expression, problems: [] });
    }
  });

  // Keys include the reserved words and function names, which must survive as references too.
  const key = fc.oneof(
    fc.stringMatching(/^[A-Za-z][A-Za-z0-9]{0,6}$/),
    fc.constantFrom('and', 'or', 'not', 'true', 'false', 'null', 'today', 'band', 'in', 'e1'),
  );
  const number = fc.oneof(
    fc.integer({ min: -100, max: 100 }),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
  );
  const band = fc.record(
    { min: number, max: number, value: fc.oneof(fc.string(), number) },
    { requiredKeys: ['value'] },
  );
  const { expression } = fc.letrec<{ expression: Expression }>((tie) => ({
    expression: fc.oneof(
      // Operators weigh more than leaves so that trees nest; maxDepth keeps them finite.
      { maxDepth: 5, withCrossShrink: true },
      fc.string(),
      number,
      fc.boolean(),
      fc.constant(null),
      fc.array(key, { minLength: 1, maxLength: 3 }).map((parts) => ({ ref: parts.join('.') })),
      key.map((name) => ({ param: name })),
      {
        weight: 6,
        arbitrary: fc.constantFrom(...OPERATORS).chain((op: Operator): fc.Arbitrary<Expression> => {
          const [min, max] = OPERATOR_ARITY[op];
          const args = fc.array(tie('expression'), { minLength: min, maxLength: max ?? min + 2 });
          if (op === 'band')
            return fc
              .tuple(args, fc.array(band, { minLength: 1, maxLength: 3 }))
              .map(([a, bands]) => ({ op, args: a, bands }));
          return args.map((a) => (a.length === 0 ? { op } : { op, args: a }));
        }),
      },
    ),
  }));

  it('holds for random expressions', () => {
    fc.assert(
      fc.property(expression, (e) => {
        expect(roundTrip(e)).toEqual({ expression: e, problems: [] });
      }),
      { numRuns: 1000 },
    );
  });
});
