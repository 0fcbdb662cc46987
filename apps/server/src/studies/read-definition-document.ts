import fs from 'node:fs';
import { createRequire } from 'node:module';
import { type StudyDefinition, studyDefinitionSchema } from '@cdms/study';

// A study's design is a JSON document (docs/STUDY-DEFINITION.md). The demo seed installs TMP-2026 from
// its document in packages/study/definitions/ with this; an upload of a document (issue 45) is to go
// through the same check.

const require = createRequire(import.meta.url);

/**
 * The path of a document in packages/study/definitions/ (`TM_PERFORATION_DOCUMENT`), resolved through the
 * package's exports, so it is found from the sources and in an installed node_modules alike.
 */
export function definitionDocumentPath(fileName: string): string {
  return require.resolve(`@cdms/study/definitions/${fileName}`);
}

export class DefinitionDocumentError extends Error {
  /** Every problem found, each with its place in the document where it has one. */
  readonly problems: string[];

  constructor(source: string, problems: string[]) {
    super(
      `${source} is not a valid study definition:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`,
    );
    this.problems = problems;
    this.name = 'DefinitionDocumentError';
  }
}

/**
 * A study definition from a document's text, checked by the zod schema the engine and the browser use
 * (cross-references included). Throws a `DefinitionDocumentError` listing every problem, never a part.
 */
export function parseDefinitionDocument(text: string, source: string): StudyDefinition {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new DefinitionDocumentError(source, [`not JSON: ${(error as Error).message}`]);
  }
  const parsed = studyDefinitionSchema.safeParse(document);
  if (parsed.success) return parsed.data;
  throw new DefinitionDocumentError(
    source,
    // The cross-checks report at the document's root and name the place in their message.
    parsed.error.issues.map((issue) =>
      issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message,
    ),
  );
}

/** A JSON file of packages/study/definitions/ as it is (the JSON Schema the server serves). */
export function readJsonFile(file: string): unknown {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

/** Reads a study-definition document from a file (see `parseDefinitionDocument`). */
export function readDefinitionDocument(file: string): StudyDefinition {
  return parseDefinitionDocument(fs.readFileSync(file, 'utf8'), file);
}
