import { type FormDefinition, ITEM_TYPES, type StudyDefinition, studyDefinitionSchema } from '@cdms/study';
import { describe, expect, it } from 'vitest';
import { designerReducer, initialDesignerState } from './designer-state.ts';
import {
  addCheck,
  addItem,
  addOutcome,
  addSection,
  addVariant,
  formFromLayout,
  formInLayout,
  keysOfForm,
  moveItem,
  moveItemTo,
  moveSection,
  newCheck,
  newItem,
  newOutcome,
  placeAfterMove,
  removeCheck,
  removeItem,
  removeOutcome,
  removeSection,
  removeVariant,
  setVariantVisits,
  updateCheck,
  updateItem,
  updateOutcome,
} from './form-edits.ts';

const form: FormDefinition = {
  key: 'vitals',
  label: { ko: '활력 징후', en: 'Vital signs' },
  sections: [
    {
      key: 'first',
      label: { ko: '가', en: 'A' },
      items: [
        { key: 'weight', type: 'decimal', decimals: 1, label: { ko: '체중', en: 'Weight' } },
        { key: 'height', type: 'decimal', decimals: 1, label: { ko: '키', en: 'Height' } },
      ],
    },
    {
      key: 'second',
      label: { ko: '나', en: 'B' },
      repeating: { key: 'rows' },
      items: [{ key: 'note', type: 'text', label: { ko: '메모', en: 'Note' } }],
    },
  ],
};

const keysOf = (value: FormDefinition) =>
  value.sections.map((section) => section.items.map((item) => item.key));

