import { describe, expect, it } from 'vitest';
import { gt, op, param, ref } from '../model/expression-builders.ts';
import type { FormDefinition, StudyDefinition } from '../model/study-definition.ts';
import { evaluateSubject, findFormEvaluation } from './evaluate-subject.ts';
import { getFormLayout, getStudyIndex } from './study-index.ts';
import { miniStudy } from './test-fixtures.ts';

const today = '2025-06-20';

/** A copy of the mini study whose `main` form derives, checks, shows and routes differently. */
function otherStudy(): StudyDefinition {
  const definition = JSON.parse(JSON.stringify(miniStudy)) as StudyDefinition;
  const main = definition.forms.find((form) => form.key === 'main') as FormDefinition;
  const head = main.sections[0];
  const double = head?.items.find((item) => item.key === 'double');
  if (double) double.derive = op('mul', ref('count'), 3);
  const body = main.sections[1];
  if (body) body.showWhen = gt(ref('count'), 100);
  const big = main.checks?.find((check) => check.id === 'main.count.big');
  if (big) big.when = gt(ref('count'), op('mul', param('limit'), 100));
  const zero = main.outcomes?.[0];
  if (zero) zero.when = gt(ref('count'), 0);
  return definition;
}

describe('study index', () => {
  it('keeps the prepared rules of each definition apart, whatever the order of use', () => {
    const other = otherStudy();
    const data = { a: { visit: { date: '2025-06-01' }, main: { count: 30, name: 'ab' } } };
    const summary = (definition: StudyDefinition) => {
      const main = findFormEvaluation(evaluateSubject(definition, data, { today }), 'a', 'main');
      return {
        double: main?.derived.double,
        bodyVisible: main?.sections.find((section) => section.key === 'body')?.visible,
        checks: main?.checks.map((check) => check.checkId),
        outcomes: main?.outcomes.map((outcome) => outcome.outcomeId),
      };
    };
    const expectedMini = {
      double: 60,
      bodyVisible: true,
      checks: ['main.count.range', 'main.count.big'],
      outcomes: [],
    };
    const expectedOther = {
      double: 90,
      bodyVisible: false,
      checks: ['main.count.range'],
      outcomes: ['main.zero'],
    };
    expect(summary(miniStudy)).toEqual(expectedMini);
    expect(summary(other)).toEqual(expectedOther);
    expect(summary(miniStudy)).toEqual(expectedMini);
    expect(summary(other)).toEqual(expectedOther);
    expect(getStudyIndex(other)).not.toBe(getStudyIndex(miniStudy));
    expect(getFormLayout(other, 'a', 'main')?.rules).not.toBe(getFormLayout(miniStudy, 'a', 'main')?.rules);
  });

  it('prepares each layout once per definition', () => {
    const layout = getFormLayout(miniStudy, 'a', 'main');
    expect(getFormLayout(miniStudy, 'a', 'main')).toBe(layout);
    expect(layout?.rules.checks.map(({ check }) => check.id)).toEqual(
      layout?.checks.map((check) => check.id),
    );
    expect(layout?.rules.derivations.map(({ item }) => item.key)).toEqual(
      layout?.derivedItems.map((item) => item.key),
    );
  });
});
