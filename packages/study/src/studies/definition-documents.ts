import { studyDefinitionJsonSchema } from '../model/study-definition-json-schema.ts';
import { STUDY_DEFINITION_JSON_SCHEMA, TM_PERFORATION_DOCUMENT } from './definition-document-files.ts';
import { tmPerforationStudy } from './tm-perforation/index.ts';

// The JSON documents kept in packages/study/definitions/ (docs/STUDY-DEFINITION.md): each study's
// definition as a document and the JSON Schema of such documents. The TypeScript builders stay the way
// TMP-2026 is written; the documents are what the server installs. Nothing here reads or writes a file:
// scripts/write-definition-documents.ts writes them, definition-documents.test.ts keeps them current.

/** A document as the repository keeps it: JSON indented by two spaces, keys as built, a final newline. */
export function documentText(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** The documents of packages/study/definitions/, by file name. */
export function definitionDocuments(): Record<string, unknown> {
  return {
    [TM_PERFORATION_DOCUMENT]: tmPerforationStudy,
    [STUDY_DEFINITION_JSON_SCHEMA]: studyDefinitionJsonSchema(),
  };
}
