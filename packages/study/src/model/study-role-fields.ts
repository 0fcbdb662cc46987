import type { ItemType, StudyRoles } from './study-definition.ts';

/**
 * What each field of a study role names (docs/STUDY-DEFINITION.md "Roles"), in one place: the problem
 * checks of the roles (`findDefinitionProblems`) read the item types from here, and the designer's roles
 * editor offers each field's choices from it. TypeScript holds the table to the schema: a role or field
 * added to `studyRolesSchema` without its entry here does not compile.
 *
 * - `visit`, `form`: a visit or form of the study; `section`, `rows`: a section or repeating group of the
 *   role's form (in a role that names a `rows` group, its items are that group's columns)
 * - `item`, `items`: an item (or a list of items) of the role's form, of one of `types` (`null`: any type)
 * - `code`: a code of the code list of the singleChoice item named by the sibling field `item`
 * - `part`: a nested object with its own fields (its own visit and form), e.g. the audiogram's treated ear
 */
export type StudyRoleFieldKind = 'visit' | 'form' | 'section' | 'rows' | 'item' | 'items' | 'code' | 'part';

export type StudyRoleField =
  | { readonly kind: 'visit' | 'form' | 'section' | 'rows' }
  | { readonly kind: 'item' | 'items'; readonly types: readonly ItemType[] | null }
  | { readonly kind: 'code'; readonly item: string }
  | { readonly kind: 'part'; readonly fields: { readonly [field: string]: StudyRoleField } };

/** The entries of one role (or part) with fields `T`: each field's entry, by the field's value type. */
type RoleFieldTable<T> = { readonly [F in keyof T]-?: FieldEntry<NonNullable<T[F]>, T> };
type FieldEntry<V, T> = V extends string
  ?
      | { readonly kind: 'visit' | 'form' | 'section' | 'rows' }
      | { readonly kind: 'item'; readonly types: readonly ItemType[] | null }
      | { readonly kind: 'code'; readonly item: keyof T & string }
  : V extends readonly string[]
    ? { readonly kind: 'items'; readonly types: readonly ItemType[] | null }
    : { readonly kind: 'part'; readonly fields: RoleFieldTable<V> };

const visit = { kind: 'visit' } as const;
const form = { kind: 'form' } as const;
const item = <const T extends readonly ItemType[] | null>(types: T) => ({ kind: 'item', types }) as const;
const items = <const T extends readonly ItemType[]>(types: T) => ({ kind: 'items', types }) as const;
const code = <const F extends string>(itemField: F) => ({ kind: 'code', item: itemField }) as const;
const NUMBER = ['integer', 'decimal'] as const;
const CHOICE = ['singleChoice'] as const;

/** Every field of every study role and what it names; `studyRoleFields.<role>.<field>`. */
export const studyRoleFields = {
  registration: {
    visit,
    form,
    consentDate: item(['date']),
    initials: item(['text']),
    screeningNumber: item(['text']),
  },
  demographics: {
    visit,
    form,
    sex: item(CHOICE),
    femaleCode: code('sex'),
    maleCode: code('sex'),
    age: item(NUMBER),
  },
  randomization: {
    visit,
    form,
    eligible: item(['yesNo']),
    assignmentDate: item(['date']),
    number: item(['text']),
    group: item(CHOICE),
  },
  signing: { visit, form, signatureDate: item(['date']), signerName: item(['text']) },
  adverseEvents: {
    visit,
    form,
    rows: { kind: 'rows' },
    serious: item(['yesNo']),
    term: item(['text', 'textarea']),
    startDate: item(['date']),
    endDate: item(['date']),
    severity: item(CHOICE),
    causality: item(CHOICE),
    actionTaken: item(CHOICE),
    outcome: item(CHOICE),
  },
  medications: { visit, form, rows: { kind: 'rows' }, name: item(['text', 'textarea']) },
  endOfStudy: { visit, form, screeningFailureReason: item(CHOICE), dropoutReason: item(CHOICE) },
  eligibility: {
    form,
    decision: item(['yesNo']),
    inclusionSection: { kind: 'section' },
    exclusionSection: { kind: 'section' },
  },
  treatmentApplication: { visit, form, applied: item(['yesNo']), date: item(['date']) },
  pregnancyTest: { form, childbearingPotential: item(['yesNo']), result: item(null) },
  labPanel: { form, specimenDate: item(['date']) },
  audiogram: {
    form,
    treatedEar: {
      kind: 'part',
      fields: { visit, form, item: item(CHOICE), rightCode: code('item'), leftCode: code('item') },
    },
  },
  healing: { form, outcome: item(CHOICE) },
  keyMeasures: { form, items: items(NUMBER) },
  eventsOfInterest: { form, items: items(['yesNo']) },
} as const satisfies { readonly [R in keyof StudyRoles]-?: RoleFieldTable<NonNullable<StudyRoles[R]>> };

/** What a role's field names; `part` for a nested one, whose own fields are `fields`. */
export function studyRoleField(role: keyof StudyRoles, field: string): StudyRoleField | undefined {
  return (studyRoleFields[role] as { readonly [field: string]: StudyRoleField })[field];
}