describe('the form edits', () => {
  it('move an item within its section, then across into the next and back', () => {
    const down = moveItem(form, { sectionIndex: 0, itemIndex: 0 }, 1);
    expect(keysOf(down)).toEqual([['height', 'weight'], ['note']]);
    const across = moveItem(down, { sectionIndex: 0, itemIndex: 1 }, 1);
    expect(keysOf(across)).toEqual([['height'], ['weight', 'note']]);
    expect(placeAfterMove(down, { sectionIndex: 0, itemIndex: 1 }, 1)).toEqual({
      sectionIndex: 1,
      itemIndex: 0,
    });
    const back = moveItem(across, { sectionIndex: 1, itemIndex: 0 }, -1);
    expect(keysOf(back)).toEqual([['height', 'weight'], ['note']]);
    expect(placeAfterMove(across, { sectionIndex: 1, itemIndex: 0 }, -1)).toEqual({
      sectionIndex: 0,
      itemIndex: 1,
    });
  });

  it('move an item where a drag drops it: onto an item takes its place, onto a section goes last', () => {
    // Within its section: it ends up at the place dropped on.
    expect(
      keysOf(moveItemTo(form, { sectionIndex: 0, itemIndex: 1 }, { sectionIndex: 0, itemIndex: 0 })),
    ).toEqual([['height', 'weight'], ['note']]);
    // Into another section: before the item dropped on, or last when dropped on the section.
    expect(
      keysOf(moveItemTo(form, { sectionIndex: 0, itemIndex: 0 }, { sectionIndex: 1, itemIndex: 0 })),
    ).toEqual([['height'], ['weight', 'note']]);
    expect(
      keysOf(moveItemTo(form, { sectionIndex: 0, itemIndex: 0 }, { sectionIndex: 1, itemIndex: 1 })),
    ).toEqual([['height'], ['note', 'weight']]);
    // Dropped on its own section: last in it.
    expect(
      keysOf(moveItemTo(form, { sectionIndex: 0, itemIndex: 0 }, { sectionIndex: 0, itemIndex: 2 })),
    ).toEqual([['height', 'weight'], ['note']]);
    // Nowhere to go: the same form.
    expect(moveItemTo(form, { sectionIndex: 0, itemIndex: 0 }, { sectionIndex: 7, itemIndex: 0 })).toBe(form);
    expect(moveItemTo(form, { sectionIndex: 0, itemIndex: 1 }, { sectionIndex: 0, itemIndex: 1 })).toBe(form);
    expect(moveSection(form, 1, 0).sections.map((section) => section.key)).toEqual(['second', 'first']);
  });

  it('edit a visit variant as a layout of its own and put it back, the default sections untouched', () => {
    const withVariant = addVariant(form, ['V2']);
    expect(withVariant.variants).toEqual([{ visits: ['V2'], sections: form.sections }]);
    const layout = formInLayout(withVariant, 0);
    expect(layout.sections).toBe(form.sections);
    const edited = removeItem(layout, { sectionIndex: 0, itemIndex: 1 });
    const back = formFromLayout(withVariant, 0, edited);
    expect(keysOf(back)).toEqual([['weight', 'height'], ['note']]);
    expect(back.variants?.[0]?.sections.map((section) => section.items.map((item) => item.key))).toEqual([
      ['weight'],
      ['note'],
    ]);
    // The default layout is the form itself.
    expect(formInLayout(withVariant, null)).toBe(withVariant);
    expect(formFromLayout(withVariant, null, edited)).toBe(edited);
    expect(setVariantVisits(back, 0, ['V2', 'V3']).variants?.[0]?.visits).toEqual(['V2', 'V3']);
    expect(setVariantVisits(back, 0, [])).toBe(back);
    expect('variants' in removeVariant(back, 0)).toBe(false);
  });

  it('give the same form back when nothing can move or be removed', () => {
    expect(moveItem(form, { sectionIndex: 0, itemIndex: 0 }, -1)).toBe(form);
    expect(moveItem(form, { sectionIndex: 1, itemIndex: 0 }, 1)).toBe(form);
    expect(moveSection(form, 1, 2)).toBe(form);
    expect(removeItem(form, { sectionIndex: 5, itemIndex: 0 })).toBe(form);
    const oneSection = removeSection(form, 1);
    expect(oneSection.sections.map((section) => section.key)).toEqual(['first']);
    expect(removeSection(oneSection, 0)).toBe(oneSection);
  });

  it('add, change and remove items and sections', () => {
    const added = addItem(
      form,
      1,
      newItem('singleChoice', 'result', { ko: '결과', en: 'Result' }, ['results']),
    );
    expect(added.sections[1]?.items.at(-1)).toEqual({
      key: 'result',
      type: 'singleChoice',
      label: { ko: '결과', en: 'Result' },
      codeList: 'results',
    });
    const changed = updateItem(
      added,
      { sectionIndex: 0, itemIndex: 0 },
      {
        key: 'weight',
        type: 'decimal',
        decimals: 1,
        unit: 'kg',
        min: 30,
        label: { ko: '체중', en: 'Weight' },
      },
    );
    expect(changed.sections[0]?.items[0]?.unit).toBe('kg');
    expect(keysOf(removeItem(changed, { sectionIndex: 0, itemIndex: 1 }))).toEqual([
      ['weight'],
      ['note', 'result'],
    ]);
    const withSection = addSection(form, { key: 'third', label: { ko: '다', en: 'C' }, items: [] });
    expect(withSection.sections.map((section) => section.key)).toEqual(['first', 'second', 'third']);
    expect(moveSection(withSection, 2, 1).sections.map((section) => section.key)).toEqual([
      'first',
      'third',
      'second',
    ]);
  });

  it('add checks with ids of their own, change one and remove them all', () => {
    const first = newCheck(form, 'weight');
    expect(first).toEqual({
      id: 'weightCheck1',
      item: 'weight',
      when: false,
      severity: 'query',
      message: { ko: '', en: '' },
    });
    const withOne = addCheck(form, first);
    const withTwo = addCheck(withOne, newCheck(withOne, 'weight'));
    expect(withTwo.checks?.map((check) => check.id)).toEqual(['weightCheck1', 'weightCheck2']);
    const changed = updateCheck(withTwo, 1, { ...newCheck(withOne, 'weight'), severity: 'hard' });
    expect(changed.checks?.[1]?.severity).toBe('hard');
    expect(updateCheck(changed, 5, first)).toBe(changed);
    const none = removeCheck(removeCheck(changed, 1), 0);
    expect(none).not.toHaveProperty('checks');
  });

  it('add routing outcomes with ids of their own, change one and remove them all', () => {
    const first = newOutcome(form);
    expect(first).toEqual({
      id: 'vitalsOutcome1',
      kind: 'goToEndOfStudy',
      when: false,
      message: { ko: '', en: '' },
    });
    const two = addOutcome(addOutcome(form, first), newOutcome(addOutcome(form, first)));
    expect(two.outcomes?.map((outcome) => outcome.id)).toEqual(['vitalsOutcome1', 'vitalsOutcome2']);
    const changed = updateOutcome(two, 0, { ...first, kind: 'excluded' });
    expect(changed.outcomes?.[0]?.kind).toBe('excluded');
    expect(removeOutcome(removeOutcome(changed, 0), 0)).not.toHaveProperty('outcomes');
  });

  it('know the keys a new item may not take, repeating groups included', () => {
    expect(keysOfForm(form)).toEqual(['weight', 'height', 'rows', 'note']);
  });

  it('make a new item of every type the editor offers that the model takes', () => {
    for (const type of ITEM_TYPES) {
      const definition: StudyDefinition = {
        key: 'tiny',
        version: '1.0.0',
        label: { ko: '작은', en: 'Tiny' },
        codeLists: [{ key: 'results', codes: [{ code: '1', label: { ko: '정상', en: 'Normal' } }] }],
        visits: [{ key: 'V1', label: { ko: '방문', en: 'Visit' }, group: 'screening', forms: ['f'] }],
        forms: [
          {
            key: 'f',
            label: { ko: '양식', en: 'Form' },
            sections: [
              {
                key: 's',
                label: { ko: '구역', en: 'Section' },
                items: [
                  // A tracing is drawn on the form's photo: it needs one beside it.
                  ...(type === 'tracing'
                    ? [{ key: 'picture', type: 'photo' as const, label: { ko: '사진', en: 'Photo' } }]
                    : []),
                  newItem(type, 'item', { ko: '항목', en: 'Item' }, ['results']),
                ],
              },
            ],
          },
        ],
      };
      const parsed = studyDefinitionSchema.safeParse(definition);
      expect(parsed.success ? [] : parsed.error.issues.map((issue) => `${type}: ${issue.message}`)).toEqual(
        [],
      );
    }
  });
});

