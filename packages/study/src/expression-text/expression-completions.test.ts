import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  findDefinitionProblemTexts,
  type StudyDefinition,
  studyDefinitionSchema,
} from '../model/study-definition.ts';
import { checkExpressionText } from './check-expression-text.ts';
import { eachExpression } from './each-expression.ts';
import { expressionCompletions } from './expression-completions.ts';
import { formatExpression } from './format-expression.ts';

const definitions = path.resolve(import.meta.dirname, '../../definitions');
function loadDefinition(file: string): StudyDefinition {
  return studyDefinitionSchema.parse(JSON.parse(fs.readFileSync(path.join(definitions, file), 'utf8')));
}
const definition = loadDefinition('tm-perforation.json');
const inDemographics = { definition, formKey: 'demographicInfo', visitKey: 'v1' };

/** Completions at the `|` of the text. */
function complete(
  textWithCursor: string,
  context: Parameters<typeof expressionCompletions>[2] = inDemographics,
) {
  const cursor = textWithCursor.indexOf('|');
  return expressionCompletions(textWithCursor.replace('|', ''), cursor, context);
}
const labels = (result: ReturnType<typeof complete>) => result.options.map((o) => o.label);

describe('expressionCompletions', () => {
  it('offers the forms of a visit after "visit."', () => {
    const result = complete('v1.|');
    expect(result).toMatchObject({ from: 3, to: 3 });
    expect(labels(result).slice(0, 4)).toEqual([
      'visitDay',
      'demographicInfo',
      'diseaseBasicInfo',
      'bodyMeasurement',
    ]);
    expect(labels(result)).not.toContain('adverseEvent');
    expect(result.options.every((o) => o.kind === 'form')).toBe(true);
    expect(labels(complete('v1.d|'))).toEqual(['demographicInfo', 'diseaseBasicInfo']);
  });

  it('offers the items of a form after "form." and after "visit.form."', () => {
    expect(labels(complete('bodyMeasurement.|'))).toEqual([
      'nd',
      'measurementDate',
      'height',
      'weight',
      'bmi',
    ]);
    expect(complete('bodyMeasurement.he|ight = 1')).toMatchObject({
      from: 16,
      to: 22,
      options: [{ label: 'height', kind: 'item' }],
    });
    // visitDay has its "nd" only in visit v6's layout.
    expect(labels(complete('v1.visitDay.|'))).not.toContain('nd');
    expect(labels(complete('v6.visitDay.|'))).toContain('nd');
    expect(labels(complete('visitDay.|'))).toContain('nd');
  });

  it('offers items, forms, visits, functions, parameters and keywords at a word start, filtered by the prefix', () => {
    const all = complete('age >= |');
    expect(all.options.find((o) => o.label === 'birthDate')).toMatchObject({ kind: 'item' });
    expect(all.options.find((o) => o.label === 'v1')).toMatchObject({ kind: 'visit' });
    expect(all.options.find((o) => o.label === 'round')).toEqual({
      label: 'round',
      kind: 'function',
      detail: { en: '1..2 arguments', ko: '인수 1..2개' },
    });
    expect(all.options.find((o) => o.label === '$minimumAge')).toMatchObject({
      kind: 'param',
      detail: { en: 'Minimum age (years)' },
    });
    expect(labels(complete('a|'))).toEqual([
      'age',
      'adverseEvent',
      'all',
      'avg',
      '$audiometryImagingWindowDays',
      'and',
    ]);
    expect(complete('no|')).toMatchObject({ from: 0, to: 2 });
    expect(labels(complete('no|'))).toEqual(['notEmpty', 'not']);
  });

  it('offers only "and" and "or" right after a value', () => {
    expect(labels(complete('age > 1 |'))).toEqual(['and', 'or']);
    expect(labels(complete('(age > 1) o|'))).toEqual(['or']);
    expect(labels(complete('not |'))).toContain('age');
    expect(labels(complete('age > 1 and |'))).toContain('age');
  });

  it('offers parameters after "$", and nothing inside a text or a number', () => {
    expect(complete('age >= $mi|')).toMatchObject({
      from: 7,
      to: 10,
      options: [{ label: '$minimumAge', kind: 'param' }],
    });
    expect(complete('gender = "a|"').options).toEqual([]);
    expect(complete('age = 1|').options).toEqual([]);
  });
});

describe('checkExpressionText', () => {
  it('finds nothing in any expression of the demo definitions, which have no definition problems', () => {
    for (const file of ['tm-perforation.json', 'hear-followup.json']) {
      const study = loadDefinition(file);
      expect(findDefinitionProblemTexts(study)).toEqual([]);
      for (const { where, expression, formKey } of eachExpression(study)) {
        const problems = checkExpressionText(formatExpression(expression), {
          definition: study,
          ...(formKey ? { formKey } : {}),
        });
        expect({ where, problems }).toEqual({ where, problems: [] });
      }
    }
  });

  it('underlines unknown references and parameters where they are written', () => {
    const text = 'age >= $maximumAge and bogus = 1 and v1.visitDay.nd = 1 and nowhere.x = 1 and v9.a.b = 1';
    const problems = checkExpressionText(text, inDemographics);
    expect(problems.map((p) => [text.slice(p.start, p.end), p.message.en])).toEqual([
      ['$maximumAge', 'unknown parameter $maximumAge'],
      ['bogus', 'unknown item bogus in form demographicInfo'],
      ['v1.visitDay.nd', 'form visitDay at visit v1 has no item nd'],
      ['nowhere.x', 'unknown form nowhere'],
      ['v9.a.b', 'unknown visit v9'],
    ]);
    expect(problems.every((p) => p.message.ko.length > 0)).toBe(true);
  });

  it('asks for visit.form.item where there is no form (status rules)', () => {
    const problems = checkExpressionText('age = 1 or v1.demographicInfo.age = 1', { definition });
    expect(problems).toEqual([
      {
        start: 0,
        end: 3,
        message: {
          en: 'age: a reference here names visit, form and item (visit.form.item)',
          ko: 'age: 여기서는 참조에 방문, 양식, 항목을 모두 씁니다 (visit.form.item)',
        },
      },
    ]);
  });

  it('gives the parse problems too, with the references read before them', () => {
    const problems = checkExpressionText('bogus = (1 +', inDemographics);
    expect(problems.map((p) => p.message.en)).toEqual([
      'unknown item bogus in form demographicInfo',
      'the expression ends too early',
    ]);
  });
});
