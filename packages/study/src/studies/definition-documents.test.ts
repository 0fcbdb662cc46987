import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import committedJsonSchema from '../../definitions/study-definition.schema.json';
import committedTmPerforation from '../../definitions/tm-perforation.json';
import { studyDefinitionSchema } from '../model/study-definition.ts';
import { studyDefinitionJsonSchema } from '../model/study-definition-json-schema.ts';
import { STUDY_DEFINITION_JSON_SCHEMA, WRITE_DEFINITION_DOCUMENTS } from './definition-document-files.ts';
import { documentText } from './definition-documents.ts';

// The committed documents of packages/study/definitions/: TMP-2026's, written by hand, against the model;
// the JSON Schema against the zod model it is generated from. JSON imports give the content with its key
// order; the layout (two-space JSON.stringify) is kept by biome, whose override for that folder formats
// JSON exactly so.

function staleMessage(file: string): string {
  return `packages/study/definitions/${file} differs from what the zod model produces: run ${WRITE_DEFINITION_DOCUMENTS}`;
}

/** A fresh copy of the committed TMP-2026 document, to break in a test. */
function tmPerforationCopy(): { forms: { sections: { items: Record<string, unknown>[] }[] }[] } {
  return JSON.parse(JSON.stringify(committedTmPerforation));
}

describe('TMP-2026 definition document', () => {
  it('parses with the zod schema, cross-checks included, to exactly what the file holds', () => {
    const parsed = studyDefinitionSchema.safeParse(committedTmPerforation);
    expect(parsed.error?.issues ?? []).toEqual([]);
    expect(parsed.data).toStrictEqual(committedTmPerforation);
  });
});

describe('JSON Schema of study definitions', () => {
  const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
  const validate = ajv.compile(committedJsonSchema);
  const errorsOf = (document: unknown) => (validate(document) ? [] : (validate.errors ?? []));

  it('is what zod generates from the model', () => {
    const same = documentText(committedJsonSchema) === documentText(studyDefinitionJsonSchema());
    expect(same, staleMessage(STUDY_DEFINITION_JSON_SCHEMA)).toBe(true);
  });

  it('is draft 2020-12 and says what it cannot check', () => {
    expect(committedJsonSchema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(committedJsonSchema.description).toContain('may still be refused');
  });

  it('accepts the TMP-2026 document', () => {
    expect(errorsOf(committedTmPerforation)).toEqual([]);
  });

  it('refuses a document without forms', () => {
    const { forms: _forms, ...withoutForms } = tmPerforationCopy();
    expect(errorsOf(withoutForms)).toContainEqual(
      expect.objectContaining({ keyword: 'required', params: { missingProperty: 'forms' } }),
    );
  });

  it('refuses an item of an unknown type', () => {
    const document = tmPerforationCopy();
    const item = document.forms[0]?.sections[0]?.items[0] as Record<string, unknown>;
    item.type = 'number';
    expect(errorsOf(document)).toContainEqual(
      expect.objectContaining({ instancePath: '/forms/0/sections/0/items/0/type', keyword: 'enum' }),
    );
  });

  it('refuses a property the model does not know and an operator it does not have', () => {
    const document = tmPerforationCopy();
    const item = document.forms[0]?.sections[0]?.items[0] as Record<string, unknown>;
    item.colour = 'red';
    item.showWhen = { op: 'between', args: [1, 2, 3] };
    const errors = errorsOf(document);
    expect(errors).toContainEqual(
      expect.objectContaining({ keyword: 'additionalProperties', params: { additionalProperty: 'colour' } }),
    );
    expect(errors).toContainEqual(
      expect.objectContaining({ instancePath: '/forms/0/sections/0/items/0/showWhen/op', keyword: 'enum' }),
    );
  });

  it('leaves the cross-checks to zod: an unknown reference passes it, not studyDefinitionSchema', () => {
    const document = tmPerforationCopy();
    const item = document.forms[0]?.sections[0]?.items[0] as Record<string, unknown>;
    item.showWhen = { op: 'eq', args: [{ ref: 'noSuchItem' }, 'Y'] };
    expect(errorsOf(document)).toEqual([]);
    const parsed = studyDefinitionSchema.safeParse(document);
    expect(parsed.error?.issues.map((issue) => issue.message)).toContainEqual(
      expect.stringContaining('unknown reference noSuchItem'),
    );
  });
});
