import { writeOdmMetadata } from './odm/write-odm-metadata.ts';
import { readRedcapDictionary } from './redcap/read-redcap-dictionary.ts';
import { writeDefinitionWorkbook } from './workbook/write-definition-workbook.ts';

/** The small hearing study of docs/examples as its REDCap dictionary reads (its sql field left out). */
export const EXAMPLE_STUDY = {
  studyKey: 'hearing',
  studyLabel: { ko: '청력 연구', en: 'Hearing study' },
  language: 'en',
} as const;

/**
 * The examples written from the REDCap dictionary of docs/examples: the same design as ODM 1.3.2
 * metadata and as a workbook. A fixed time stamp keeps the files the same from one run to the next.
 */
export function exampleFiles(dictionary: string, eventMapping: string): Record<string, string | Uint8Array> {
  const { definition } = readRedcapDictionary(dictionary, { ...EXAMPLE_STUDY, eventMapping });
  if (!definition) throw new Error('the example dictionary gives no definition');
  return {
    'odm-metadata.xml': writeOdmMetadata(definition, { creationDateTime: '2026-12-07T00:00:00+09:00' }),
    'workbook.xlsx': writeDefinitionWorkbook(definition),
  };
}
