import type { StudyDefinition } from '@cdms/study';
import { describe, expect, it } from 'vitest';
import en from '../../../locales/en/designer.json';
import ko from '../../../locales/ko/designer.json';
import {
  ROLE_NAMES,
  type RoleField,
  roleChoices,
  roleFields,
  setRoleField,
  setRoleOn,
  setRolePartOn,
} from './study-roles.ts';

const definition = {
  key: 'DSN',
  version: '1.0.0',
  label: { ko: '설계', en: 'Design' },
  codeLists: [
    {
      key: 'sides',
      codes: [
        { code: 'R', label: { ko: '우측', en: 'Right' } },
        { code: 'L', label: { ko: '좌측', en: 'Left' } },
      ],
    },
  ],
  visits: [
    { key: 'V1', label: { ko: '선별', en: 'Screening' }, group: 'screening', forms: ['reg', 'ae', 'op'] },
  ],
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
          key: 'summary',
          label: { ko: '요약', en: 'Summary' },
          items: [{ key: 'anyEvents', type: 'yesNo', label: { ko: '이상사례 있음', en: 'Any events' } }],
        },
        {
          key: 'events',
          label: { ko: '목록', en: 'List' },
          repeating: { key: 'rows' },
          items: [{ key: 'serious', type: 'yesNo', label: { ko: '중대성', en: 'Serious' } }],
        },
      ],
    },
    {
      key: 'op',
      label: { ko: '수술', en: 'Surgery' },
      sections: [
        {
          key: 'main',
          label: { ko: '기본', en: 'Main' },
          items: [
            { key: 'opDate', type: 'date', label: { ko: '수술일', en: 'Surgery date' } },
            { key: 'side', type: 'singleChoice', codeList: 'sides', label: { ko: '수술 귀', en: 'Ear' } },
            { key: 'note', type: 'text', label: { ko: '메모', en: 'Note' } },
          ],
        },
      ],
    },
  ],
} satisfies StudyDefinition;

/** A field of a role, by name (`part.field` for a part's). */
function fieldOf(role: Parameters<typeof roleFields>[0], name: string): RoleField {
  const [first, nested] = name.split('.');
  const field = roleFields(role).find((entry) => entry.name === first);
  const found = nested === undefined ? field : field?.fields?.find((entry) => entry.name === nested);
  if (!found) throw new Error(`no field ${name}`);
  return found;
}

