import type { StudyDefinition } from '@cdms/study';
import { studyDefinitionSchema } from '@cdms/study';
import { describe, expect, it } from 'vitest';
import {
  type DesignerAction,
  designerReducer,
  emptyDefinition,
  formsOfVisit,
  hasUnsavedChanges,
  initialDesignerState,
  labelIn,
  missingTranslation,
  problemTarget,
  restoredDesignerState,
} from './designer-state.ts';

const definition: StudyDefinition = {
  key: 'TINY',
  version: '1.0.0',
  label: { ko: '작은 연구', en: 'Tiny study' },
  codeLists: [],
  visits: [
    { key: 'V1', label: { ko: '선별', en: 'Screening' }, group: 'screening', forms: ['demo'] },
    { key: 'V2', label: { ko: '추적', en: 'Follow-up' }, group: 'follow_up', forms: ['demo', 'vitals'] },
  ],
  forms: [
    {
      key: 'demo',
      label: { ko: '인구학', en: 'Demographics' },
      sections: [{ key: 's', label: { ko: '가', en: 'A' }, items: [] }],
    },
    {
      key: 'vitals',
      label: { ko: '활력 징후', en: 'Vital signs' },
      sections: [{ key: 's', label: { ko: '가', en: 'A' }, items: [] }],
    },
  ],
};

function run(...actions: DesignerAction[]) {
  return actions.reduce(designerReducer, initialDesignerState(definition));
}

describe('designerReducer', () => {
  it('adds a visit at the end with no forms, and a form with one empty section', () => {
    const state = run(
      { type: 'addVisit', visit: { key: 'V3', label: { ko: '종료', en: 'End' }, group: 'end_of_study' } },
      { type: 'addForm', form: { key: 'ae', label: { ko: '이상반응', en: 'Adverse events' } } },
    );
    expect(state.present.visits.map((visit) => visit.key)).toEqual(['V1', 'V2', 'V3']);
    expect(state.present.visits[2]?.forms).toEqual([]);
    expect(state.present.forms[2]?.sections).toHaveLength(1);
    expect(studyDefinitionSchema.safeParse(state.present).success).toBe(true);
    expect(hasUnsavedChanges(state)).toBe(true);
  });

  it('renames a visit (labels and group) and a form', () => {
    const state = run(
      { type: 'updateVisit', index: 1, label: { ko: '방문 2', en: 'Visit 2' }, group: 'baseline' },
      { type: 'renameForm', index: 0, label: { ko: '인구학', en: 'Demography' } },
    );
    expect(state.present.visits[1]).toMatchObject({ key: 'V2', label: { en: 'Visit 2' }, group: 'baseline' });
    expect(state.present.forms[0]?.label.en).toBe('Demography');
  });

  it('gives a visit a window relative to another and takes it away again', () => {
    const window = { anchorVisit: 'V1', offsetDays: 28, minusDays: 3, plusDays: 7 };
    const label = { ko: '추적', en: 'Follow-up' };
    const timed = run({ type: 'updateVisit', index: 1, label, group: 'follow_up', window });
    expect(timed.present.visits[1]?.window).toEqual(window);
    expect(studyDefinitionSchema.safeParse(timed.present).success).toBe(true);
    const untimed = designerReducer(timed, { type: 'updateVisit', index: 1, label, group: 'follow_up' });
    expect(untimed.present.visits[1]).not.toHaveProperty('window');
    const added = run({
      type: 'addVisit',
      visit: { key: 'V3', label: { ko: '종료', en: 'End' }, group: 'end_of_study', window },
    });
    expect(added.present.visits[2]).toEqual({
      key: 'V3',
      label: { ko: '종료', en: 'End' },
      group: 'end_of_study',
      window,
      forms: [],
    });
  });

  it('reorders visits and forms, and a move past either end changes nothing', () => {
    const state = run({ type: 'moveVisit', index: 1, to: 0 }, { type: 'moveForm', index: 0, to: 1 });
    expect(state.present.visits.map((visit) => visit.key)).toEqual(['V2', 'V1']);
    expect(state.present.forms.map((form) => form.key)).toEqual(['vitals', 'demo']);
    const still = run({ type: 'moveVisit', index: 0, to: -1 });
    expect(still.present).toBe(definition);
    expect(still.past).toHaveLength(0);
  });

  it('removes a visit but never the last one', () => {
    expect(formsOfVisit(definition, 1).map((form) => form.key)).toEqual(['demo', 'vitals']);
    const state = run({ type: 'removeVisit', index: 0 });
    expect(state.present.visits.map((visit) => visit.key)).toEqual(['V2']);
    expect(designerReducer(state, { type: 'removeVisit', index: 0 }).present.visits).toHaveLength(1);
  });

  it('removes a form from the study and every schedule, but never the last form', () => {
    const state = run({ type: 'removeForm', index: 0 });
    expect(state.present.forms.map((form) => form.key)).toEqual(['vitals']);
    expect(state.present.visits.map((visit) => visit.forms)).toEqual(
      definition.visits.map((visit) => visit.forms.filter((key) => key !== 'demo')),
    );
    expect(designerReducer(state, { type: 'removeForm', index: 0 }).present.forms).toHaveLength(1);
    expect(designerReducer(state, { type: 'undo' }).present).toEqual(definition);
  });

  it('takes a removed form out of the unscheduled visit, and the visit when it offered only that form', () => {
    const remove = (forms: string[]) =>
      designerReducer(
        initialDesignerState({ ...definition, unscheduledVisit: { label: definition.label, forms } }),
        { type: 'removeForm', index: 0 },
      ).present.unscheduledVisit;
    expect(remove(['demo', 'vitals'])?.forms).toEqual(['vitals']);
    expect(remove(['demo'])).toBeUndefined();
  });

  it('toggles a cell, keeping the visit forms in the order of the rows', () => {
    const state = run({ type: 'toggleCell', visitIndex: 0, formKey: 'vitals' });
    expect(state.present.visits[0]?.forms).toEqual(['demo', 'vitals']);
    const off = designerReducer(state, { type: 'toggleCell', visitIndex: 0, formKey: 'demo' });
    expect(off.present.visits[0]?.forms).toEqual(['vitals']);
  });

  it('undoes and redoes, and a new edit drops the redo steps', () => {
    const edited = run(
      { type: 'toggleCell', visitIndex: 0, formKey: 'vitals' },
      { type: 'moveForm', index: 1, to: 0 },
    );
    const undone = designerReducer(designerReducer(edited, { type: 'undo' }), { type: 'undo' });
    expect(undone.present).toBe(definition);
    expect(hasUnsavedChanges(undone)).toBe(false);
    expect(undone.future).toHaveLength(2);
    const redone = designerReducer(undone, { type: 'redo' });
    expect(redone.present.visits[0]?.forms).toEqual(['demo', 'vitals']);
    const branched = designerReducer(redone, { type: 'moveVisit', index: 0, to: 1 });
    expect(branched.future).toHaveLength(0);
    expect(designerReducer(branched, { type: 'redo' })).toBe(branched);
    expect(designerReducer(initialDesignerState(definition), { type: 'undo' }).past).toHaveLength(0);
  });

  it('starts the history again on load (after a save)', () => {
    const edited = run({ type: 'moveVisit', index: 0, to: 1 });
    const saved = designerReducer(edited, { type: 'load', definition: edited.present });
    expect(saved.past).toHaveLength(0);
    expect(hasUnsavedChanges(saved)).toBe(false);
  });
});

