import { describe, expect, it } from 'vitest';
import { miniStudy } from '../engine/test-fixtures.ts';
import {
  appliesToVisit,
  choiceDisplay,
  findDefinitionProblems,
  type StudyDefinition,
  sectionsForVisit,
  studyDefinitionSchema,
} from './study-definition.ts';

/** A deep copy (definitions are plain JSON). */
const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

const copy = (): StudyDefinition => clone(miniStudy);
const label = { ko: '라벨', en: 'Label' };

function problemsAfter(change: (d: StudyDefinition) => void): string[] {
  const definition = copy();
  change(definition);
  return findDefinitionProblems(definition);
}

const main = (d: StudyDefinition) => d.forms[1] as StudyDefinition['forms'][number];

describe('studyDefinitionSchema', () => {
  it('accepts a sound definition', () => {
    expect(findDefinitionProblems(miniStudy)).toEqual([]);
    expect(studyDefinitionSchema.safeParse(miniStudy).success).toBe(true);
  });

  it('refuses unknown properties, bad keys and missing labels', () => {
    expect(studyDefinitionSchema.safeParse({ ...miniStudy, extra: 1 }).success).toBe(false);
    expect(studyDefinitionSchema.safeParse({ ...miniStudy, key: 'has.dot' }).success).toBe(false);
    expect(studyDefinitionSchema.safeParse({ ...miniStudy, version: '1' }).success).toBe(false);
    expect(studyDefinitionSchema.safeParse({ ...miniStudy, label: { ko: '라벨' } }).success).toBe(false);
  });

  it('reports cross-reference problems as issues', () => {
    const broken = copy();
    broken.visits.push({ ...(broken.visits[0] as StudyDefinition['visits'][number]) });
    const result = studyDefinitionSchema.safeParse(broken);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message)).toEqual(['duplicate visit a']);
  });
});

