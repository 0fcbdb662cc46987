import type { StudyDefinition } from '@cdms/study';
import { describe, expect, it } from 'vitest';
import en from '../../../locales/en/designer.json';
import ko from '../../../locales/ko/designer.json';
import { ROLE_NAMES, roleChoices, roleFields, setRoleField, setRoleOn } from './study-roles.ts';

const definition = {
  key: 'DSN',
  version: '1.0.0',
  label: { ko: '설계', en: 'Design' },
  codeLists: [],
  visits: [{ key: 'V1', label: { ko: '선별', en: 'Screening' }, group: 'screening', forms: ['reg', 'ae'] }],
  forms: [
    {
      key: 'reg',
      label: { ko: '등록', en: 'Registration' },
      sections: [
        {
          key: 'main',
          label: { ko: '기본', en: 'Main' },
          items: [{ key: 'consentDate', type: 'date', label: { ko: '동의일', en: 'Consent date' } }],
        },
      ],
    },
    {
      key: 'ae',
      label: { ko: '이상사례', en: 'Adverse events' },
      sections: [
        {
          key: 'events',
          label: { ko: '목록', en: 'List' },
          repeating: { key: 'rows' },
          items: [{ key: 'serious', type: 'yesNo', label: { ko: '중대성', en: 'Serious' } }],
        },
      ],
    },
  ],
} satisfies StudyDefinition;

describe('the study roles as the designer edits them', () => {
  it('reads every role and its fields off the model, each named in Korean and English', () => {
    expect(ROLE_NAMES).toContain('registration');
    expect(ROLE_NAMES).toContain('eventsOfInterest');
    expect(roleFields('registration')).toEqual([
      { name: 'visit', kind: 'visit', optional: false },
      { name: 'form', kind: 'form', optional: false },
      { name: 'consentDate', kind: 'item', optional: false },
      { name: 'initials', kind: 'item', optional: true },
      { name: 'screeningNumber', kind: 'item', optional: true },
    ]);
    // The audiogram's nested treated ear is not edited here.
    expect(roleFields('audiogram').map((field) => field.name)).toEqual(['form']);
    expect(roleFields('demographics').find((field) => field.name === 'femaleCode')?.kind).toBe('code');
    for (const catalogue of [ko, en]) {
      const texts = catalogue.settings.roles as unknown as Record<string, Record<string, string>>;
      for (const role of ROLE_NAMES) {
        expect(texts.names?.[role], role).toBeTruthy();
        expect(texts.about?.[role], role).toBeTruthy();
        for (const field of roleFields(role)) expect(texts.fields?.[field.name], field.name).toBeTruthy();
      }
    }
  });

  it('turns a role on, fills its fields from the chosen form, and clears them when the form changes', () => {
    const on = setRoleOn(undefined, 'registration', true);
    expect(on).toEqual({ registration: {} });
    const filled = setRoleField(
      setRoleField(setRoleField(on, 'registration', 'visit', 'V1'), 'registration', 'form', 'reg'),
      'registration',
      'consentDate',
      'consentDate',
    );
    expect(filled).toEqual({ registration: { visit: 'V1', form: 'reg', consentDate: 'consentDate' } });
    expect(setRoleField(filled, 'registration', 'form', 'ae')).toEqual({
      registration: { visit: 'V1', form: 'ae' },
    });
    expect(setRoleField(filled, 'registration', 'visit', '')).toEqual({
      registration: { form: 'reg', consentDate: 'consentDate' },
    });
    expect(setRoleOn(filled, 'registration', false)).toBeUndefined();
  });

  it('offers the chosen form’s items, sections and repeating groups', () => {
    expect(roleChoices(definition, 'ae', 'rows').map((choice) => choice.key)).toEqual(['rows']);
    expect(roleChoices(definition, 'ae', 'item').map((choice) => choice.key)).toEqual(['serious']);
    expect(roleChoices(definition, 'ae', 'section').map((choice) => choice.key)).toEqual(['events']);
    expect(roleChoices(definition, undefined, 'item')).toEqual([]);
    expect(roleChoices(definition, undefined, 'form').map((choice) => choice.key)).toEqual(['reg', 'ae']);
  });
});
