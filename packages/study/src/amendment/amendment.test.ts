import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { miniStudy } from '../engine/test-fixtures.ts';
import type { FormValues, JsonValue } from '../model/json-value.ts';
import {
  type FormDefinition,
  type ItemDefinition,
  type StudyDefinition,
  studyDefinitionSchema,
} from '../model/study-definition.ts';
import { type AmendmentChange, amendmentChangeSet } from './change-set.ts';
import { conversionKind, convertValue } from './conversions.ts';
import { type AmendmentDeclarations, amendmentDeclarationsSchema } from './declarations.ts';
import { describeChangeSet } from './describe-change-set.ts';
import { migrateFormValues } from './migrate-values.ts';

const label = { ko: '라벨', en: 'Label' };

/** A copy of the mini study with `change` applied. */
function edited(change: (study: StudyDefinition) => void): StudyDefinition {
  const study = structuredClone(miniStudy);
  change(study);
  return study;
}

function form(study: StudyDefinition, key: string): FormDefinition {
  const found = study.forms.find((entry) => entry.key === key);
  if (!found) throw new Error(key);
  return found;
}

/** The item of the form's default layout (or of `variant`). */
function item(study: StudyDefinition, formKey: string, itemKey: string, variant?: number): ItemDefinition {
  const sections =
    variant === undefined
      ? form(study, formKey).sections
      : form(study, formKey).variants?.[variant]?.sections;
  const found = sections?.flatMap((section) => section.items).find((entry) => entry.key === itemKey);
  if (!found) throw new Error(itemKey);
  return found;
}

function removeItem(study: StudyDefinition, formKey: string, itemKey: string): void {
  for (const sections of [
    form(study, formKey).sections,
    ...(form(study, formKey).variants ?? []).map((v) => v.sections),
  ])
    for (const section of sections) section.items = section.items.filter((entry) => entry.key !== itemKey);
}

function renameItem(study: StudyDefinition, formKey: string, from: string, to: string): void {
  for (const sections of [
    form(study, formKey).sections,
    ...(form(study, formKey).variants ?? []).map((v) => v.sections),
  ])
    for (const section of sections) for (const entry of section.items) if (entry.key === from) entry.key = to;
  for (const check of form(study, formKey).checks ?? []) if (check.item === from) check.item = to;
}

const kinds = (changes: AmendmentChange[]) => changes.map((change) => change.kind);

const mainValues: FormValues = {
  nd: false,
  count: 3,
  name: 'abc',
  amount: 1.5,
  color: 'blue',
  tags: ['red', 'blue'],
  note: 'long text',
  entries: [
    { title: 'one', start: '2025-01-01', stop: '2025-01-02' },
    { title: 'two', start: '2025-02-01' },
  ],
};

