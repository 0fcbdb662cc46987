// The files of packages/study/definitions/ (docs/STUDY-DEFINITION.md), by name. Only names: this module
// imports nothing, so the server (which reads the files) and the browser bundle take it at no cost.

/** The command that rewrites the JSON Schema in packages/study/definitions/ from the zod model. */
export const WRITE_DEFINITION_DOCUMENTS = 'npm run documents -w @cdms/study';

/** TMP-2026's definition document: written as a document, its own source. */
export const TM_PERFORATION_DOCUMENT = 'tm-perforation.json';

/** HEAR-2027's definition document (issue 45 item 5): written as a document, its own source. */
export const HEAR_FOLLOW_UP_DOCUMENT = 'hear-followup.json';

/** The JSON Schema of study-definition documents. */
export const STUDY_DEFINITION_JSON_SCHEMA = 'study-definition.schema.json';
