import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXAMPLE_STUDY, exampleFiles } from './example-files.ts';
import { readOdmMetadata } from './odm/read-odm-metadata.ts';
import { readRedcapDictionary } from './redcap/read-redcap-dictionary.ts';
import { readDefinitionWorkbook } from './workbook/read-definition-workbook.ts';

// docs/examples holds one small study three ways (issue 47 item 9): its REDCap dictionary, and the
// ODM metadata and workbook written from it by `npm run examples -w @cdms/study`.
const folder = path.resolve(import.meta.dirname, '../../../../docs/examples');
const dictionary = fs.readFileSync(path.join(folder, 'redcap-dictionary.csv'), 'utf8');
const eventMapping = fs.readFileSync(path.join(folder, 'redcap-event-mapping.csv'), 'utf8');
const { definition } = readRedcapDictionary(dictionary, { ...EXAMPLE_STUDY, eventMapping });

describe('docs/examples', () => {
  it('holds the ODM metadata the converter writes today', () => {
    const written = exampleFiles(dictionary, eventMapping)['odm-metadata.xml'];
    expect(fs.readFileSync(path.join(folder, 'odm-metadata.xml'), 'utf8')).toBe(written);
  });

  it('holds ODM metadata and a workbook that each import as the dictionary does, without an error', () => {
    const fromOdm = readOdmMetadata(
      fs.readFileSync(path.join(folder, 'odm-metadata.xml'), 'utf8'),
      EXAMPLE_STUDY,
    );
    expect(fromOdm.problems.filter((problem) => problem.severity === 'error')).toEqual([]);
    expect(fromOdm.definition).toEqual(definition);
    const fromWorkbook = readDefinitionWorkbook(
      new Uint8Array(fs.readFileSync(path.join(folder, 'workbook.xlsx'))),
      EXAMPLE_STUDY,
    );
    expect(fromWorkbook.problems.filter((problem) => problem.severity === 'error')).toEqual([]);
    expect(fromWorkbook.definition).toEqual(definition);
  });
});
