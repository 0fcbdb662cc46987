import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Expression } from '../../model/expression.ts';
import type { ItemDefinition, StudyDefinition } from '../../model/study-definition.ts';
import { tmPerforationStudy } from '../../studies/tm-perforation/index.ts';
import { readRedcapDictionary } from './read-redcap-dictionary.ts';
import { type LogicField, translateRedcapLogic } from './redcap-logic.ts';
import { keyFromRedcapName, redcapNameFromKey } from './redcap-names.ts';
import { writeRedcapDictionary } from './write-redcap-dictionary.ts';

const examples = path.resolve(import.meta.dirname, '../../../../../docs/examples');
const exampleDictionary = fs.readFileSync(path.join(examples, 'redcap-dictionary.csv'), 'utf8');
const exampleMapping = fs.readFileSync(path.join(examples, 'redcap-event-mapping.csv'), 'utf8');

const fields: Record<string, LogicField> = {
  age: { key: 'age', formKey: 'demo', type: 'integer', yesNo: false },
  sex: { key: 'sex', formKey: 'demo', type: 'singleChoice', yesNo: false },
  smoker: { key: 'smoker', formKey: 'demo', type: 'yesNo', yesNo: true },
  race: { key: 'race', formKey: 'demo', type: 'multipleChoice', yesNo: false },
  dob: { key: 'dob', formKey: 'demo', type: 'date', yesNo: false },
  weight: { key: 'weight', formKey: 'vitals', type: 'decimal', yesNo: false },
};
const scope = {
  formKey: 'demo',
  field: (name: string) => fields[name],
  visit: (event: string) => (event === 'week_4_arm_1' ? 'week4' : undefined),
};

function translated(logic: string): Expression {
  const result = translateRedcapLogic(logic, scope);
  if ('problem' in result) throw new Error(result.problem.en);
  return result.expression;
}

function problemOf(logic: string): string | undefined {
  const result = translateRedcapLogic(logic, scope);
  return 'problem' in result ? result.problem.en : undefined;
}

describe('REDCap names', () => {
  it('map snake case to keys and back', () => {
    expect(keyFromRedcapName('adverse_events')).toBe('adverseEvents');
    expect(keyFromRedcapName('air_500')).toBe('air500');
    expect(redcapNameFromKey('adverseEvents')).toBe('adverse_events');
    expect(redcapNameFromKey('air500')).toBe('air500');
    expect(keyFromRedcapName(redcapNameFromKey('perforationAreaPercent'))).toBe('perforationAreaPercent');
  });
});

