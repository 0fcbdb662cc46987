import fs from 'node:fs';
import path from 'node:path';
import type { DefinitionImportRequest } from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { confirmDefinitionImport } from '../study-design/confirm-definition-import.ts';
import { previewDefinitionImport } from '../study-design/preview-definition-import.ts';
import { personByEmail } from './demo-subjects.ts';

/** The designs the demo's data managers kept in REDCap: a data dictionary and its event mapping each. */
const REDCAP_FOLDER = path.join(import.meta.dirname, 'redcap');

/**
 * A demo study's design imported from REDCap as its data manager does it on the import page (issue
 * 47): the dictionary `<name>-dictionary.csv` and the instrument–event mapping
 * `<name>-event-mapping.csv` of seed/redcap/ previewed, then confirmed with the preview's content
 * hash. The study gets the imported design as its draft version, audited as an upload.
 */
export async function importDemoRedcapDesign(
  db: Kysely<Database>,
  input: { studyId: number; dataManager: string; name: string },
): Promise<void> {
  const request: DefinitionImportRequest = {
    format: 'redcapDictionary',
    file: fs.readFileSync(path.join(REDCAP_FOLDER, `${input.name}-dictionary.csv`), 'utf8'),
    eventMapping: fs.readFileSync(path.join(REDCAP_FOLDER, `${input.name}-event-mapping.csv`), 'utf8'),
    language: 'ko',
  };
  const preview = await previewDefinitionImport(db, input.studyId, request, 'ko');
  if (!preview.importable || !preview.contentHash)
    throw new Error(`The dictionary ${input.name} does not import: ${JSON.stringify(preview.problems)}`);
  const dataManager = await personByEmail(db, input.dataManager);
  await confirmDefinitionImport(db, dataManager.actor, input.studyId, {
    ...request,
    contentHash: preview.contentHash,
  });
}
