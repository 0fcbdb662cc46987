import { z } from 'zod';
import { expressionSchema } from './expression.ts';
import { localizedTextSchema } from './localized-text.ts';
import {
  checkSchema,
  codeListSchema,
  formSchema,
  itemSchema,
  keySchema,
  outcomeSchema,
  sectionSchema,
  studyDefinitionSchema,
  visitSchema,
} from './study-definition.ts';

// The JSON Schema of a study-definition document, generated from the zod schemas (docs/STUDY-DEFINITION.md),
// so that editors and other tools can check a document without running our code. zod stays the authority:
// the cross-checks below are refinements, which JSON Schema cannot express and the generator leaves out.

/** What the JSON Schema cannot check; said in its description and in docs/STUDY-DEFINITION.md. */
export const NOT_IN_JSON_SCHEMA = [
  'keys unique where they must be (code lists, codes, forms, visits, sections, items of a layout, check and outcome ids)',
  'references resolve: forms of visits and of the unscheduled visit, anchor visits, visitDate, variant visits, code lists of choice items, notDoneItem checkboxes, expression refs and params, check items, outcome targets, subjectStatus references (visit.form.item)',
  'item rules: codeList only on choice items, ranges only on numbers and in the order hardMin ≤ min ≤ max ≤ hardMax, pattern a valid regular expression, no derived item in a repeating group',
  'expressions: the number of arguments of each operator, and bands only with the band operator',
] as const;

const DESCRIPTION =
  'A CDMS study definition: visits, forms, sections, items, expressions, edit checks, routing outcomes and ' +
  'subject status rules. Generated from the zod schemas of @cdms/study (packages/study/src/model); do not ' +
  'edit it by hand. A document valid against this schema may still be refused by CDMS, whose zod schema ' +
  `also checks: ${NOT_IN_JSON_SCHEMA.join('; ')}.`;

/** The JSON Schema (draft 2020-12) of a study-definition document. */
export function studyDefinitionJsonSchema(): Record<string, unknown> {
  // A registry of our own, not zod's global one: the names of the shared parts ($defs) are set here, and
  // the model's modules stay free of registration side effects.
  const names = z.registry<{ id?: string; title?: string; description?: string }>();
  names.add(studyDefinitionSchema, { title: 'CDMS study definition', description: DESCRIPTION });
  names.add(keySchema, { id: 'Key', description: 'Letters and digits, starting with a letter; no dots.' });
  names.add(localizedTextSchema, { id: 'LocalizedText', description: 'A text in Korean and English.' });
  names.add(expressionSchema, {
    id: 'Expression',
    description:
      'A literal, a reference { "ref": "item" | "form.item" | "visit.form.item" }, a parameter ' +
      '{ "param": name } or an operator node { "op", "args", "bands" } (packages/study/README.md "Expressions").',
  });
  names.add(codeListSchema, { id: 'CodeList' });
  names.add(visitSchema, { id: 'Visit' });
  names.add(formSchema, { id: 'Form' });
  names.add(sectionSchema, { id: 'Section' });
  names.add(itemSchema, { id: 'Item' });
  names.add(checkSchema, { id: 'Check' });
  names.add(outcomeSchema, { id: 'Outcome' });
  const { $schema, title, description, ...rest } = z.toJSONSchema(studyDefinitionSchema, {
    target: 'draft-2020-12',
    // The document as written (before any transform or default), which is what an author produces.
    io: 'input',
    metadata: names,
    // A type JSON Schema cannot describe is an error, never a silent "anything goes".
    unrepresentable: 'throw',
    // Expressions nest: the recursion goes through $defs/Expression.
    cycles: 'ref',
    reused: 'inline',
  });
  // What the document is comes first, for a reader opening the file.
  return { $schema, title, description, ...rest };
}