describe('REDCap logic', () => {
  it('reads comparisons with literals of the field’s kind', () => {
    expect(translated("[age] >= '18' and [sex] = '2'")).toEqual({
      op: 'and',
      args: [
        { op: 'gte', args: [{ ref: 'age' }, 18] },
        { op: 'eq', args: [{ ref: 'sex' }, '2'] },
      ],
    });
    expect(translated("[smoker] = '1'")).toEqual({ op: 'eq', args: [{ ref: 'smoker' }, 'Y'] });
    expect(translated('[sex] <> 2')).toEqual({ op: 'ne', args: [{ ref: 'sex' }, '2'] });
  });

  it('reads blanks, checkboxes, events, other forms and precedence', () => {
    expect(translated("[dob] = ''")).toEqual({ op: 'isEmpty', args: [{ ref: 'dob' }] });
    expect(translated('[dob] <> ""')).toEqual({ op: 'notEmpty', args: [{ ref: 'dob' }] });
    expect(translated("[race(3)] = '1'")).toEqual({ op: 'contains', args: [{ ref: 'race' }, '3'] });
    expect(translated("[race(3)] = '0'")).toEqual({
      op: 'not',
      args: [{ op: 'contains', args: [{ ref: 'race' }, '3'] }],
    });
    expect(translated('[week_4_arm_1][weight] - [weight]')).toEqual({
      op: 'sub',
      args: [{ ref: 'week4.vitals.weight' }, { ref: 'vitals.weight' }],
    });
    expect(translated('1 + 2 * [age] ^ 2')).toEqual({
      op: 'add',
      args: [1, { op: 'mul', args: [2, { op: 'mul', args: [{ ref: 'age' }, { ref: 'age' }] }] }],
    });
    expect(translated("[age] > 1 or [age] < 0 or not([sex] = '1')")).toEqual({
      op: 'or',
      args: [
        { op: 'gt', args: [{ ref: 'age' }, 1] },
        { op: 'lt', args: [{ ref: 'age' }, 0] },
        { op: 'not', args: [{ op: 'eq', args: [{ ref: 'sex' }, '1'] }] },
      ],
    });
  });

  it('reads functions that have a counterpart', () => {
    expect(translated('datediff([dob], "today", "y", true)')).toEqual({
      op: 'yearsBetween',
      args: [{ ref: 'dob' }, { op: 'today' }],
    });
    expect(translated('round(mean([age], [weight]), 1)')).toEqual({
      op: 'round',
      args: [{ op: 'avg', args: [{ ref: 'age' }, { ref: 'vitals.weight' }] }, 1],
    });
    expect(translated("if([age] > 18, 'adult', '')")).toEqual({
      op: 'if',
      args: [{ op: 'gt', args: [{ ref: 'age' }, 18] }, 'adult', null],
    });
    const unsigned = translateRedcapLogic("datediff([dob], 'today', 'd')", scope);
    expect('notes' in unsigned && unsigned.notes.length).toBe(1);
  });

  it('names what it cannot translate', () => {
    expect(problemOf('abs([age]) > 1')).toMatch(/abs\(\) has no counterpart/);
    expect(problemOf('datediff([dob], "today", "M")')).toMatch(/only days/);
    expect(problemOf('[nope] = 1')).toMatch(/unknown field \[nope\]/);
    expect(problemOf('[other_arm_1][age] = 1')).toMatch(/unknown event/);
    expect(problemOf("[age] = '1' and")).toMatch(/ends too early/);
    expect(problemOf('([age] = 1')).toMatch(/expected "\)"/);
    expect(problemOf("[race(2)] = 'x'")).toMatch(/other than '1' or '0'/);
    expect(problemOf('[age] ^ [age]')).toMatch(/exponent/);
  });
});

