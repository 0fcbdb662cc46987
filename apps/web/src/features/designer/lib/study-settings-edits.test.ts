import { type StudyDefinition, studyDefinitionSchema } from '@cdms/study';
import { describe, expect, it } from 'vitest';
import { designerReducer, initialDesignerState } from './designer-state.ts';
import {
  NEW_UNSCHEDULED_LABEL,
  parameterValue,
  setParameter,
  setStatusRule,
  setStatusRulesOn,
  settingsOf,
  setVisitDateForm,
  toggleUnscheduledForm,
} from './study-settings-edits.ts';

const definition: StudyDefinition = {
  key: 'DSN',
  version: '1.0.0',
  label: { ko: '설계', en: 'Design' },
  codeLists: [],
  visits: [
    { key: 'V1', label: { ko: '선별', en: 'Screening' }, group: 'screening', forms: ['visit', 'demo'] },
    { key: 'V2', label: { ko: '추적', en: 'Follow-up' }, group: 'follow_up', forms: ['visit'] },
  ],
  forms: [
    {
      key: 'visit',
      label: { ko: '방문', en: 'Visit' },
      sections: [
        {
          key: 'main',
          label: { ko: '기본', en: 'Main' },
          items: [{ key: 'visitDate', type: 'date', label: { ko: '방문일', en: 'Visit date' } }],
        },
      ],
    },
    {
      key: 'demo',
      label: { ko: '인구학', en: 'Demographics' },
      sections: [
        {
          key: 'main',
          label: { ko: '기본', en: 'Main' },
          items: [{ key: 'age', type: 'integer', label: { ko: '나이', en: 'Age' } }],
        },
      ],
    },
  ],
};

/** The settings applied through the reducer, as the page does. */
const apply = (settings: ReturnType<typeof settingsOf>) =>
  designerReducer(initialDesignerState(definition), { type: 'replaceSettings', settings }).present;

describe('the study settings edits', () => {
  it('set the visit date to a form’s date item, and clear it', () => {
    const settings = setVisitDateForm(settingsOf(definition), definition, 'visit');
    expect(settings.visitDate).toEqual({ form: 'visit', item: 'visitDate' });
    // A form without a date item cannot record it.
    expect(setVisitDateForm(settings, definition, 'demo').visitDate).toBeUndefined();
    const stored = apply(settings);
    expect(stored.visitDate).toEqual({ form: 'visit', item: 'visitDate' });
    expect(studyDefinitionSchema.safeParse(stored).success).toBe(true);
    expect('visitDate' in apply(setVisitDateForm(settingsOf(stored), stored, null))).toBe(false);
  });

  it('give the study unscheduled visits with the first form ticked, in the forms’ order, and none with the last unticked', () => {
    const one = toggleUnscheduledForm(settingsOf(definition), definition, 'demo');
    expect(one.unscheduledVisit).toEqual({ label: NEW_UNSCHEDULED_LABEL, forms: ['demo'] });
    const two = toggleUnscheduledForm(one, definition, 'visit');
    expect(two.unscheduledVisit?.forms).toEqual(['visit', 'demo']);
    expect(studyDefinitionSchema.safeParse(apply(two)).success).toBe(true);
    const none = toggleUnscheduledForm(toggleUnscheduledForm(two, definition, 'visit'), definition, 'demo');
    expect(none.unscheduledVisit).toBeUndefined();
    expect('unscheduledVisit' in apply(none)).toBe(false);
  });

  it('add, change and remove parameters, a number when the value reads as one', () => {
    const added = setParameter(settingsOf(definition), 'maxAge', {
      value: parameterValue('80'),
      label: { ko: '최고 나이', en: 'Oldest age' },
    });
    expect(added.parameters).toEqual({ maxAge: { value: 80, label: { ko: '최고 나이', en: 'Oldest age' } } });
    expect(parameterValue('2026-01-01')).toBe('2026-01-01');
    expect(parameterValue(' ')).toBe(' ');
    expect(studyDefinitionSchema.safeParse(apply(added)).success).toBe(true);
    expect(setParameter(added, 'maxAge', null).parameters).toBeUndefined();
  });

  it('turn the status rules on as rules that never hold, set one, and turn them off', () => {
    const on = setStatusRulesOn(settingsOf(definition), true);
    expect(on.subjectStatus).toEqual({
      complete: false,
      dropout: false,
      screeningFailure: false,
      ongoing: false,
    });
    expect(setStatusRulesOn(on, true)).toBe(on);
    const ongoing = setStatusRule(on, 'ongoing', { op: 'notEmpty', args: [{ ref: 'V1.demo.age' }] });
    expect(ongoing.subjectStatus?.ongoing).toEqual({ op: 'notEmpty', args: [{ ref: 'V1.demo.age' }] });
    expect(setStatusRule(ongoing, 'ongoing', undefined).subjectStatus?.ongoing).toBe(false);
    expect(setStatusRulesOn(ongoing, false).subjectStatus).toBeUndefined();
  });

  it('leave the definition as it is when the settings do not change, so nothing is left to save', () => {
    const state = initialDesignerState(definition);
    expect(designerReducer(state, { type: 'replaceSettings', settings: settingsOf(definition) })).toBe(state);
  });
});
