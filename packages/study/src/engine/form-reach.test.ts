import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FormValues, JsonValue, SubjectData } from '../model/json-value.ts';
import { tmPerforationStudy } from '../studies/tm-perforation/index.ts';
import { SAMPLE_TODAY, sampleSubject } from '../studies/tm-perforation/sample-subject.ts';
import { addDays } from './dates.ts';
import { evaluateSubject, type FormEvaluation } from './evaluate-subject.ts';
import { formsReachedByChange } from './form-reach.ts';
import { getStudyIndex, layoutsForData } from './study-index.ts';
import { miniStudy } from './test-fixtures.ts';

/** A deep copy of plain JSON data. */
function copyOf<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** The reached forms of the definition's layouts for `data`, as "visit.form". */
function reachedNames(definition: typeof miniStudy, data: SubjectData, visitKey: string, formKey: string) {
  const reached = formsReachedByChange(definition, data, visitKey, formKey);
  return layoutsForData(definition, data)
    .filter((layout) => reached.has(layout.visitKey, layout.form.key))
    .map((layout) => `${layout.visitKey}.${layout.form.key}`);
}

describe('formsReachedByChange', () => {
  it('reaches the form, the forms deriving from it step by step, and the forms whose rules read those', () => {
    // a.main's count feeds a.log's copy; visit b's main (its variant) derives nothing from visit a.
    // The visit forms read only their own date.
    expect(reachedNames(miniStudy, {}, 'a', 'main')).toEqual(['a.main', 'a.log']);
    expect(reachedNames(miniStudy, {}, 'b', 'main')).toEqual(['b.main']);
    expect(reachedNames(miniStudy, {}, 'a', 'log')).toEqual(['a.log']);
    // A not-future date is a hard check of the form's own save: it does not make the form reached.
    expect(reachedNames(miniStudy, {}, 'a', 'visit')).toEqual(['a.visit']);
    // A derivation across visits: the base sections' `fromA` reads a.main from any visit.
    const study = copyOf(miniStudy);
    const log = study.forms.find((form) => form.key === 'log');
    log?.sections[0]?.items.push({
      key: 'fromB',
      type: 'integer',
      label: log.label,
      derive: { ref: 'b.main.count' },
    });
    expect(reachedNames(study, {}, 'b', 'main')).toEqual(['a.log', 'b.main']);
  });

  it('always reaches the forms whose rules read today, and those deriving from today', () => {
    // Definitions are immutable once used (the index is cached by identity): one copy per case.
    const readsToday = copyOf(miniStudy);
    const logSection = readsToday.forms.find((form) => form.key === 'log')?.sections[0];
    if (!logSection) throw new Error('fixture changed');
    logSection.showWhen = { op: 'gt', args: [{ op: 'today' }, '2020-01-01'] };
    expect(reachedNames(readsToday, {}, 'b', 'main')).toEqual(['a.log', 'b.main']);
    // A derivation from today: its form's values may move every day, so its readers are reached too.
    const derivesToday = copyOf(miniStudy);
    derivesToday.forms
      .find((form) => form.key === 'visit')
      ?.sections[0]?.items.push({
        key: 'asOf',
        type: 'date',
        label: { ko: '기준일', en: 'As of' },
        derive: { op: 'today' },
      });
    const main = derivesToday.forms.find((form) => form.key === 'main');
    if (!main?.checks?.[0]) throw new Error('fixture changed');
    main.checks[0].when = { op: 'eq', args: [{ ref: 'visit.asOf' }, 'x'] };
    expect(reachedNames(derivesToday, {}, 'a', 'log')).toEqual([
      'a.visit',
      'a.main',
      'a.log',
      'b.visit',
      'b.main',
    ]);
  });

  it("names the forms of an unscheduled visit by the visit's own key", () => {
    const names = getStudyIndex(tmPerforationStudy).definition.unscheduledVisit?.forms ?? [];
    const data: SubjectData = { ...sampleSubject(), 'unscheduled-1': {} };
    const firstForm = names[0];
    if (!firstForm) return;
    const reached = reachedNames(tmPerforationStudy, data, 'unscheduled-1', firstForm);
    expect(reached).toContain(`unscheduled-1.${firstForm}`);
    expect(reached.filter((name) => name.startsWith('unscheduled-1.'))).not.toContain('v1.vitalSigns');
  });

  /**
   * The promise a save relies on (subjects/form-data.ts, `formsToWalk`): change one form's values of
   * the sample casebook at random, on the same day or a later one, and every form left out evaluates
   * exactly as before — sections, missing items, checks (but the not-future ones, which only refuse
   * the form's own save) and outcomes.
   */
  it('leaves out only forms whose evaluation the change cannot alter', () => {
    const layouts = getStudyIndex(tmPerforationStudy).schedule;
    const pool: Array<JsonValue | undefined> = [
      undefined,
      null,
      '',
      'Y',
      'N',
      0,
      1,
      2,
      35,
      150,
      -1,
      '2024-01-01',
      '2025-06-19',
      '2031-01-01',
      true,
      false,
      [],
    ];
    const comparable = (form: FormEvaluation | undefined) =>
      form && {
        sections: form.sections,
        missing: form.missing,
        checks: form.checks.filter((check) => !check.checkId.endsWith('.future')),
        outcomes: form.outcomes,
      };
    fc.assert(
      fc.property(
        fc.nat({ max: layouts.length - 1 }),
        fc.array(fc.tuple(fc.nat(), fc.nat({ max: pool.length - 1 })), { maxLength: 6 }),
        fc.nat({ max: 400 }),
        (layoutIndex, changes, daysLater) => {
          const layout = layouts[layoutIndex];
          if (!layout) return;
          const before = sampleSubject();
          const after = copyOf(before);
          const keys = [...layout.items.keys()];
          const values: FormValues = { ...(after[layout.visitKey]?.[layout.form.key] ?? {}) };
          for (const [itemPick, valuePick] of changes) {
            const key = keys[itemPick % Math.max(keys.length, 1)];
            if (key === undefined) continue;
            const value = pool[valuePick];
            if (value === undefined) delete values[key];
            else values[key] = value;
          }
          after[layout.visitKey] = { ...(after[layout.visitKey] ?? {}), [layout.form.key]: values };
          const reached = formsReachedByChange(tmPerforationStudy, after, layout.visitKey, layout.form.key);
          const first = evaluateSubject(tmPerforationStudy, before, { today: SAMPLE_TODAY });
          const second = evaluateSubject(tmPerforationStudy, after, {
            today: addDays(SAMPLE_TODAY, daysLater) ?? SAMPLE_TODAY,
          });
          for (const form of second.forms) {
            if (reached.has(form.visitKey, form.formKey)) continue;
            const earlier = first.forms.find(
              (candidate) => candidate.visitKey === form.visitKey && candidate.formKey === form.formKey,
            );
            expect(comparable(form), `${form.visitKey}.${form.formKey}`).toEqual(comparable(earlier));
          }
        },
      ),
      { numRuns: 300, seed: 20261129 },
    );
  });
});
