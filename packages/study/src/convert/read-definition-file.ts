import type { LocalizedText } from '../model/localized-text.ts';
import type { StudyDefinition } from '../model/study-definition.ts';
import { readOdmMetadata } from './odm/read-odm-metadata.ts';
import { readRedcapDictionary } from './redcap/read-redcap-dictionary.ts';
import type { ImportProblem } from './redcap/redcap-dictionary.ts';
import { validateImportedDefinition } from './validate-imported-definition.ts';
import { readDefinitionWorkbook } from './workbook/read-definition-workbook.ts';

/** The design files a study can be imported from (issue 47). */
export type DefinitionFileFormat = 'redcapDictionary' | 'odmMetadata' | 'workbook' | 'definitionJson';

export interface DefinitionFile {
  format: DefinitionFileFormat;
  /** The file's text; a workbook, which is binary, as base64. */
  file: string;
  /** REDCap's instrument–event mapping CSV (REDCap dictionaries only). */
  eventMapping?: string | undefined;
}

export interface DefinitionFileOptions {
  /** The study's key and label, for a file that carries neither. */
  studyKey: string;
  studyLabel: LocalizedText;
  /** The language the file's labels are written in. */
  language: 'ko' | 'en';
}

export interface DefinitionFileRead {
  /** The definition, or null when an error leaves none that is sound. */
  definition: StudyDefinition | null;
  problems: ImportProblem[];
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** A workbook's base64 text as its bytes (`atob` runs in the browser and in Node alike). */
function bytesOfBase64(text: string): Uint8Array | null {
  const compact = text.replace(/\s+/g, '');
  if (compact.length % 4 !== 0 || !BASE64.test(compact)) return null;
  const binary = atob(compact);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/** A definition document (JSON) read as an import: every problem listed, with its place in the document. */
function readDefinitionJson(text: string): DefinitionFileRead {
  const problems: ImportProblem[] = [];
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    problems.push({
      severity: 'error',
      message: { en: `the file is not JSON: ${reason}`, ko: `JSON 파일이 아닙니다: ${reason}` },
    });
    return { definition: null, problems };
  }
  return { definition: validateImportedDefinition(document, problems), problems };
}

/**
 * One design file read into a study definition, whatever its format, with every problem by line
 * (or row) and column. Pure: the server reads with it, and the browser can preview the same way.
 */
export function readDefinitionFile(
  input: DefinitionFile,
  options: DefinitionFileOptions,
): DefinitionFileRead {
  switch (input.format) {
    case 'redcapDictionary':
      return readRedcapDictionary(input.file, { ...options, eventMapping: input.eventMapping });
    case 'odmMetadata':
      return readOdmMetadata(input.file, options);
    case 'workbook': {
      const bytes = bytesOfBase64(input.file);
      if (!bytes)
        return {
          definition: null,
          problems: [
            {
              severity: 'error',
              message: {
                en: 'the workbook did not arrive as base64 text',
                ko: '워크북 파일이 base64 텍스트로 오지 않았습니다',
              },
            },
          ],
        };
      return readDefinitionWorkbook(bytes, options);
    }
    case 'definitionJson':
      return readDefinitionJson(input.file);
  }
}
