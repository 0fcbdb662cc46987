import { describe, expect, it } from 'vitest';
import type { SubjectData } from '../model/json-value.ts';
import {
  checksWithSeverity,
  deriveSubjectData,
  evaluateForm,
  evaluateSubject,
  findFormEvaluation,
} from './evaluate-subject.ts';
import { getFormLayout, getItemCodes, getStudyIndex, YES_NO_CODES } from './study-index.ts';
import { miniStudy } from './test-fixtures.ts';

const today = '2025-06-20';

function subject(main: Record<string, unknown>, extra: Record<string, unknown> = {}): SubjectData {
  return { a: { visit: { date: '2025-06-01' }, main }, ...extra } as SubjectData;
}

describe('evaluateSubject', () => {
  it('derives values across items, forms and visits, in any definition order, without touching the input', () => {
    const data = subject({ count: 3 }, { b: { main: { count: 1 } } });
    const frozen = JSON.stringify(data);
    const evaluation = evaluateSubject(miniStudy, data, { today });
    expect(JSON.stringify(data)).toBe(frozen);
    const main = findFormEvaluation(evaluation, 'a', 'main');
    expect(main?.derived).toEqual({ quadruple: 12, double: 6, fromA: 3 });
    expect(main?.values.count).toBe(3);
    // A form nobody opened appears once a derivation gives it a value.
    expect(evaluation.data.a?.log).toEqual({ copy: 3 });
    expect(findFormEvaluation(evaluation, 'b', 'main')?.derived).toEqual({});
  });

  it('recomputes stale derived values and leaves unopened forms absent when nothing derives', () => {
    const data = deriveSubjectData(miniStudy, subject({ count: 2, double: 99 }), { today });
    expect(data.a?.main?.double).toBe(4);
    const empty = deriveSubjectData(miniStudy, { a: { main: {} } }, { today });
    expect(empty.a?.log).toBeUndefined();
    expect(empty.a?.main).toEqual({ quadruple: null, double: null, fromA: null });
  });

  it('ignores data that is not an object of objects', () => {
    for (const data of [null, 7, 'x', [], { a: 5 }, { a: { main: [1] } }, { a: { main: null } }]) {
      const evaluation = evaluateSubject(miniStudy, data, { today });
      expect(evaluation.forms.map((f) => `${f.visitKey}.${f.formKey}`)).toEqual([
        'a.visit',
        'a.main',
        'a.log',
        'b.visit',
        'b.main',
      ]);
    }
  });

  it('reports required items that are missing, with sections, conditions and rows', () => {
    const evaluation = evaluateSubject(
      miniStudy,
      subject({ count: 3, flag: 'Y', entries: [{ start: '2025-01-01' }, 'junk'] }),
      {
        today,
      },
    );
    const main = findFormEvaluation(evaluation, 'a', 'main');
    expect(main?.missing.map((m) => m.path)).toEqual([
      'a.main.name',
      'a.main.color',
      'a.main.entries[0].title',
      'a.main.entries[1].title',
    ]);
    expect(main?.missing[2]).toMatchObject({
      groupKey: 'entries',
      rowIndex: 0,
      sectionKey: 'rows',
      itemKey: 'title',
    });
    const rows = main?.sections.find((s) => s.key === 'rows');
    expect(rows?.rows?.[0]?.stop?.visible).toBe(true);
    expect(rows?.rows?.[1]?.stop?.visible).toBe(false);
    expect(main?.sections.find((s) => s.key === 'body')?.items.hiddenNote?.visible).toBe(false);
    expect(main?.sections[0]?.items.double).toEqual({
      visible: true,
      required: false,
      disabled: false,
      readOnly: true,
    });
    const b = evaluateSubject(miniStudy, {}, { today });
    expect(findFormEvaluation(b, 'b', 'visit')?.missing.map((m) => m.path)).toEqual(['b.visit.date']);
  });

  it('asks for at least one row of a required repeating group', () => {
    const noRows = evaluateSubject(miniStudy, subject({ count: 1, name: 'ab', flag: 'Y' }), { today });
    expect(findFormEvaluation(noRows, 'a', 'main')?.missing).toEqual([
      { visitKey: 'a', formKey: 'main', itemKey: 'entries', path: 'a.main.entries', sectionKey: 'rows' },
    ]);
    const hidden = evaluateSubject(miniStudy, subject({ count: 1, name: 'ab', flag: 'N' }), { today });
    expect(findFormEvaluation(hidden, 'a', 'main')?.missing).toEqual([]);
  });

  it('treats a section marked "not done" as satisfied and unchecked', () => {
    const evaluation = evaluateSubject(miniStudy, subject({ count: 3, nd: true, name: 'x', amount: 500 }), {
      today,
    });
    const main = findFormEvaluation(evaluation, 'a', 'main');
    const body = main?.sections.find((s) => s.key === 'body');
    expect(body?.notDone).toBe(true);
    expect(body?.items.name).toEqual({ visible: true, required: false, disabled: true, readOnly: false });
    expect(main?.missing).toEqual([]);
    expect(main?.checks).toEqual([]);
  });

  it('runs built-in range and future-date checks and defined checks, per row where the item is in a row', () => {
    const evaluation = evaluateSubject(
      miniStudy,
      subject(
        {
          count: 11,
          name: 'x',
          amount: 100.5,
          rough: 0.5,
          flag: 'Y',
          entries: [{ title: 't', start: '2025-06-21', stop: '2025-01-01' }],
        },
        { b: { visit: { date: '2025-06-30' }, main: { count: 2 } } },
      ),
      { today },
    );
    const results = evaluation.checks.map((c) => `${c.path} ${c.checkId} ${c.severity}`);
    expect(results).toEqual([
      'a.main.count main.count.range query',
      'a.main.amount main.amount.range warning',
      'a.main.rough main.rough.range query',
      'a.main.entries[0].start main.start.future hard',
      'a.main.count main.count.big hard',
      'a.main.entries[0].stop main.rows.order query',
      'a.main.name main.name.x warning',
      'b.visit.date visit.date.future hard',
    ]);
    expect(evaluation.checks[0]?.message.en).toBe(
      'The value is outside the expected range (0 to 5). Please confirm it.',
    );
    expect(evaluation.checks[1]?.message.ko).toContain('100 이하');
    expect(evaluation.checks[2]?.message.en).toContain('at least 1');
    expect(checksWithSeverity(evaluation.checks, 'hard')).toHaveLength(3);
  });

  it('reports routing outcomes', () => {
    const evaluation = evaluateSubject(miniStudy, subject({ count: 0 }), { today });
    expect(evaluation.outcomes).toEqual([
      {
        outcomeId: 'main.zero',
        kind: 'goToEndOfStudy',
        visitKey: 'a',
        formKey: 'main',
        target: { visit: 'a', form: 'log' },
        message: { ko: '라벨', en: 'Label' },
      },
    ]);
  });

  it('walks only the forms asked for, with the derivations of every form and the same results', () => {
    const data = subject({ count: 7 }, { b: { main: { count: 11 } } });
    const everything = evaluateSubject(miniStudy, data, { today });
    const asked: string[] = [];
    const some = evaluateSubject(miniStudy, data, {
      today,
      forms: (visitKey, formKey) => {
        asked.push(`${visitKey}.${formKey}`);
        return visitKey === 'a' && formKey === 'main';
      },
    });
    // Every form of the subject's visits is asked about once; only the one accepted is walked.
    expect(new Set(asked).size).toBe(asked.length);
    expect(asked).toEqual(everything.forms.map((form) => `${form.visitKey}.${form.formKey}`));
    expect(some.forms).toEqual([findFormEvaluation(everything, 'a', 'main')]);
    expect(some.checks).toEqual(
      everything.checks.filter((check) => check.visitKey === 'a' && check.formKey === 'main'),
    );
    expect(some.checks.map((check) => check.checkId)).toEqual(['main.count.range']);
    expect(everything.checks.map((check) => check.visitKey)).toContain('b');
    // Derived values reach the forms left out, as they feed the ones walked.
    expect(some.data).toEqual(everything.data);
    expect(some.data.a?.log).toEqual({ copy: 7 });
  });

  it('leaves the section and item states out when asked to, with the same missing items, checks and outcomes', () => {
    // Rows (one with a hidden item), a hidden section item, a range check and a defined check.
    const data = subject({ count: 500, flag: 'Y', entries: [{ start: '2025-01-01' }, 'junk'] });
    const everything = evaluateSubject(miniStudy, data, { today });
    const withoutStates = evaluateSubject(miniStudy, data, { today, itemStates: false });
    expect(everything.forms.some((form) => form.missing.length > 0 && form.checks.length > 0)).toBe(true);
    expect(withoutStates.forms.every((form) => form.sections.length === 0)).toBe(true);
    expect(withoutStates.forms).toEqual(everything.forms.map((form) => ({ ...form, sections: [] })));
    expect(withoutStates.checks).toEqual(everything.checks);
    expect(withoutStates.outcomes).toEqual(everything.outcomes);
    expect(withoutStates.data).toEqual(everything.data);
  });
});