describe('amendmentChangeSet', () => {
  it('finds nothing between a definition and itself; migration keeps the values', () => {
    const set = amendmentChangeSet(miniStudy, structuredClone(miniStudy));
    expect(set).toMatchObject({ changes: [], questions: [], refusals: [], ready: true });
    expect(migrateFormValues(set, 'a', 'main', mainValues)).toEqual({
      formKey: 'main',
      values: mainValues,
      retired: {},
    });
  });

  it('ignores what does not touch stored data: labels, units, moves between sections', () => {
    const next = edited((study) => {
      item(study, 'main', 'name').label = { ko: '이름', en: 'Name' };
      item(study, 'main', 'amount').unit = 'kg';
      const [head, body] = form(study, 'main').sections;
      const moved = body?.items.shift();
      if (moved) head?.items.push(moved);
    });
    expect(amendmentChangeSet(miniStudy, next).changes).toEqual([]);
  });

  describe('items', () => {
    it('an added item is listed; a removed one is retired', () => {
      const next = edited((study) => {
        form(study, 'main').sections[1]?.items.push({ key: 'weight', type: 'decimal', label });
        removeItem(study, 'main', 'time');
      });
      const set = amendmentChangeSet(miniStudy, next);
      // Sorted by form, then item: the order does not depend on the kind.
      expect(set.changes).toEqual([
        { kind: 'itemRetired', form: 'main', item: 'time' },
        { kind: 'itemAdded', form: 'main', item: 'weight' },
      ]);
      expect(set.questions).toEqual([]);
      expect(set.ready).toBe(true);
      const migrated = migrateFormValues(set, 'a', 'main', { count: 1, time: '10:00' });
      expect(migrated).toEqual({ formKey: 'main', values: { count: 1 }, retired: { time: '10:00' } });
    });

    it('an undeclared remove + add of the same type is asked: rename or remove + add?', () => {
      const next = edited((study) => renameItem(study, 'main', 'name', 'fullName'));
      const set = amendmentChangeSet(miniStudy, next);
      // The check on `name` now names `fullName`: it changed too.
      expect(kinds(set.changes)).toEqual(['itemAdded', 'checkChanged', 'itemRetired']);
      expect(set.questions).toEqual([
        { code: 'itemRenameOrReplace', form: 'main', removed: 'name', added: 'fullName' },
      ]);
      expect(set.ready).toBe(false);
    });

    it('a declared replacement answers the question: the old data is retired, the new item starts empty', () => {
      const next = edited((study) => renameItem(study, 'main', 'name', 'fullName'));
      const set = amendmentChangeSet(miniStudy, next, {
        replacements: [{ form: 'main', removed: 'name', added: 'fullName' }],
      });
      expect(set.questions).toEqual([]);
      expect(set.ready).toBe(true);
      expect(migrateFormValues(set, 'a', 'main', { name: 'Kim' })).toEqual({
        formKey: 'main',
        values: {},
        retired: { name: 'Kim' },
      });
      // A replacement of a pair nobody asked about is refused, and the question stays.
      const wrong = amendmentChangeSet(miniStudy, next, {
        replacements: [{ form: 'main', removed: 'count', added: 'fullName' }],
      });
      expect(wrong.refusals).toEqual([
        { code: 'unknownReplacement', form: 'main', removed: 'count', added: 'fullName' },
      ]);
      expect(wrong.questions).toHaveLength(1);
    });

    it('a removed and an added item of different types are not asked about', () => {
      const next = edited((study) => {
        removeItem(study, 'main', 'name');
        form(study, 'main').sections[1]?.items.push({ key: 'weight', type: 'decimal', label });
      });
      expect(amendmentChangeSet(miniStudy, next).questions).toEqual([]);
    });

    it('a declared rename moves the values, in every layout, and the checks with it', () => {
      const next = edited((study) => {
        renameItem(study, 'main', 'count', 'total');
      });
      const declarations = { itemRenames: [{ form: 'main', from: 'count', to: 'total' }] };
      const set = amendmentChangeSet(miniStudy, next, declarations);
      // The derivations, conditions and the check still read `count` in this edit: they changed.
      expect(set.changes).toContainEqual({ kind: 'itemRenamed', form: 'main', from: 'count', to: 'total' });
      expect(kinds(set.changes)).toContain('derivationChanged');
      expect(kinds(set.changes)).not.toContain('itemRetired');
      expect(kinds(set.changes)).not.toContain('itemAdded');
      expect(set.questions).toEqual([]);
      expect(set.refusals).toEqual([]);
      expect(migrateFormValues(set, 'b', 'main', { count: 4 }).values).toEqual({ total: 4 });
    });

    it('expressions rewritten only for a rename read unchanged, within and across forms', () => {
      const next = edited((study) => {
        renameItem(study, 'main', 'count', 'total');
        const json = JSON.stringify(study)
          .replaceAll('"ref":"count"', '"ref":"total"')
          .replaceAll('"ref":"a.main.count"', '"ref":"a.main.total"')
          .replaceAll('"ref":"main.count"', '"ref":"main.total"');
        Object.assign(study, JSON.parse(json));
      });
      const set = amendmentChangeSet(miniStudy, next, {
        itemRenames: [{ form: 'main', from: 'count', to: 'total' }],
      });
      expect(set.changes).toEqual([{ kind: 'itemRenamed', form: 'main', from: 'count', to: 'total' }]);
    });

    it('refuses renames naming keys that do not exist, targets that exist, and repeated keys', () => {
      const next = edited((study) => {
        renameItem(study, 'main', 'name', 'fullName');
        renameItem(study, 'main', 'note', 'remark');
      });
      const declarations: AmendmentDeclarations = {
        itemRenames: [
          { form: 'main', from: 'nothing', to: 'fullName' },
          { form: 'main', from: 'amount', to: 'rough' },
          { form: 'main', from: 'flag', to: 'absent' },
          { form: 'main', from: 'tags', to: 'fullName' },
          { form: 'main', from: 'note', to: 'fullName' },
          { form: 'ghost', from: 'a', to: 'b' },
        ],
      };
      const set = amendmentChangeSet(miniStudy, next, declarations);
      expect(set.refusals).toEqual([
        { code: 'unknownForm', form: 'ghost' },
        { code: 'duplicateRename', form: 'main', key: 'fullName' },
        { code: 'renameTargetExists', form: 'main', from: 'amount', to: 'rough' },
        { code: 'renameTargetMissing', form: 'main', from: 'flag', to: 'absent' },
      ]);
      expect(set.ready).toBe(false);
    });

    it('refuses a rename whose source the next version still has', () => {
      const next = edited((study) =>
        form(study, 'main').sections[1]?.items.push({ key: 'title2', type: 'text', label }),
      );
      const set = amendmentChangeSet(miniStudy, next, {
        itemRenames: [{ form: 'main', from: 'name', to: 'title2' }],
      });
      expect(set.refusals).toEqual([{ code: 'renameSourceKept', form: 'main', from: 'name', to: 'title2' }]);
    });

    it('finds an item added in a visit variant only, and changes in a variant', () => {
      const next = edited((study) => {
        const variant = form(study, 'main').variants?.[0];
        variant?.sections[0]?.items.push({ key: 'extra', type: 'text', label });
        item(study, 'main', 'count', 0).required = false;
      });
      expect(amendmentChangeSet(miniStudy, next).changes).toEqual([
        { kind: 'itemReevaluated', form: 'main', item: 'count', fields: ['required'] },
        { kind: 'itemAdded', form: 'main', item: 'extra' },
      ]);
    });

    it('an item removed from one layout but kept in another is not removed', () => {
      const next = edited((study) => {
        const variant = form(study, 'main').variants?.[0];
        if (variant?.sections[0]) variant.sections[0].items.push({ key: 'name', type: 'text', label });
        removeItem(study, 'main', 'count');
        variant?.sections[0]?.items.push({ key: 'count', type: 'integer', label, required: true });
      });
      const set = amendmentChangeSet(miniStudy, next);
      expect(kinds(set.changes)).not.toContain('itemRetired');
      expect(kinds(set.changes)).not.toContain('itemAdded');
    });

    it('flags range, required, check and derivation changes as re-evaluated', () => {
      const next = edited((study) => {
        item(study, 'main', 'count').max = 9;
        item(study, 'main', 'name').required = false;
        item(study, 'main', 'name').pattern = '[a-z ]+';
        item(study, 'main', 'double').derive = { op: 'mul', args: [{ ref: 'count' }, 3] };
        const main = form(study, 'main');
        main.checks = (main.checks ?? []).filter((check) => check.id !== 'main.name.x');
        const big = main.checks[0];
        if (big) big.severity = 'query';
        main.checks.push({
          id: 'main.amount.neg',
          item: 'amount',
          when: { op: 'lt', args: [{ ref: 'amount' }, 0] },
          severity: 'query',
          message: label,
        });
      });
      expect(amendmentChangeSet(miniStudy, next).changes).toEqual([
        { kind: 'itemReevaluated', form: 'main', item: 'count', fields: ['max'] },
        { kind: 'derivationChanged', form: 'main', item: 'double' },
        { kind: 'checkChanged', form: 'main', check: 'main.amount.neg', change: 'added' },
        { kind: 'checkChanged', form: 'main', check: 'main.count.big', change: 'changed' },
        { kind: 'checkChanged', form: 'main', check: 'main.name.x', change: 'removed' },
        { kind: 'itemReevaluated', form: 'main', item: 'name', fields: ['pattern', 'required'] },
      ]);
    });
  });

  describe('types', () => {
    it('widens integer → decimal and text → textarea by itself', () => {
      const next = edited((study) => {
        item(study, 'main', 'count').type = 'decimal';
        item(study, 'main', 'count', 0).type = 'decimal';
        item(study, 'main', 'name').type = 'textarea';
      });
      const set = amendmentChangeSet(miniStudy, next);
      expect(set.changes).toEqual([
        {
          kind: 'itemTypeChanged',
          form: 'main',
          item: 'count',
          from: 'integer',
          to: 'decimal',
          conversion: 'widening',
        },
        {
          kind: 'itemTypeChanged',
          form: 'main',
          item: 'name',
          from: 'text',
          to: 'textarea',
          conversion: 'widening',
        },
      ]);
      expect(set.ready).toBe(true);
      expect(migrateFormValues(set, 'a', 'main', { count: 2, name: 'x' }).values).toEqual({
        count: 2,
        name: 'x',
      });
    });

    it('asks for a conversion, applies a declared one, refuses an impossible one', () => {
      const next = edited((study) => {
        item(study, 'main', 'note').type = 'text';
        item(study, 'main', 'color').type = 'multipleChoice';
        item(study, 'main', 'rough').type = 'integer';
      });
      const asked = amendmentChangeSet(miniStudy, next);
      expect(asked.questions).toEqual([
        { code: 'conversionNeeded', form: 'main', item: 'color', from: 'singleChoice', to: 'multipleChoice' },
        { code: 'conversionNeeded', form: 'main', item: 'note', from: 'textarea', to: 'text' },
      ]);
      expect(asked.refusals).toEqual([
        { code: 'impossibleConversion', form: 'main', item: 'rough', from: 'decimal', to: 'integer' },
      ]);
      const declared = amendmentChangeSet(miniStudy, next, {
        typeConversions: [
          { form: 'main', item: 'note', to: 'text' },
          { form: 'main', item: 'color', to: 'multipleChoice' },
          { form: 'main', item: 'rough', to: 'integer' },
        ],
      });
      expect(declared.questions).toEqual([]);
      expect(declared.refusals).toEqual(asked.refusals);
      expect(declared.changes).toContainEqual({
        kind: 'itemTypeChanged',
        form: 'main',
        item: 'color',
        from: 'singleChoice',
        to: 'multipleChoice',
        conversion: 'declared',
      });
      expect(
        migrateFormValues(declared, 'a', 'main', { color: 'red', note: 'n', rough: 1.5 }).values,
      ).toEqual({
        color: ['red'],
        note: 'n',
        rough: 1.5,
      });
    });

    it('refuses a conversion to another type than the next version has, of an unknown or retired item', () => {
      const next = edited((study) => {
        item(study, 'main', 'note').type = 'text';
        removeItem(study, 'main', 'time');
      });
      const set = amendmentChangeSet(miniStudy, next, {
        typeConversions: [
          { form: 'main', item: 'note', to: 'integer' },
          { form: 'main', item: 'nothing', to: 'text' },
          { form: 'ghost', item: 'x', to: 'text' },
          { form: 'main', item: 'time', to: 'text' },
        ],
      });
      expect(set.refusals).toEqual([
        { code: 'unknownForm', form: 'ghost' },
        {
          code: 'conversionMismatch',
          form: 'main',
          item: 'note',
          declared: 'integer',
          from: 'textarea',
          to: 'text',
        },
        { code: 'unknownItem', form: 'main', item: 'nothing' },
        { code: 'conversionOfRetiredItem', form: 'main', item: 'time' },
      ]);
    });

    it('classifies and converts values', () => {
      expect(conversionKind('integer', 'decimal')).toBe('widening');
      expect(conversionKind('date', 'date')).toBe('widening');
      expect(conversionKind('decimal', 'text')).toBe('declared');
      expect(conversionKind('text', 'integer')).toBe('impossible');
      expect(convertValue('decimal', 'text', 1.25)).toBe('1.25');
      expect(convertValue('checkbox', 'yesNo', true)).toBe('Y');
      expect(convertValue('checkbox', 'yesNo', false)).toBe('N');
      expect(convertValue('singleChoice', 'multipleChoice', null)).toBe(null);
    });
  });

  describe('code lists', () => {
    const recoded = edited((study) => {
      const color = study.codeLists[0];
      if (color)
        color.codes = [
          { code: 'red', label },
          { code: 'navy', label },
        ];
    });

    it('asks for a mapping of removed codes, naming the items that use the list', () => {
      const set = amendmentChangeSet(miniStudy, recoded);
      const items = [
        { form: 'main', item: 'color' },
        { form: 'main', item: 'tags' },
      ];
      expect(set.changes).toEqual([{ kind: 'codesRemoved', codeList: 'color', codes: ['blue'], items }]);
      expect(set.questions).toEqual([
        { code: 'codesNeedMapping', codeList: 'color', codes: ['blue'], items },
      ]);
    });

    it('maps codes in single and multiple choices, in rows too', () => {
      const next = structuredClone(recoded);
      const rows = form(next, 'main').sections[2];
      rows?.items.push({ key: 'hue', type: 'singleChoice', label, codeList: 'color' });
      const live = structuredClone(miniStudy);
      form(live, 'main').sections[2]?.items.push({
        key: 'hue',
        type: 'singleChoice',
        label,
        codeList: 'color',
      });
      const set = amendmentChangeSet(live, next, {
        codeMappings: [{ codeList: 'color', map: { blue: 'navy' } }],
      });
      expect(set.questions).toEqual([]);
      expect(set.changes).toEqual([
        {
          kind: 'codesRecoded',
          codeList: 'color',
          map: { blue: 'navy' },
          items: [
            { form: 'main', item: 'color' },
            { form: 'main', item: 'hue' },
            { form: 'main', item: 'tags' },
          ],
        },
      ]);
      const migrated = migrateFormValues(set, 'a', 'main', {
        color: 'blue',
        tags: ['red', 'blue'],
        entries: [{ title: 'x', hue: 'blue' }, { hue: 'red' }],
      });
      expect(migrated.values).toEqual({
        color: 'navy',
        tags: ['red', 'navy'],
        entries: [{ title: 'x', hue: 'navy' }, { hue: 'red' }],
      });
    });

    it('refuses mappings of unknown lists and codes', () => {
      const set = amendmentChangeSet(miniStudy, recoded, {
        codeMappings: [
          { codeList: 'shade', map: { a: 'b' } },
          { codeList: 'color', map: { green: 'red', blue: 'purple' } },
        ],
      });
      expect(set.refusals).toEqual([
        { code: 'unknownCode', codeList: 'color', choice: 'green' },
        { code: 'unknownTargetCode', codeList: 'color', choice: 'purple' },
        { code: 'unknownCodeList', codeList: 'shade' },
      ]);
      expect(set.questions).toHaveLength(1);
    });

    it('refuses an item switched to a list lacking its stored codes', () => {
      const next = edited((study) => {
        study.codeLists.push({ key: 'tone', codes: [{ code: 'red', label }] });
        item(study, 'main', 'color').codeList = 'tone';
      });
      expect(amendmentChangeSet(miniStudy, next).refusals).toEqual([
        { code: 'codeListSwitched', form: 'main', item: 'color', from: 'color', to: 'tone', codes: ['blue'] },
      ]);
    });
  });

  describe('forms and visits', () => {
    const renamed = edited((study) => {
      form(study, 'log').key = 'diary';
      for (const visit of study.visits)
        visit.forms = visit.forms.map((key) => (key === 'log' ? 'diary' : key));
    });

    it('an undeclared form rename is asked about; a declared one moves the data', () => {
      const asked = amendmentChangeSet(miniStudy, renamed);
      expect(asked.changes).toEqual([
        { kind: 'formAdded', form: 'diary' },
        { kind: 'formRetired', form: 'log' },
      ]);
      expect(asked.questions).toEqual([{ code: 'formRenameOrReplace', removed: 'log', added: 'diary' }]);
      expect(migrateFormValues(asked, 'a', 'log', { copy: 3 })).toEqual({
        formKey: null,
        values: {},
        retired: { copy: 3 },
      });
      const replaced = amendmentChangeSet(miniStudy, renamed, {
        replacements: [{ removed: 'log', added: 'diary' }],
      });
      expect(replaced.questions).toEqual([]);
      expect(replaced.ready).toBe(true);
      const declared = amendmentChangeSet(miniStudy, renamed, {
        formRenames: [{ from: 'log', to: 'diary' }],
      });
      expect(declared.changes).toEqual([{ kind: 'formRenamed', from: 'log', to: 'diary' }]);
      expect(declared.ready).toBe(true);
      expect(migrateFormValues(declared, 'a', 'log', { copy: 3 })).toEqual({
        formKey: 'diary',
        values: { copy: 3 },
        retired: {},
      });
    });

    it('renames items inside a renamed form', () => {
      const next = structuredClone(renamed);
      renameItem(next, 'diary', 'copy', 'copied');
      const set = amendmentChangeSet(miniStudy, next, {
        formRenames: [{ from: 'log', to: 'diary' }],
        itemRenames: [{ form: 'log', from: 'copy', to: 'copied' }],
      });
      expect(set.changes).toEqual([
        { kind: 'itemRenamed', form: 'diary', from: 'copy', to: 'copied' },
        { kind: 'formRenamed', from: 'log', to: 'diary' },
      ]);
      expect(migrateFormValues(set, 'a', 'log', { copy: 3 }).values).toEqual({ copied: 3 });
    });

    it('refuses form renames to an existing or missing form', () => {
      const set = amendmentChangeSet(miniStudy, renamed, {
        formRenames: [
          { from: 'log', to: 'main' },
          { from: 'visit', to: 'nowhere' },
          { from: 'ghost', to: 'diary' },
        ],
      });
      expect(set.refusals).toEqual([
        { code: 'unknownForm', form: 'ghost' },
        { code: 'renameTargetExists', from: 'log', to: 'main' },
        { code: 'renameTargetMissing', from: 'visit', to: 'nowhere' },
      ]);
    });

    it('retires a form a visit no longer offers, and a removed visit, at that visit only', () => {
      const next = edited((study) => {
        const b = study.visits[1];
        if (b) b.forms = ['visit'];
      });
      const set = amendmentChangeSet(miniStudy, next);
      expect(set.changes).toEqual([{ kind: 'formRemovedFromVisit', visit: 'b', form: 'main' }]);
      expect(migrateFormValues(set, 'b', 'main', { count: 1 })).toEqual({
        formKey: null,
        values: {},
        retired: { count: 1 },
      });
      expect(migrateFormValues(set, 'a', 'main', { count: 1 }).values).toEqual({ count: 1 });
      const withoutB = edited((study) => {
        study.visits = study.visits.slice(0, 1);
      });
      const removed = amendmentChangeSet(miniStudy, withoutB);
      expect(removed.changes).toEqual([{ kind: 'visitRemoved', visit: 'b' }]);
      expect(migrateFormValues(removed, 'b', 'visit', { date: '2025-01-01' }).formKey).toBe(null);
    });
  });

  describe('repeating groups', () => {
    it('renames and retires items inside rows, row for row', () => {
      const next = edited((study) => {
        renameItem(study, 'main', 'title', 'heading');
        removeItem(study, 'main', 'stop');
      });
      const set = amendmentChangeSet(miniStudy, next, {
        itemRenames: [{ form: 'main', from: 'title', to: 'heading' }],
      });
      expect(set.changes).toEqual([
        { kind: 'itemRetired', form: 'main', item: 'stop' },
        { kind: 'itemRenamed', form: 'main', from: 'title', to: 'heading' },
      ]);
      const migrated = migrateFormValues(set, 'a', 'main', mainValues);
      expect(migrated.values.entries).toEqual([
        { heading: 'one', start: '2025-01-01' },
        { heading: 'two', start: '2025-02-01' },
      ]);
      expect(migrated.retired).toEqual({ entries: [{ stop: '2025-01-02' }, {}] });
      expect(mainValues.entries).toHaveLength(2);
    });

    it('retires a removed group whole', () => {
      const next = edited((study) => {
        form(study, 'main').sections.pop();
        const main = form(study, 'main');
        main.checks = (main.checks ?? []).filter((check) => check.item !== 'stop');
      });
      const set = amendmentChangeSet(miniStudy, next);
      expect(kinds(set.changes)).toEqual(['checkChanged', 'itemRetired', 'itemRetired', 'itemRetired']);
      const migrated = migrateFormValues(set, 'a', 'main', mainValues);
      expect(migrated.values.entries).toBeUndefined();
      expect(migrated.retired).toEqual({ entries: mainValues.entries });
    });

    it('refuses an item moved into or out of a repeating group', () => {
      const next = edited((study) => {
        const [, body, rows] = form(study, 'main').sections;
        const note = body?.items.find((entry) => entry.key === 'note');
        if (body && rows && note) {
          body.items = body.items.filter((entry) => entry !== note);
          rows.items.push(note);
        }
      });
      expect(amendmentChangeSet(miniStudy, next).refusals).toEqual([
        { code: 'groupChanged', form: 'main', item: 'note', from: null, to: 'entries' },
      ]);
    });
  });

  it('gives the same, sorted answer whatever the order of the declarations', () => {
    const next = edited((study) => {
      renameItem(study, 'main', 'name', 'fullName');
      renameItem(study, 'main', 'flag', 'answer');
      item(study, 'main', 'count').max = 8;
      // The condition on `flag` now reads `answer`; the check on `name` still reads `name` (it changed).
      const body = form(study, 'main').sections[1];
      const hidden = body?.items.find((entry) => entry.key === 'hiddenNote');
      if (hidden) hidden.showWhen = { op: 'eq', args: [{ ref: 'answer' }, 'N'] };
      const rows = form(study, 'main').sections[2];
      if (rows) rows.showWhen = { op: 'eq', args: [{ ref: 'answer' }, 'Y'] };
    });
    const renames = [
      { form: 'main', from: 'name', to: 'fullName' },
      { form: 'main', from: 'flag', to: 'answer' },
    ];
    const one = amendmentChangeSet(miniStudy, next, { itemRenames: renames });
    const other = amendmentChangeSet(miniStudy, next, { itemRenames: [...renames].reverse() });
    expect(other).toEqual(one);
    expect(
      one.changes.map((change) =>
        'item' in change
          ? change.item
          : 'from' in change
            ? change.from
            : 'check' in change
              ? change.check
              : '',
      ),
    ).toEqual(['count', 'flag', 'main.name.x', 'name']);
  });

  describe('the study definitions', () => {
    const load = (file: string): StudyDefinition =>
      studyDefinitionSchema.parse(
        JSON.parse(readFileSync(new URL(`../../definitions/${file}`, import.meta.url), 'utf8')),
      );
    const tmp = load('tm-perforation.json');
    const hear = load('hear-followup.json');
    /** The same value with every object's keys in reverse order, as jsonb might hand it back. */
    const reverseKeys = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.map(reverseKeys)
        : typeof value === 'object' && value !== null
          ? Object.fromEntries(
              Object.entries(value)
                .reverse()
                .map(([key, entry]) => [key, reverseKeys(entry)]),
            )
          : value;

    it('finds nothing between a definition and a copy with its keys reordered', () => {
      for (const definition of [tmp, hear]) {
        const set = amendmentChangeSet(definition, reverseKeys(definition) as StudyDefinition);
        expect(set).toMatchObject({ changes: [], questions: [], refusals: [], ready: true });
      }
    });

    it('gives one stable answer between two whole studies', () => {
      const set = amendmentChangeSet(tmp, hear);
      expect(set.changes.length).toBeGreaterThan(0);
      expect(amendmentChangeSet(tmp, hear)).toEqual(set);
      expect(JSON.parse(JSON.stringify(set.plan))).toEqual(set.plan);
    });
  });

  it('parses declarations with the schema', () => {
    expect(
      amendmentDeclarationsSchema.safeParse({ itemRenames: [{ form: 'main', from: 'a', to: 'b' }] }).success,
    ).toBe(true);
    expect(
      amendmentDeclarationsSchema.safeParse({ itemRenames: [{ form: 'main', from: 'a.b', to: 'b' }] })
        .success,
    ).toBe(false);
    expect(
      amendmentDeclarationsSchema.safeParse({ typeConversions: [{ form: 'f', item: 'i', to: 'number' }] })
        .success,
    ).toBe(false);
  });

  describe('property: renames there and back give the original values', () => {
    const renames = { count: 'total', name: 'fullName', tags: 'labels', title: 'heading', start: 'begin' };
    const next = edited((study) => {
      for (const [from, to] of Object.entries(renames)) renameItem(study, 'main', from, to);
    });
    const there = amendmentChangeSet(miniStudy, next, {
      itemRenames: Object.entries(renames).map(([from, to]) => ({ form: 'main', from, to })),
    });
    const back = amendmentChangeSet(next, miniStudy, {
      itemRenames: Object.entries(renames).map(([from, to]) => ({ form: 'main', from: to, to: from })),
    });

    const code = fc.constantFrom('red', 'blue');
    const text = fc.string({ maxLength: 6 });
    const row = fc.record(
      { title: text, start: fc.constantFrom('2025-01-01', '2025-03-04'), stop: fc.constant('2025-05-06') },
      { requiredKeys: [] },
    );
    const values = fc.record(
      {
        nd: fc.boolean(),
        count: fc.integer({ min: -5, max: 20 }),
        name: text,
        amount: fc.double({ noNaN: true, noDefaultInfinity: true }),
        color: code,
        tags: fc.uniqueArray(code),
        flag: fc.constantFrom('Y', 'N'),
        note: fc.option(text),
        entries: fc.array(row, { maxLength: 3 }),
      },
      { requiredKeys: [] },
    ) as fc.Arbitrary<FormValues>;

    it('holds for random values', () => {
      expect(there.ready && back.ready).toBe(true);
      fc.assert(
        fc.property(values, fc.constantFrom('a', 'b'), (original, visit) => {
          const forth = migrateFormValues(there, visit, 'main', original);
          expect(forth.retired).toEqual({});
          const returned = migrateFormValues(back, visit, forth.formKey as string, forth.values);
          expect(returned.values).toEqual(original as Record<string, JsonValue>);
        }),
      );
    });
  });
});

