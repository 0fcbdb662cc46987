import {
  type ItemType,
  type StudyDefinition,
  type StudyRoleField,
  type StudyRoleFieldKind,
  type StudyRoles,
  studyRoleField,
  studyRolesSchema,
} from '@cdms/study';
import { z } from 'zod';

/**
 * The study roles (docs/STUDY-DEFINITION.md "Roles") as the designer edits them: each role's fields, in
 * order and optional or not, read off the model's schema (so a role or field added there shows here), and
 * what each names from the model's own table (`studyRoleFields`, which the problem checks read too): the
 * visit or form the role reads, an item (of the types read), section or repeating group of that form, its
 * items, a code of a chosen item's list, or a nested part with fields of its own (the audiogram's treated
 * ear: its own visit, form, item and codes).
 */
export type RoleName = keyof StudyRoles;
export type RoleFieldKind = StudyRoleFieldKind;
export interface RoleField {
  name: string;
  kind: RoleFieldKind;
  optional: boolean;
  /** An item or items: the item types the role reads (`null`: any). */
  types?: readonly ItemType[] | null;
  /** A code: the field (beside it) naming the item whose code list holds it. */
  item?: string;
  /** A part: its own fields. */
  fields?: RoleField[];
}

export type RoleChoice = { key: string; label: StudyDefinition['label'] };

function objectShape(schema: z.ZodType): Record<string, z.ZodType> | null {
  const inner = schema instanceof z.ZodOptional ? (schema.unwrap() as z.ZodType) : schema;
  return inner instanceof z.ZodObject ? (inner.shape as Record<string, z.ZodType>) : null;
}

function fieldsOf(
  shape: Record<string, z.ZodType>,
  kindOf: (name: string) => StudyRoleField | undefined,
): RoleField[] {
  return Object.entries(shape).flatMap(([name, schema]): RoleField[] => {
    const entry = kindOf(name);
    if (!entry) return [];
    const field: RoleField = { name, kind: entry.kind, optional: schema instanceof z.ZodOptional };
    if (entry.kind === 'item' || entry.kind === 'items') field.types = entry.types;
    if (entry.kind === 'code') field.item = entry.item;
    if (entry.kind === 'part')
      field.fields = fieldsOf(objectShape(schema) ?? {}, (nested) => entry.fields[nested]);
    return [field];
  });
}

export const ROLE_NAMES = Object.keys(studyRolesSchema.shape) as RoleName[];

/** The fields of a role the designer edits, in the schema's order; a part with its own fields. */
export function roleFields(role: RoleName): RoleField[] {
  return fieldsOf(objectShape(studyRolesSchema.shape[role] as z.ZodType) ?? {}, (name) =>
    studyRoleField(role, name),
  );
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

/** A role's nested part (the audiogram's treated ear) turned on (empty, its fields chosen next) or off. */
export function setRolePartOn(
  roles: StudyRoles | undefined,
  role: RoleName,
  part: string,
  on: boolean,
): StudyRoles | undefined {
  const current = { ...(((roles ?? {}) as Record<string, RoleValue>)[role] ?? {}) };
  if (on === (current[part] !== undefined)) return roles;
  if (on) current[part] = {};
  else delete current[part];
  return { ...(roles ?? {}), [role]: current } as StudyRoles;
}

/**
 * One field of an object (a role or a part) set, or removed when `value` is empty. What named the old
 * choice's insides goes with it: another form clears the fields naming its items, sections and groups,
 * and another item clears the codes of its list.
 */
function withField(
  object: RoleValue,
  fields: RoleField[],
  field: string,
  value: string | string[] | undefined,
): RoleValue {
  const next = { ...object };
  const kind = fields.find((entry) => entry.name === field)?.kind;
  const changed = object[field] !== value;
  const cleared = new Set<string>();
  if (kind === 'form' && changed)
    for (const other of fields)
      if (['item', 'items', 'section', 'rows'].includes(other.kind)) cleared.add(other.name);
  // Another repeating group: the columns chosen from the last one go.
  if (kind === 'rows' && changed)
    for (const other of fields) if (other.kind === 'item' || other.kind === 'items') cleared.add(other.name);
  if (kind === 'item' && changed) cleared.add(field);
  for (const other of fields)
    if (other.kind === 'code' && other.item !== undefined && cleared.has(other.item)) delete next[other.name];
  for (const name of cleared) delete next[name];
  if (value === undefined || value.length === 0) delete next[field];
  else next[field] = value;
  return next;
}

/**
 * A role's field set (a key, a code, or the items' keys), or removed (`undefined`, or an empty text or
 * list); with `part`, a field of that nested part. Choosing another form clears the fields that named its
 * items, another repeating group its columns; choosing another item clears its codes.
 */
export function setRoleField(
  roles: StudyRoles | undefined,
  role: RoleName,
  field: string,
  value: string | string[] | undefined,
  part?: string,
): StudyRoles | undefined {
  const current = { ...(((roles ?? {}) as Record<string, RoleValue>)[role] ?? {}) };
  const fields = roleFields(role);
  const next =
    part === undefined
      ? withField(current, fields, field, value)
      : {
          ...current,
          [part]: withField(
            (current[part] ?? {}) as RoleValue,
            fields.find((entry) => entry.name === part)?.fields ?? [],
            field,
            value,
          ),
        };
  return { ...(roles ?? {}), [role]: next } as StudyRoles;
}

/**
 * What a field of a role (or of its part, `value` being the part's) may name: the study's visits or forms;
 * the chosen form's sections, groups or items (within the chosen group, when the role has one), of the
 * types the role reads; the codes of the chosen item's
 * list. None for a code whose item has no list (it is typed instead).
 */
export function roleChoices(definition: StudyDefinition, value: RoleValue, field: RoleField): RoleChoice[] {
  if (field.kind === 'visit') return definition.visits.map(({ key, label }) => ({ key, label }));
  if (field.kind === 'form') return definition.forms.map(({ key, label }) => ({ key, label }));
  const form = definition.forms.find((candidate) => candidate.key === value.form);
  const sections = [
    ...(form?.sections ?? []),
    ...(form?.variants ?? []).flatMap((variant) => variant.sections),
  ];
  const seen = new Set<string>();
  const unique = (choices: RoleChoice[]) =>
    choices.filter((choice) => !seen.has(choice.key) && seen.add(choice.key));
  // A role with a repeating group (the adverse events') reads its items as the group's columns.
  const rows = typeof value.rows === 'string' ? value.rows : undefined;
  const items = sections
    .filter((section) => rows === undefined || section.repeating?.key === rows)
    .flatMap((section) => section.items);
  if (field.kind === 'section') return unique(sections.map(({ key, label }) => ({ key, label })));
  if (field.kind === 'rows')
    return unique(
      sections.flatMap((section) =>
        section.repeating ? [{ key: section.repeating.key, label: section.label }] : [],
      ),
    );
  if (field.kind === 'item' || field.kind === 'items') {
    const types = field.types ?? null;
    return unique(
      items
        .filter((item) => types === null || types.includes(item.type))
        .map(({ key, label }) => ({ key, label })),
    );
  }
  if (field.kind === 'code' && field.item !== undefined) {
    const item = items.find((candidate) => candidate.key === value[field.item as string]);
    const list = definition.codeLists.find((candidate) => candidate.key === item?.codeList);
    return unique((list?.codes ?? []).map(({ code, label }) => ({ key: code, label })));
  }
  return [];
}
