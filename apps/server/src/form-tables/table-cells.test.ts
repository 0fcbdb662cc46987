import type { StudyDefinition } from '@cdms/study';
import { expect, it } from 'vitest';
import { CODEBOOK_HEADER, codebookHeader, codebookRows, MASKED_NOTE } from './codebook.ts';
import type { FormTableRow } from './load-form-table-pages.ts';
import { rowCells, valueCell } from './table-cells.ts';
import { formTablesOf, headerOf, storedKeysOf } from './table-layout.ts';

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

it('masks the personal-data items when asked: the column stays, blank, unread, and the codebook says so', () => {
  // The same form with its coded multiple choice and a group column flagged as personal data.
  const personal = JSON.parse(JSON.stringify(definition)) as StudyDefinition;
  const [main, list] = personal.forms[0]?.sections ?? [];
  if (!main?.items[0] || !list?.items[0]) throw new Error('no items');
  main.items[0].personalData = true;
  list.items[0].personalData = true;

  const unmasked = formTablesOf(personal);
  expect(unmasked.flatMap((table) => table.columns.filter((column) => column.masked))).toEqual([]);
  const [plain, rows] = formTablesOf(personal, undefined, true);
  if (!plain || !rows) throw new Error('no tables');
  expect(plain.columns.map((column) => [column.item.key, column.masked])).toEqual([
    ['colours', true],
    ['done', false],
    ['extra', false],
  ]);
  // A plain masked item's values are never read; a group's one stored key still is (its cells blanked).
  expect(storedKeysOf(plain)).toEqual(['done', 'extra']);
  expect(storedKeysOf(rows)).toEqual(['rows']);
  expect(headerOf(plain, true)).toContain('colours_label');
  const row: FormTableRow = {
    subject: 'S01-001',
    site: 'A',
    visit: 'v2',
    repeat: null,
    values: { colours: ['r'], done: true, extra: 'x' },
  };
  expect(rowCells(plain, row, 'en')).toEqual(['S01-001', 'A', 'v2', null, null, null, 'true', 'x']);
  expect(rowCells(rows, { ...row, repeat: 1, values: { answer: 'Y' } }, null)).toEqual([
    'S01-001',
    'A',
    'v2',
    1,
    null,
  ]);

  expect(codebookHeader(false)).toEqual(CODEBOOK_HEADER);
  expect(codebookHeader(true)).toEqual([...CODEBOOK_HEADER, 'masked']);
  expect(codebookRows([plain, rows], true).map((cells) => [cells[1], cells.at(-1)])).toEqual([
    ['colours', MASKED_NOTE],
    ['done', null],
    ['extra', null],
    ['answer', MASKED_NOTE],
  ]);
  expect(codebookRows([plain, rows]).every((cells) => cells.length === CODEBOOK_HEADER.length)).toBe(true);
});