describe('readRedcapDictionary', () => {
  const imported = readRedcapDictionary(exampleDictionary, {
    studyKey: 'hearing',
    studyLabel: { ko: '청력 연구', en: 'Hearing study' },
    language: 'en',
    eventMapping: exampleMapping,
  });
  const items = new Map<string, ItemDefinition>();
  for (const form of imported.definition?.forms ?? [])
    for (const section of form.sections) for (const item of section.items) items.set(item.key, item);

  it('reads the example into a sound definition, its schedule from the event mapping', () => {
    expect(imported.definition).not.toBeNull();
    expect(imported.definition?.visits.map((visit) => [visit.key, visit.forms])).toEqual([
      ['screening', ['enrollment', 'audiometry']],
      ['week4', ['audiometry']],
      ['week12', ['audiometry']],
    ]);
  });

  it('maps every field type and validation', () => {
    expect(items.get('consentDate')).toMatchObject({ type: 'date', required: true, notFuture: true });
    expect(items.get('initials')).toMatchObject({ type: 'text', pattern: '[A-Za-z]+', personalData: true });
    expect(items.get('sex')).toMatchObject({ type: 'singleChoice', display: 'radio', codeList: 'sexCodes' });
    expect(items.get('ear')).toMatchObject({ type: 'singleChoice', display: 'select' });
    expect(items.get('race')).toMatchObject({ type: 'multipleChoice' });
    expect(items.get('pregnant')).toMatchObject({ type: 'yesNo' });
    expect(items.get('air500')).toMatchObject({ type: 'integer', min: -10, max: 120, unit: 'dB' });
    expect(items.get('weight')).toMatchObject({
      type: 'decimal',
      decimals: 1,
      help: { en: 'Without shoes' },
    });
    expect(items.get('comments')).toMatchObject({ type: 'textarea' });
    expect(items.get('healed')).toMatchObject({ type: 'singleChoice', codeList: 'trueFalse' });
    expect(items.get('reportFile')).toMatchObject({ type: 'photo' });
    expect(items.get('satisfaction')).toMatchObject({ type: 'integer', min: 0, max: 100 });
    expect(items.get('pta')?.derive).toEqual({
      op: 'round',
      args: [{ op: 'avg', args: [{ ref: 'air500' }, { ref: 'air1000' }, { ref: 'air2000' }] }, 1],
    });
    expect(items.get('weightChange')?.derive).toEqual({
      op: 'sub',
      args: [{ ref: 'weight' }, { ref: 'screening.audiometry.weight' }],
    });
    expect(items.has('recordId')).toBe(false);
  });

  it('keeps a descriptive field as its section’s help and a matrix group in that section', () => {
    const enrollment = imported.definition?.forms.find((form) => form.key === 'enrollment');
    const eligibility = enrollment?.sections.find((section) => section.label.en === 'Eligibility');
    expect(eligibility?.help?.en).toBe('Each criterion must be met for the subject to be eligible.');
    expect(eligibility?.items.map((item) => item.key)).toEqual(['inclAge', 'inclPerforation']);
  });

  it('reports what it left out or could not translate, by line and column', () => {
    const bySeverity = (severity: string) =>
      imported.problems
        .filter((problem) => problem.severity === severity)
        .map((problem) => [problem.line, problem.field]);
    expect(bySeverity('error')).toEqual([[28, 'site_lookup']]);
    expect(bySeverity('warning')).toEqual([[29, 'contact_email']]);
    expect(items.get('contactEmail')?.showWhen).toBeUndefined();
    expect(items.has('siteLookup')).toBe(false);
  });

  it('refuses what is not a dictionary, with a reason', () => {
    expect(
      readRedcapDictionary('a,b\n1,2\n', { studyKey: 's', studyLabel: { ko: 's', en: 's' }, language: 'ko' }),
    ).toMatchObject({
      definition: null,
      problems: [{ severity: 'error', line: 1 }],
    });
    expect(
      readRedcapDictionary('', { studyKey: 's', studyLabel: { ko: 's', en: 's' }, language: 'ko' })
        .definition,
    ).toBeNull();
    const tooLong = `${exampleDictionary.split('\n')[0]}\n${'a,f,,text,A\n'.repeat(20_001)}`;
    expect(
      readRedcapDictionary(tooLong, {
        studyKey: 's',
        studyLabel: { ko: 's', en: 's' },
        language: 'ko',
      }).problems.at(-1)?.message.en,
    ).toMatch(/more than 20,000 rows/);
    const unclosed = `${exampleDictionary.split('\n')[0]}\nx,form,,text,"unclosed\n`;
    expect(
      readRedcapDictionary(unclosed, { studyKey: 's', studyLabel: { ko: 's', en: 's' }, language: 'ko' })
        .problems[0]?.message.en,
    ).toMatch(/CSV/);
  });
});

/**
 * What of a definition a REDCap dictionary can say, in the shape the importer gives it back:
 * one language, no checks, outcomes, variants, windows, roles, repeating groups, hard limits,
 * patterns or conditional requirements; a section's show-when joined to its items'.
 */