describe('the change set in words', () => {
  it('names each element by label and key, in Korean and English, with the element to link', () => {
    const next = edited((study) => {
      renameItem(study, 'main', 'name', 'fullName');
      removeItem(study, 'main', 'time');
    });
    const set = amendmentChangeSet(miniStudy, next, {
      itemRenames: [{ form: 'main', from: 'name', to: 'fullName' }],
      formRenames: [{ from: 'nothing', to: 'else' }],
    });
    const en = describeChangeSet(set, miniStudy, next, 'en');
    const formName = `Form ${form(miniStudy, 'main').label.en} (main)`;
    expect(en.changes).toContainEqual({
      kind: 'itemRenamed',
      element: 'form:main/item:fullName',
      text: `${formName} › item ${item(next, 'main', 'fullName').label.en} (name): renamed fullName: its values move with it`,
    });
    expect(en.changes).toContainEqual({
      kind: 'itemRetired',
      element: 'form:main/item:time',
      text: `${formName} › item ${item(miniStudy, 'main', 'time').label.en} (time): removed: its values are retired (kept, hidden from entry)`,
    });
    expect(en.refusals).toEqual([
      {
        code: 'unknownForm',
        element: 'form:nothing',
        text: 'Form nothing: the live version has no such form.',
      },
    ]);
    const ko = describeChangeSet(set, miniStudy, next, 'ko');
    expect(ko.changes.map((line) => line.kind)).toEqual(en.changes.map((line) => line.kind));
    expect(ko.refusals[0]?.text).toBe('양식 nothing: 이 버전에 없는 양식입니다.');
  });

  it('words a question with what the declaration needs: the next codes of a list to map onto', () => {
    const next = edited((study) => {
      const list = study.codeLists.find((entry) => entry.key === 'color');
      if (list) list.codes = list.codes.filter((code) => code.code !== 'blue');
    });
    const [question] = describeChangeSet(
      amendmentChangeSet(miniStudy, next),
      miniStudy,
      next,
      'en',
    ).questions;
    expect(question).toMatchObject({
      code: 'codesNeedMapping',
      codeList: 'color',
      codes: ['blue'],
      nextCodes: ['red'],
      element: 'codeList:color',
      text: 'Code list color: codes blue removed: map each to a code of the new list for the stored values.',
    });
  });
});
