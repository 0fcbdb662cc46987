import { studyDefinitionJsonSchema } from '../model/study-definition-json-schema.ts';
import { STUDY_DEFINITION_JSON_SCHEMA } from './definition-document-files.ts';

// What the generator writes into packages/study/definitions/ (docs/STUDY-DEFINITION.md): the JSON Schema
// of study-definition documents, made from the zod model. The study definitions beside it are written by
// hand, each its own source. Nothing here reads or writes a file: scripts/write-definition-documents.ts
// writes them, definition-documents.test.ts keeps them current.

/** A document as the repository keeps it: JSON indented by two spaces, keys as built, a final newline. */
export function documentText(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** The generated documents of packages/study/definitions/, by file name. */
export function definitionDocuments(): Record<string, unknown> {
  return { [STUDY_DEFINITION_JSON_SCHEMA]: studyDefinitionJsonSchema() };
}
