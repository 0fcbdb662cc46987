import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { studyRolesSchema } from './study-definition.ts';
import { type StudyRoleField, studyRoleField, studyRoleFields } from './study-role-fields.ts';

/** The fields of an object schema (optional or not), or null for a value that is not an object. */
function shapeOf(schema: z.ZodType): Record<string, z.ZodType> | null {
  const inner = schema instanceof z.ZodOptional ? (schema.unwrap() as z.ZodType) : schema;
  return inner instanceof z.ZodObject ? (inner.shape as Record<string, z.ZodType>) : null;
}

function isList(schema: z.ZodType): boolean {
  const inner = schema instanceof z.ZodOptional ? (schema.unwrap() as z.ZodType) : schema;
  return inner instanceof z.ZodArray;
}

/** Where the table and the schema part ways, as "<path>: <what>" lines (none when they agree). */
function mismatches(
  shape: Record<string, z.ZodType>,
  table: { readonly [field: string]: StudyRoleField },
  path: string,
): string[] {
  const found: string[] = [];
  for (const name of Object.keys(table))
    if (!(name in shape)) found.push(`${path}.${name}: in the table, not in the schema`);
  for (const [name, schema] of Object.entries(shape)) {
    const entry = table[name];
    const where = `${path}.${name}`;
    if (!entry) {
      found.push(`${where}: no kind`);
      continue;
    }
    const nested = shapeOf(schema);
    if (nested) {
      if (entry.kind === 'part') found.push(...mismatches(nested, entry.fields, where));
      else found.push(`${where}: an object, not a part`);
    } else if (entry.kind === 'part') found.push(`${where}: a part, not an object`);
    else if (isList(schema) !== (entry.kind === 'items')) found.push(`${where}: a list is items, only`);
    else if (entry.kind === 'code') {
      const item = table[entry.item];
      if (item?.kind !== 'item' || item.types?.join() !== 'singleChoice')
        found.push(`${where}: its item ${entry.item} is not a singleChoice item field`);
    }
  }
  return found;
}

describe('the study role fields table', () => {
  it('gives every field of every role a kind, nested parts included, and nothing else', () => {
    const roles = studyRolesSchema.shape as Record<string, z.ZodType>;
    expect(Object.keys(studyRoleFields)).toEqual(Object.keys(roles));
    const table = studyRoleFields as unknown as Record<string, { readonly [field: string]: StudyRoleField }>;
    const found = Object.entries(roles).flatMap(([role, schema]) =>
      mismatches(shapeOf(schema) ?? {}, table[role] ?? {}, role),
    );
    expect(found).toEqual([]);
  });

  it('describes the audiogram’s treated ear as a part: its visit, form, singleChoice item and codes', () => {
    expect(studyRoleField('audiogram', 'treatedEar')).toEqual({
      kind: 'part',
      fields: {
        visit: { kind: 'visit' },
        form: { kind: 'form' },
        item: { kind: 'item', types: ['singleChoice'] },
        rightCode: { kind: 'code', item: 'item' },
        leftCode: { kind: 'code', item: 'item' },
      },
    });
    expect(studyRoleField('demographics', 'femaleCode')).toEqual({ kind: 'code', item: 'sex' });
    expect(studyRoleField('keyMeasures', 'items')).toEqual({ kind: 'items', types: ['integer', 'decimal'] });
    expect(studyRoleField('pregnancyTest', 'result')).toEqual({ kind: 'item', types: null });
    expect(studyRoleField('eligibility', 'inclusionSection')).toEqual({ kind: 'section' });
    expect(studyRoleField('adverseEvents', 'rows')).toEqual({ kind: 'rows' });
    expect(studyRoleField('labPanel', 'ghost')).toBeUndefined();
  });

  it('catches a schema field without a kind and a kind without a field', () => {
    const shape = { form: z.string(), part: z.strictObject({ item: z.string(), list: z.array(z.string()) }) };
    expect(
      mismatches(
        shape,
        {
          form: { kind: 'form' },
          extra: { kind: 'visit' },
          part: { kind: 'part', fields: { list: { kind: 'item', types: null } } },
        },
        'role',
      ),
    ).toEqual([
      'role.extra: in the table, not in the schema',
      'role.part.item: no kind',
      'role.part.list: a list is items, only',
    ]);
  });
});