describe('findDefinitionProblems', () => {
  it('finds duplicates', () => {
    expect(
      problemsAfter((d) => {
        d.codeLists.push(clone(d.codeLists[0]) as StudyDefinition['codeLists'][number]);
        d.codeLists[0]?.codes.push({ code: 'red', label });
        d.forms.push(clone(d.forms[2]) as StudyDefinition['forms'][number]);
        main(d).checks?.push(clone(main(d).checks?.[0]) as never);
        main(d).outcomes?.push(clone(main(d).outcomes?.[0]) as never);
      }),
    ).toEqual([
      'code list color: duplicate code',
      'duplicate code list color',
      'duplicate form log',
      'duplicate check id main.count.big',
      'duplicate outcome id main.zero',
    ]);
    expect(
      problemsAfter((d) => {
        main(d).sections.push(clone(main(d).sections[0]) as never);
      }),
    ).toContain('main: duplicate section head');
    expect(
      problemsAfter((d) => {
        main(d).sections[1]?.items.push({ key: 'count', type: 'text', label });
      }),
    ).toContain('main: duplicate key count');
  });

  it('finds unknown forms, visits, anchors, items, references and parameters', () => {
    expect(
      problemsAfter((d) => {
        d.visits[0]?.forms.push('ghost');
        if (d.visits[1]?.window) d.visits[1].window.anchorVisit = 'ghost';
        d.visitDate = { form: 'visit', item: 'ghost' };
        main(d).variants?.push({
          visits: ['ghost'],
          sections: [clone(main(d).sections[0]) as never],
        });
        main(d).sections[1]?.items.push({
          key: 'refs',
          type: 'text',
          label,
          showWhen: {
            op: 'and',
            args: [{ ref: 'ghost' }, { ref: 'log.ghost' }, { ref: 'b.log.copy' }, { param: 'ghost' }],
          },
        });
      }),
    ).toEqual([
      'visit a: unknown form ghost',
      'visit b: unknown anchor visit ghost',
      'visitDate: unknown item visit.ghost',
      'main: variant for unknown visit ghost',
      'main.refs: unknown reference ghost',
      'main.refs: unknown reference log.ghost',
      'main.refs: unknown reference b.log.copy',
      'main.refs: unknown parameter ghost',
    ]);
  });

  it('finds bad items: choices without lists, lists on non-choices, derived row items, bad patterns', () => {
    expect(
      problemsAfter((d) => {
        const items = main(d).sections[1]?.items ?? [];
        items.push({ key: 'c1', type: 'singleChoice', label });
        items.push({ key: 'c2', type: 'multipleChoice', label, codeList: 'ghost' });
        items.push({ key: 'c3', type: 'text', label, codeList: 'color' });
        items.push({ key: 'c4', type: 'text', label, pattern: '[' });
        main(d).sections[2]?.items.push({ key: 'c5', type: 'integer', label, derive: 1 });
      }),
    ).toEqual([
      'main.c1: choice item needs a known codeList',
      'main.c2: choice item needs a known codeList',
      'main.c3: codeList on a text item',
      'main.c4: bad pattern',
      'main.c5: derived items cannot sit in a repeating group',
    ]);
  });

  it('finds bad "not done" items', () => {
    expect(
      problemsAfter((d) => {
        const body = main(d).sections[1];
        if (body) body.notDoneItem = 'name';
      }),
    ).toEqual(['main.body: notDoneItem name is not a checkbox of the form']);
    expect(
      problemsAfter((d) => {
        main(d).sections[2]?.items.push({ key: 'rowNd', type: 'checkbox', label });
        const body = main(d).sections[1];
        if (body) body.notDoneItem = 'rowNd';
      }),
    ).toEqual(['main.body: notDoneItem rowNd is not a checkbox of the form']);
    expect(
      problemsAfter((d) => {
        const body = main(d).sections[1];
        if (body) body.notDoneItem = 'ghost';
      }),
    ).toEqual(['main.body: notDoneItem ghost is not a checkbox of the form']);
  });

  it('finds checks on items missing from a visit, and outcome targets outside their visit', () => {
    expect(
      problemsAfter((d) => {
        const check = main(d).checks?.[1];
        if (check) check.visits = undefined;
        const outcome = main(d).outcomes?.[0];
        if (outcome) outcome.target = { visit: 'b', form: 'log' };
      }),
    ).toEqual([
      'check main.rows.order: no item stop in b',
      'outcome main.zero: target form not in target visit',
    ]);
  });

  it('skips forms a visit lists but the study does not define', () => {
    expect(
      problemsAfter((d) => {
        d.visits[1]?.forms.push('ghost');
        d.forms.pop();
        d.visits[0]?.forms.pop();
        const outcome = main(d).outcomes?.[0];
        if (outcome) outcome.target = undefined;
      }),
    ).toEqual(['visit b: unknown form ghost']);
  });
});

describe('sectionsForVisit and appliesToVisit', () => {
  it('pick the variant of a visit', () => {
    const form = main(miniStudy);
    expect(sectionsForVisit(form, 'b').map((s) => s.items.length)).toEqual([1]);
    expect(sectionsForVisit(form, 'a')).toBe(form.sections);
    expect(appliesToVisit(undefined, 'a')).toBe(true);
    expect(appliesToVisit(['a'], 'b')).toBe(false);
  });
});

describe('choiceDisplay', () => {
  it('gives a yes/no radio buttons and a single choice a list unless the item says otherwise', () => {
    expect(choiceDisplay({ type: 'yesNo' })).toBe('radio');
    expect(choiceDisplay({ type: 'yesNo', display: 'select' })).toBe('select');
    expect(choiceDisplay({ type: 'singleChoice' })).toBe('select');
    expect(choiceDisplay({ type: 'singleChoice', display: 'radio' })).toBe('radio');
    expect(choiceDisplay({ type: 'multipleChoice' })).toBeUndefined();
    expect(choiceDisplay({ type: 'text', display: 'radio' })).toBeUndefined();
  });
});
