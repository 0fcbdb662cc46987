import { type StudyDefinition, type StudyRoles, studyRolesSchema } from '@cdms/study';
import { z } from 'zod';

/**
 * The study roles (docs/STUDY-DEFINITION.md "Roles") as the designer edits them: each role's fields read
 * off the model's schema (so a role or field added there shows here), each field's kind from its name —
 * the visit or form the role reads, an item, section or repeating group of that form, its items, or a
 * code typed as text. A nested part the designer does not edit (the audiogram's treated ear) is kept.
 */
export type RoleName = keyof StudyRoles;
export type RoleFieldKind = 'visit' | 'form' | 'item' | 'items' | 'section' | 'rows' | 'code';
export interface RoleField {
  name: string;
  kind: RoleFieldKind;
  optional: boolean;
}

function fieldKind(name: string): RoleFieldKind {
  if (name === 'visit' || name === 'form' || name === 'items' || name === 'rows') return name;
  if (name.endsWith('Code')) return 'code';
  if (name.endsWith('Section')) return 'section';
  return 'item';
}

function objectShape(schema: z.ZodType): Record<string, z.ZodType> | null {
  const inner = schema instanceof z.ZodOptional ? (schema.unwrap() as z.ZodType) : schema;
  return inner instanceof z.ZodObject ? (inner.shape as Record<string, z.ZodType>) : null;
}

export const ROLE_NAMES = Object.keys(studyRolesSchema.shape) as RoleName[];

/** The fields of a role the designer edits, in the schema's order (nested parts left out). */
export function roleFields(role: RoleName): RoleField[] {
  const shape = objectShape(studyRolesSchema.shape[role] as z.ZodType) ?? {};
  return Object.entries(shape)
    .filter(([, field]) => objectShape(field) === null)
    .map(([name, field]) => ({ name, kind: fieldKind(name), optional: field instanceof z.ZodOptional }));
}

type RoleValue = Record<string, unknown>;

/** A role turned on (empty: its fields are chosen next, problems until they are) or off. */
export function setRoleOn(
  roles: StudyRoles | undefined,
  role: RoleName,
  on: boolean,
): StudyRoles | undefined {
  const current = { ...(roles ?? {}) } as Record<string, RoleValue>;
  if (on === (current[role] !== undefined)) return roles;
  if (on) current[role] = {};
  else delete current[role];
  return Object.keys(current).length === 0 ? undefined : (current as StudyRoles);
}

/**
 * A role's field set (a key, a code, or the items' keys), or removed (`undefined`, or an empty text or
 * list). Choosing another form clears the fields that named its items.
 */
export function setRoleField(
  roles: StudyRoles | undefined,
  role: RoleName,
  field: string,
  value: string | string[] | undefined,
): StudyRoles | undefined {
  const current = { ...(((roles ?? {}) as Record<string, RoleValue>)[role] ?? {}) };
  const empty = value === undefined || value.length === 0;
  if (field === 'form' && current.form !== value)
    for (const other of roleFields(role))
      if (['item', 'items', 'section', 'rows'].includes(other.kind)) delete current[other.name];
  if (empty) delete current[field];
  else current[field] = value;
  return { ...(roles ?? {}), [role]: current } as StudyRoles;
}

/** What a role's field may name: the study's visits or forms, or the chosen form's items, sections or groups. */
export function roleChoices(
  definition: StudyDefinition,
  formKey: string | undefined,
  kind: RoleFieldKind,
): { key: string; label: StudyDefinition['label'] }[] {
  if (kind === 'visit') return definition.visits.map(({ key, label }) => ({ key, label }));
  if (kind === 'form') return definition.forms.map(({ key, label }) => ({ key, label }));
  const form = definition.forms.find((candidate) => candidate.key === formKey);
  const sections = [
    ...(form?.sections ?? []),
    ...(form?.variants ?? []).flatMap((variant) => variant.sections),
  ];
  const seen = new Set<string>();
  const unique = (choices: { key: string; label: StudyDefinition['label'] }[]) =>
    choices.filter((choice) => !seen.has(choice.key) && seen.add(choice.key));
  if (kind === 'section') return unique(sections.map(({ key, label }) => ({ key, label })));
  if (kind === 'rows')
    return unique(
      sections.flatMap((section) =>
        section.repeating ? [{ key: section.repeating.key, label: section.label }] : [],
      ),
    );
  if (kind === 'item' || kind === 'items')
    return unique(sections.flatMap((section) => section.items.map(({ key, label }) => ({ key, label }))));
  return [];
}