describe('the designer history of form edits', () => {
  const definition: StudyDefinition = {
    key: 'tiny',
    version: '1.0.0',
    label: { ko: '작은', en: 'Tiny' },
    codeLists: [],
    visits: [{ key: 'V1', label: { ko: '방문', en: 'Visit' }, group: 'screening', forms: ['vitals'] }],
    forms: [form],
  };
  const typed = (text: string) =>
    updateItem(
      form,
      { sectionIndex: 0, itemIndex: 0 },
      {
        key: 'weight',
        type: 'decimal',
        decimals: 1,
        label: { ko: text, en: 'Weight' },
      },
    );

  it('makes a run of keystrokes in one field one step to undo, and another field a new step', () => {
    let state = initialDesignerState(definition);
    for (const text of ['체', '체중', '체중 (kg)']) {
      state = designerReducer(state, {
        type: 'replaceForm',
        index: 0,
        form: typed(text),
        coalesce: 'w.label.ko',
      });
    }
    expect(state.past).toHaveLength(1);
    expect(state.present.forms[0]?.sections[0]?.items[0]?.label.ko).toBe('체중 (kg)');
    state = designerReducer(state, {
      type: 'replaceForm',
      index: 0,
      form: moveItem(state.present.forms[0] as FormDefinition, { sectionIndex: 0, itemIndex: 0 }, 1),
    });
    expect(state.past).toHaveLength(2);
    state = designerReducer(state, { type: 'undo' });
    state = designerReducer(state, { type: 'undo' });
    expect(state.present).toBe(definition);
    // After an undo the same field's typing starts a new step.
    state = designerReducer(state, {
      type: 'replaceForm',
      index: 0,
      form: typed('무게'),
      coalesce: 'w.label.ko',
    });
    expect(state.past).toHaveLength(1);
  });
});