function redcapShape(definition: StudyDefinition, language: 'ko' | 'en') {
  const one = (text: { ko: string; en: string }) => ({ ko: text[language], en: text[language] });
  return definition.forms.map((form) => ({
    key: form.key,
    sections: form.sections.map((section) => ({
      key: section.key,
      label: one(section.label),
      help: section.help && one(section.help),
      items: section.items.map((item) => ({
        key: item.key,
        // A tracing is a file upload in REDCap; a calculation is a number with decimals.
        type:
          item.type === 'tracing'
            ? 'photo'
            : item.derive !== undefined && item.type === 'integer'
              ? 'decimal'
              : item.type,
        label: one(item.label),
        help: item.help && one(item.help),
        unit: item.unit,
        required: item.required,
        codeList: item.codeList,
        hasShowWhen: item.showWhen !== undefined || section.showWhen !== undefined,
        hasDerive: item.derive !== undefined,
      })),
    })),
  }));
}

function importedShape(definition: StudyDefinition) {
  return definition.forms.map((form) => ({
    key: form.key,
    sections: form.sections.map((section) => ({
      key: section.key,
      label: section.label,
      help: section.help,
      items: section.items.map((item) => ({
        key: item.key,
        type: item.type,
        label: item.label,
        help: item.help,
        unit: item.unit,
        required: item.required,
        codeList: item.codeList,
        hasShowWhen: item.showWhen !== undefined,
        hasDerive: item.derive !== undefined || item.readOnly === true,
      })),
    })),
  }));
}

describe('writeRedcapDictionary', () => {
  it('round-trips TMP-2026 for what REDCap can express, and says what it cannot', () => {
    const exported = writeRedcapDictionary(tmPerforationStudy, 'ko');
    const back = readRedcapDictionary(exported.dictionary, {
      studyKey: tmPerforationStudy.key,
      studyLabel: tmPerforationStudy.label,
      language: 'ko',
      eventMapping: exported.eventMapping,
    });
    expect(back.problems.filter((problem) => problem.severity !== 'note')).toEqual([]);
    const definition = back.definition as StudyDefinition;
    // Items whose logic REDCap cannot say come back without it (and the export's notes name them).
    const unwritten = new Set(
      exported.problems.flatMap((problem) =>
        problem.column?.startsWith('Branching') && problem.field ? [problem.field] : [],
      ),
    );
    const expected = redcapShape(tmPerforationStudy, 'ko').map((form) => ({
      ...form,
      sections: form.sections.map((section) => ({
        ...section,
        items: section.items.map((item) => ({
          ...item,
          hasShowWhen: item.hasShowWhen && !unwritten.has(item.key),
          hasDerive:
            item.hasDerive ||
            (tmPerforationStudy.forms
              .find((f) => f.key === form.key)
              ?.sections.find((s) => s.key === section.key)
              ?.items.find((i) => i.key === item.key)?.readOnly ??
              false),
        })),
      })),
    }));
    expect(importedShape(definition)).toEqual(expected);
    expect(definition.visits.map((visit) => [visit.key, visit.forms])).toEqual(
      tmPerforationStudy.visits.map((visit) => [visit.key, visit.forms]),
    );
    expect(definition.codeLists.map((list) => list.key).sort()).toEqual(
      [
        ...new Set(
          tmPerforationStudy.forms.flatMap((form) =>
            form.sections.flatMap((s) => s.items.flatMap((i) => (i.codeList ? [i.codeList] : []))),
          ),
        ),
      ].sort(),
    );
    // The logic read back writes the same REDCap logic again: nothing drifts on a second trip.
    expect(writeRedcapDictionary(definition, 'ko').dictionary).toBe(exported.dictionary);
  });

  it('writes the example dictionary it read the same way a second time', () => {
    const options = {
      studyKey: 'hearing',
      studyLabel: { ko: '청력 연구', en: 'Hearing study' },
      language: 'en' as const,
    };
    const imported = readRedcapDictionary(exampleDictionary, { ...options, eventMapping: exampleMapping });
    const once = writeRedcapDictionary(imported.definition as StudyDefinition, 'en');
    const again = readRedcapDictionary(once.dictionary, { ...options, eventMapping: once.eventMapping });
    expect(again.definition?.forms).toEqual(imported.definition?.forms);
    expect(writeRedcapDictionary(again.definition as StudyDefinition, 'en')).toEqual(once);
  });
});
