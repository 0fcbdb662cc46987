import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TM_PERFORATION_DOCUMENT, tmPerforationStudy } from '@cdms/study';
import { afterAll, describe, expect, it } from 'vitest';
import {
  DefinitionDocumentError,
  definitionDocumentPath,
  parseDefinitionDocument,
  readDefinitionDocument,
} from './read-definition-document.ts';

const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'cdms-definition-'));
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

describe('readDefinitionDocument', () => {
  it('installs TMP-2026 from its document as the study package reads it', () => {
    const file = definitionDocumentPath(TM_PERFORATION_DOCUMENT);
    expect(file).toBe(
      path.resolve(import.meta.dirname, '../../../../packages/study/definitions/tm-perforation.json'),
    );
    expect(readDefinitionDocument(file)).toStrictEqual(tmPerforationStudy);
  });

  it('lists every problem of an invalid document, with its place', () => {
    const broken = JSON.parse(JSON.stringify(tmPerforationStudy));
    broken.version = 'one';
    broken.forms[0].sections[0].items[0].type = 'number';
    broken.visits[0].forms.push('noSuchForm');
    const file = path.join(folder, 'broken.json');
    fs.writeFileSync(file, JSON.stringify(broken));
    let thrown: unknown;
    try {
      readDefinitionDocument(file);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(DefinitionDocumentError);
    const { problems, message } = thrown as DefinitionDocumentError;
    expect(problems).toEqual([
      expect.stringMatching(/^version: /),
      expect.stringMatching(/^forms\.0\.sections\.0\.items\.0\.type: /),
    ]);
    expect(message).toContain(file);
  });

  it('reports the cross-checks zod runs once the shapes are right', () => {
    const broken = JSON.parse(JSON.stringify(tmPerforationStudy));
    broken.visits[0].forms.push('noSuchForm');
    expect(() => parseDefinitionDocument(JSON.stringify(broken), 'upload')).toThrow(
      /upload is not a valid study definition:\n {2}- visit consentScreening: unknown form noSuchForm/,
    );
  });

  it('refuses text that is not JSON', () => {
    expect(() => parseDefinitionDocument('{ "key": ', 'upload')).toThrow(/upload .*\n {2}- not JSON: /);
  });
});