describe('evaluateForm', () => {
  it('evaluates one form with derivations from the whole subject', () => {
    const form = evaluateForm(miniStudy, subject({ count: 4 }), 'a', 'log', { today });
    expect(form?.values).toEqual({ copy: 4 });
    expect(evaluateForm(miniStudy, {}, 'b', 'log', { today })).toBeUndefined();
  });
});

describe('study index', () => {
  it('is built once per definition', () => {
    expect(getStudyIndex(miniStudy)).toBe(getStudyIndex(miniStudy));
    expect(getStudyIndex({ ...miniStudy, parameters: undefined }).params).toEqual({});
  });

  it('resolves variants and skips forms that do not exist', () => {
    expect([...(getFormLayout(miniStudy, 'b', 'main')?.items.keys() ?? [])]).toEqual(['count']);
    expect(getFormLayout(miniStudy, 'b', 'main')?.checks.map((c) => c.id)).toEqual(['main.count.big']);
    const broken = {
      ...miniStudy,
      visits: [{ ...miniStudy.visits[0], forms: ['ghost', 'visit'] }],
    } as typeof miniStudy;
    expect(getStudyIndex(broken).schedule.map((l) => l.form.key)).toEqual(['visit']);
  });

  it('gives the codes of choice items', () => {
    const body = miniStudy.forms[1]?.sections[1]?.items ?? [];
    const byKey = (key: string) => body.find((i) => i.key === key) as (typeof body)[number];
    expect(getItemCodes(miniStudy, byKey('color')).map((c) => c.code)).toEqual(['red', 'blue']);
    expect(getItemCodes(miniStudy, byKey('flag'))).toBe(YES_NO_CODES);
    expect(getItemCodes(miniStudy, byKey('name'))).toEqual([]);
    expect(getItemCodes(miniStudy, { ...byKey('color'), codeList: 'ghost' })).toEqual([]);
  });
});
