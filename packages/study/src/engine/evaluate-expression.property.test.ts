import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OPERATORS } from '../model/expression.ts';
import type { SubjectData } from '../model/json-value.ts';
import { tmPerforationStudy } from '../studies/tm-perforation/index.ts';
import { SAMPLE_TODAY, sampleSubject } from '../studies/tm-perforation/sample-subject.ts';
import { evaluateExpression } from './evaluate-expression.ts';
import { evaluateSubject } from './evaluate-subject.ts';
import { validateFormValues } from './validate-values.ts';

// Property tests: whatever the expression and whatever the data, the engine answers with JSON and never
// throws; the same input gives the same answer.

const refNames = ['a', 'b', 'v1.f.a', 'f.b', 'v1.f.rows', 'x.y.z.w', '__proto__', 'constructor', ''];

const { expression } = fc.letrec((tie) => ({
  expression: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.jsonValue({ maxDepth: 1 }),
    fc.record({ ref: fc.constantFrom(...refNames) }),
    fc.record({ param: fc.constantFrom('limit', 'missing') }),
    fc.record(
      {
        op: fc.constantFrom(...OPERATORS, 'bogus'),
        args: fc.array(tie('expression'), { maxLength: 4 }),
        bands: fc.oneof(
          fc.constant(undefined),
          fc.array(
            fc.record(
              { min: fc.option(fc.integer()), max: fc.option(fc.integer()), value: fc.string() },
              { requiredKeys: ['value'] },
            ),
          ),
          fc.anything(),
        ),
      },
      { requiredKeys: ['op'] },
    ),
    fc.anything({ maxDepth: 2 }),
  ),
}));

const formValues = fc.dictionary(fc.constantFrom('a', 'b', 'rows', 'date'), fc.jsonValue({ maxDepth: 2 }));
const subjectData = fc.oneof(
  fc.record({ v1: fc.record({ f: formValues }) }),
  fc.jsonValue({ maxDepth: 3 }),
  fc.anything({ maxDepth: 3 }),
);
const today = fc.oneof(fc.constant('2025-06-20'), fc.string());

describe('evaluateExpression (properties)', () => {
  it('never throws and always returns JSON, deterministically', () => {
    fc.assert(
      fc.property(expression, subjectData, today, (expr, data, day) => {
        const context = {
          data: data as SubjectData,
          visitKey: 'v1',
          formKey: 'f',
          today: day,
          params: { limit: 3 },
        };
        const first = evaluateExpression(expr, context);
        const second = evaluateExpression(expr, context);
        expect(JSON.stringify(first)).toBe(JSON.stringify(second));
        expect(first === undefined || Number.isNaN(first)).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it('logic operators return a boolean or null', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(
          'and',
          'or',
          'not',
          'eq',
          'ne',
          'gt',
          'gte',
          'lt',
          'lte',
          'in',
          'isEmpty',
          'notEmpty',
          'contains',
        ),
        fc.array(expression, { maxLength: 3 }),
        (op, args) => {
          const value = evaluateExpression(
            { op, args },
            { data: {}, visitKey: 'v1', formKey: 'f', today: '2025-01-01' },
          );
          expect(value === null || typeof value === 'boolean').toBe(true);
        },
      ),
    );
  });
});

describe('evaluateSubject and validateFormValues (properties)', () => {
  it('never throw on arbitrary subject data', () => {
    fc.assert(
      fc.property(fc.anything({ maxDepth: 4 }), (data) => {
        const evaluation = evaluateSubject(tmPerforationStudy, data, { today: SAMPLE_TODAY });
        expect(evaluation.forms.length).toBeGreaterThan(0);
        for (const visit of ['v1', 'all'])
          validateFormValues(tmPerforationStudy, visit, 'adverseEvent', data);
        validateFormValues(tmPerforationStudy, 'v1', 'ptaTest', data);
      }),
      { numRuns: 300 },
    );
  }, 30_000);

  it('never throw when any item of the sample subject holds any value', () => {
    const forms = tmPerforationStudy.visits.flatMap((v) => v.forms.map((f) => [v.key, f] as const));
    fc.assert(
      fc.property(
        fc.constantFrom(...forms),
        fc.string({ maxLength: 20 }),
        fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.anything({ maxDepth: 2 })),
        (place, key, value) => {
          const [visit, form] = place;
          const data = sampleSubject();
          const values = data[visit]?.[form] ?? {};
          const keys = Object.keys(values);
          const target =
            keys.length > 0 && key.length % 2 === 0 ? (keys[key.length % keys.length] as string) : key;
          values[target] = value as never;
          const evaluation = evaluateSubject(tmPerforationStudy, data, { today: SAMPLE_TODAY });
          expect(evaluation.forms.length).toBeGreaterThan(0);
          const validation = validateFormValues(tmPerforationStudy, visit, form, values);
          expect(typeof validation.valid).toBe('boolean');
        },
      ),
      { numRuns: 500 },
    );
    // 500 whole-subject evaluations: seconds on a busy machine. This test is about throwing, not
    // speed, so it gets room instead of Vitest's 5 s default.
  }, 30_000);
});