describe('the study roles as the designer edits them', () => {
  it('reads every role and its fields off the model, each named in Korean and English', () => {
    expect(ROLE_NAMES).toContain('registration');
    expect(ROLE_NAMES).toContain('eventsOfInterest');
    expect(roleFields('registration')).toEqual([
      { name: 'visit', kind: 'visit', optional: false },
      { name: 'form', kind: 'form', optional: false },
      { name: 'consentDate', kind: 'item', optional: false, types: ['date'] },
      { name: 'initials', kind: 'item', optional: true, types: ['text'] },
      { name: 'screeningNumber', kind: 'item', optional: true, types: ['text'] },
    ]);
    // The kinds are the model's (studyRoleFields), not guessed from the names.
    expect(fieldOf('demographics', 'femaleCode')).toEqual({
      name: 'femaleCode',
      kind: 'code',
      optional: false,
      item: 'sex',
    });
    expect(fieldOf('pregnancyTest', 'result').types).toBeNull();
    // The audiogram's treated ear is a part with fields of its own.
    expect(roleFields('audiogram')).toEqual([
      { name: 'form', kind: 'form', optional: false },
      {
        name: 'treatedEar',
        kind: 'part',
        optional: true,
        fields: [
          { name: 'visit', kind: 'visit', optional: false },
          { name: 'form', kind: 'form', optional: false },
          { name: 'item', kind: 'item', optional: false, types: ['singleChoice'] },
          { name: 'rightCode', kind: 'code', optional: false, item: 'item' },
          { name: 'leftCode', kind: 'code', optional: false, item: 'item' },
        ],
      },
    ]);
    for (const catalogue of [ko, en]) {
      const texts = catalogue.settings.roles as unknown as Record<
        string,
        Record<string, string | Record<string, string>>
      >;
      const named = (fields: RoleField[]) => {
        for (const field of fields) {
          expect(texts.fields?.[field.name], field.name).toBeTruthy();
          if (field.kind !== 'part') continue;
          const part = texts.parts?.[field.name] as Record<string, string> | undefined;
          expect(part?.on, field.name).toBeTruthy();
          expect(part?.about, field.name).toBeTruthy();
          named(field.fields ?? []);
        }
      };
      for (const role of ROLE_NAMES) {
        expect(texts.names?.[role], role).toBeTruthy();
        expect(texts.about?.[role], role).toBeTruthy();
        named(roleFields(role));
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

  it('offers the chosen form’s items of the types the role reads, sections and repeating groups', () => {
    const keys = (value: Record<string, unknown>, role: Parameters<typeof roleFields>[0], name: string) =>
      roleChoices(definition, value, fieldOf(role, name)).map((choice) => choice.key);
    expect(keys({ form: 'ae' }, 'adverseEvents', 'rows')).toEqual(['rows']);
    expect(keys({ form: 'ae' }, 'adverseEvents', 'serious')).toEqual(['anyEvents', 'serious']);
    // Once the group is chosen, its columns only.
    expect(keys({ form: 'ae', rows: 'rows' }, 'adverseEvents', 'serious')).toEqual(['serious']);
    expect(keys({ form: 'ae' }, 'eligibility', 'inclusionSection')).toEqual(['summary', 'events']);
    expect(keys({}, 'adverseEvents', 'serious')).toEqual([]);
    expect(keys({}, 'adverseEvents', 'form')).toEqual(['reg', 'ae', 'op']);
    // Only the types read: a date for the consent date, any item for the pregnancy test's result.
    expect(keys({ form: 'op' }, 'registration', 'consentDate')).toEqual(['opDate']);
    expect(keys({ form: 'op' }, 'pregnancyTest', 'result')).toEqual(['opDate', 'side', 'note']);
    expect(keys({ form: 'op' }, 'audiogram', 'treatedEar.item')).toEqual(['side']);
  });

  it('offers a code from the chosen item’s list, none (typed instead) before the item or without a list', () => {
    const right = fieldOf('audiogram', 'treatedEar.rightCode');
    expect(roleChoices(definition, { form: 'op', item: 'side' }, right)).toEqual([
      { key: 'R', label: { ko: '우측', en: 'Right' } },
      { key: 'L', label: { ko: '좌측', en: 'Left' } },
    ]);
    expect(roleChoices(definition, { form: 'op' }, right)).toEqual([]);
    expect(roleChoices(definition, { form: 'op', item: 'note' }, right)).toEqual([]);
  });

  it('turns the audiogram’s treated ear on inside the role, fills it, and clears what named the old choice', () => {
    const on = setRolePartOn(
      setRoleField(undefined, 'audiogram', 'form', 'op'),
      'audiogram',
      'treatedEar',
      true,
    );
    expect(on).toEqual({ audiogram: { form: 'op', treatedEar: {} } });
    const set = (roles: typeof on, field: string, value: string | undefined) =>
      setRoleField(roles, 'audiogram', field, value, 'treatedEar');
    const filled = set(
      set(set(set(set(on, 'visit', 'V1'), 'form', 'op'), 'item', 'side'), 'rightCode', 'R'),
      'leftCode',
      'L',
    );
    expect(filled).toEqual({
      audiogram: {
        form: 'op',
        treatedEar: { visit: 'V1', form: 'op', item: 'side', rightCode: 'R', leftCode: 'L' },
      },
    });
    // Another item: its codes go; another form: its item and codes go; the role's own form stays.
    expect(set(filled, 'item', 'other')).toEqual({
      audiogram: { form: 'op', treatedEar: { visit: 'V1', form: 'op', item: 'other' } },
    });
    expect(set(filled, 'item', 'side')).toEqual(filled);
    expect(set(filled, 'form', 'reg')).toEqual({
      audiogram: { form: 'op', treatedEar: { visit: 'V1', form: 'reg' } },
    });
    // The role's form does not touch the part.
    expect(setRoleField(filled, 'audiogram', 'form', 'ae')).toEqual({
      audiogram: { form: 'ae', treatedEar: filled?.audiogram?.treatedEar },
    });
    expect(setRolePartOn(filled, 'audiogram', 'treatedEar', false)).toEqual({ audiogram: { form: 'op' } });
    expect(setRolePartOn(filled, 'audiogram', 'treatedEar', true)).toBe(filled);
  });

  it('clears the sex codes when the sex item changes', () => {
    const roles = {
      demographics: { visit: 'V1', form: 'op', sex: 'side', femaleCode: 'L', maleCode: 'R', age: 'x' },
    };
    expect(setRoleField(roles, 'demographics', 'sex', 'other')).toEqual({
      demographics: { visit: 'V1', form: 'op', sex: 'other', age: 'x' },
    });
  });
});

describe('the adverse events’ repeating group', () => {
  it('clears the columns chosen from a group when another group is chosen', () => {
    const roles = setRoleField(
      { adverseEvents: { visit: 'V1', form: 'ae', rows: 'rows', serious: 'serious' } },
      'adverseEvents',
      'rows',
      'other',
    );
    expect(roles).toEqual({ adverseEvents: { visit: 'V1', form: 'ae', rows: 'other' } });
  });
});