describe('designer saves', () => {
  it('marks what the server holds after an autosave and keeps the history to undo', () => {
    const edited = run({ type: 'moveVisit', index: 0, to: 1 });
    expect(hasUnsavedChanges(edited)).toBe(true);
    const saved = designerReducer(edited, { type: 'saved', definition: edited.present });
    expect(hasUnsavedChanges(saved)).toBe(false);
    expect(saved.past).toHaveLength(1);
    // Undoing after the save makes the draft differ from the server's again: it is saved again.
    const undone = designerReducer(saved, { type: 'undo' });
    expect(undone.present).toBe(definition);
    expect(hasUnsavedChanges(undone)).toBe(true);
  });

  it('restores edits never sent as unsaved, one undo away from the server draft', () => {
    const unsent = { ...definition, label: { ko: '바뀐 연구', en: 'Changed study' } };
    const state = restoredDesignerState(definition, unsent);
    expect(state.present).toBe(unsent);
    expect(hasUnsavedChanges(state)).toBe(true);
    expect(designerReducer(state, { type: 'undo' }).present).toBe(definition);
  });
});

describe('designer helpers', () => {
  it('shows a label in the reader language, else the other one', () => {
    expect(labelIn({ ko: '선별', en: 'Screening' }, 'en')).toBe('Screening');
    expect(labelIn({ ko: '선별', en: '' }, 'en')).toBe('선별');
    expect(labelIn({ ko: '선별', en: 'Screening' }, 'ko')).toBe('선별');
  });

  it('counts only an empty text as a missing translation', () => {
    expect(missingTranslation({ ko: 'Screening', en: 'Screening' })).toEqual([]);
    expect(missingTranslation({ ko: '선별', en: ' ' })).toEqual(['en']);
  });

  it('finds the visit or form a problem is about', () => {
    expect(problemTarget('/visits/2/label/en')).toEqual({ kind: 'visit', index: 2 });
    expect(problemTarget('/forms/0')).toEqual({ kind: 'form', index: 0 });
    expect(problemTarget('/codeLists/0')).toBeNull();
  });

  it('makes an empty design the model accepts', () => {
    const empty = emptyDefinition('TUBE-2027', { ko: '관', en: 'Tube' });
    expect(empty.key).toBe('TUBE2027');
    expect(studyDefinitionSchema.safeParse(empty).success).toBe(true);
  });
});
