import type { StudyDefinition } from '@cdms/study';
import { expect, it } from 'vitest';
import type { FormTableRow } from './load-form-table-pages.ts';
import { rowCells, valueCell } from './table-cells.ts';
import { formTablesOf, headerOf } from './table-layout.ts';

const t = (ko: string, en: string) => ({ ko, en });

// A form mixing plain items, a multiple choice and a repeating group, with a visit variant that
// adds an item: the tables take the union of the layouts.
const definition = {
  key: 'demo',
  label: t('데모', 'Demo'),
  visits: [],
  codeLists: [
    {
      key: 'colour',
      codes: [
        { code: 'r', label: t('빨강', 'Red') },
        { code: 'g', label: t('초록', 'Green') },
      ],
    },
  ],
  forms: [
    {
      key: 'mixed',
      label: t('혼합', 'Mixed'),
      sections: [
        {
          key: 'main',
          label: t('주', 'Main'),
          items: [
            { key: 'colours', type: 'multipleChoice', label: t('색', 'Colours'), codeList: 'colour' },
            { key: 'done', type: 'checkbox', label: t('완료', 'Done') },
          ],
        },
        {
          key: 'list',
          label: t('목록', 'List'),
          repeating: { key: 'rows' },
          items: [{ key: 'answer', type: 'yesNo', label: t('답', 'Answer') }],
        },
      ],
      variants: [
        {
          visits: ['v2'],
          sections: [
            {
              key: 'main',
              label: t('주', 'Main'),
              items: [
                { key: 'colours', type: 'multipleChoice', label: t('색', 'Colours'), codeList: 'colour' },
                { key: 'extra', type: 'text', label: t('추가', 'Extra') },
              ],
            },
          ],
        },
      ],
    },
  ],
} as unknown as StudyDefinition;

it('gives a form its plain table and a table per repeating group, over every layout', () => {
  const tables = formTablesOf(definition);
  expect(tables.map((table) => [table.name, table.groupKey])).toEqual([
    ['mixed', null],
    ['mixed__rows', 'rows'],
  ]);
  expect(headerOf(tables[0] as (typeof tables)[0], true)).toEqual([
    'subject',
    'site',
    'visit',
    'repeat',
    'colours',
    'colours_label',
    'done',
    'extra',
  ]);
  expect(formTablesOf(definition, ['other'])).toEqual([]);
});

it('writes codes as stored, several joined by ";", with their labels when asked', () => {
  const [plain] = formTablesOf(definition);
  if (!plain) throw new Error('no table');
  const row: FormTableRow = {
    subject: 'S01-001',
    site: 'A',
    visit: 'v2',
    repeat: null,
    values: { colours: ['r', 'g'], done: true, extra: '' },
  };
  expect(rowCells(plain, row, 'ko')).toEqual(['S01-001', 'A', 'v2', null, 'r;g', '빨강; 초록', 'true', null]);
  expect(rowCells(plain, row, null)).toEqual(['S01-001', 'A', 'v2', null, 'r;g', 'true', null]);
  expect(rowCells(plain, { ...row, values: { colours: [] } }, 'en')).toEqual([
    'S01-001',
    'A',
    'v2',
    null,
    null,
    null,
    null,
    null,
  ]);
});

it('turns stored values into cells without losing numbers', () => {
  expect([0, -1.5, 'x', false, null, undefined, '', ['a']].map(valueCell)).toEqual([
    0,
    -1.5,
    'x',
    'false',
    null,
    null,
    null,
    'a',
  ]);
});
