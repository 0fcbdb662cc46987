import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type StudyDefinition, studyDefinitionSchema } from '../../model/study-definition.ts';
import { readDefinitionWorkbook } from './read-definition-workbook.ts';
import { writeDefinitionWorkbook } from './write-definition-workbook.ts';

const options = {
  studyKey: 'IMPORTED',
  studyLabel: { ko: '가져온 시험', en: 'Imported study' },
  language: 'en' as const,
};

function demo(name: string): StudyDefinition {
  const url = new URL(`../../../definitions/${name}`, import.meta.url);
  return studyDefinitionSchema.parse(JSON.parse(readFileSync(url, 'utf8')));
}

describe('study definition workbook', () => {
  for (const name of ['tm-perforation.json', 'hear-followup.json']) {
    it(`round-trips ${name} exactly`, () => {
      const definition = demo(name);
      const result = readDefinitionWorkbook(writeDefinitionWorkbook(definition), options);
      expect(result.problems).toEqual([]);
      expect(result.definition).toEqual(definition);
    });
  }
});
