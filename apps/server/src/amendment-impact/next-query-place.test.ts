import { amendmentChangeSet, type StudyDefinition, tmPerforationStudy } from '@cdms/study';
import { describe, expect, it } from 'vitest';
import { nextQueryPlace } from './next-query-place.ts';

/** The demo study with `edit` applied to a copy. */
function amended(edit: (next: StudyDefinition) => void): StudyDefinition {
  const next = structuredClone(tmPerforationStudy);
  edit(next);
  return next;
}

const renameInForm = (next: StudyDefinition, formKey: string, from: string, to: string) => {
  const index = next.forms.findIndex((form) => form.key === formKey);
  next.forms[index] = JSON.parse(JSON.stringify(next.forms[index]).replaceAll(`"${from}"`, `"${to}"`));
};

describe('nextQueryPlace', () => {
  it("moves a built-in check's query with its renamed item, check id included", () => {
    const next = amended((definition) => renameInForm(definition, 'vitalSigns', 'heartRate', 'pulse'));
    const changeSet = amendmentChangeSet(tmPerforationStudy, next, {
      itemRenames: [{ form: 'vitalSigns', from: 'heartRate', to: 'pulse' }],
    });
    expect(
      nextQueryPlace(changeSet, {
        visit_key: 'v2',
        form_key: 'vitalSigns',
        item_path: 'v2.vitalSigns.heartRate',
        check_id: 'vitalSigns.heartRate.range',
      }),
    ).toEqual({
      visitKey: 'v2',
      formKey: 'vitalSigns',
      itemPath: 'pulse',
      checkId: 'vitalSigns.pulse.range',
    });
  });

  it("moves a repeating row's query to the renamed item of the same row, keeping a check's own id", () => {
    const next = amended((definition) => renameInForm(definition, 'medicalHistory', 'endDate', 'stopDate'));
    const changeSet = amendmentChangeSet(tmPerforationStudy, next, {
      itemRenames: [{ form: 'medicalHistory', from: 'endDate', to: 'stopDate' }],
    });
    const query = {
      visit_key: 'v1',
      form_key: 'medicalHistory',
      item_path: 'v1.medicalHistory.histories[3].endDate',
      check_id: 'medicalHistory.endBeforeStart',
    };
    expect(nextQueryPlace(changeSet, query)).toEqual({
      visitKey: 'v1',
      formKey: 'medicalHistory',
      itemPath: 'histories[3].stopDate',
      checkId: 'medicalHistory.endBeforeStart',
    });
  });

  it('has no place for a query of a retired item or form, and keeps one the plan does not know', () => {
    const next = amended((definition) => {
      const vitals = definition.forms.find((form) => form.key === 'vitalSigns');
      for (const section of vitals?.sections ?? [])
        section.items = section.items.filter((item) => item.key !== 'heartRate');
      definition.forms = definition.forms.filter((form) => form.key !== 'medicalHistory');
      for (const visit of definition.visits)
        visit.forms = visit.forms.filter((form) => form !== 'medicalHistory');
    });
    const changeSet = amendmentChangeSet(tmPerforationStudy, next, {});
    const query = (formKey: string, itemPath: string) => ({
      visit_key: 'v1',
      form_key: formKey,
      item_path: `v1.${formKey}.${itemPath}`,
      check_id: null,
    });
    expect(nextQueryPlace(changeSet, query('vitalSigns', 'heartRate'))).toBeNull();
    expect(nextQueryPlace(changeSet, query('medicalHistory', 'histories[0].endDate'))).toBeNull();
    expect(nextQueryPlace(changeSet, query('vitalSigns', 'bodyTemperature'))).toEqual({
      visitKey: 'v1',
      formKey: 'vitalSigns',
      itemPath: 'bodyTemperature',
      checkId: null,
    });
    expect(nextQueryPlace(changeSet, query('formerForm', 'item'))).toEqual({
      visitKey: 'v1',
      formKey: 'formerForm',
      itemPath: 'item',
      checkId: null,
    });
  });
});
