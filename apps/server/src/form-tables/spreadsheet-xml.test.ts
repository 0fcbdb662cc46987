import { expect, it } from 'vitest';
import { columnName, rowXml, sheetNames, spreadsheetText } from './spreadsheet-xml.ts';

it('names columns A… Z, AA… ZZ, AAA', () => {
  expect([0, 1, 25, 26, 27, 51, 52, 701, 702].map(columnName)).toEqual([
    'A',
    'B',
    'Z',
    'AA',
    'AB',
    'AZ',
    'BA',
    'ZZ',
    'AAA',
  ]);
});

it('keeps sheet names within 31 characters and unique whatever the case', () => {
  const long = 'treatmentInvestigation__treatments';
  expect(sheetNames(['codebook', 'Codebook', long, `${long}X`, 'a'])).toEqual([
    'codebook',
    'Codebook~2',
    'treatmentInvestigation__treatme',
    'treatmentInvestigation__treat~2',
    'a',
  ]);
  for (const name of sheetNames([long, long, long])) expect(name.length).toBeLessThanOrEqual(31);
});

it('escapes markup, control characters and carriage returns, and protects literal _xHHHH_', () => {
  expect(spreadsheetText('a<b>&"c"')).toBe('a&lt;b&gt;&amp;&quot;c&quot;');
  expect(spreadsheetText('bell\u0007\r\n\ttab')).toBe('bell_x0007__x000D_\n\ttab');
  expect(spreadsheetText('_x0041_')).toBe('_x005F_x0041_');
  expect(spreadsheetText('한글 그대로')).toBe('한글 그대로');
});

it('writes numbers as values, text as inline strings, and leaves empty cells out', () => {
  expect(rowXml(3, ['S01-001', null, 12.5], 1)).toBe(
    '<row r="3"><c r="A3" s="1" t="inlineStr"><is><t xml:space="preserve">S01-001</t></is></c><c r="C3" s="1"><v>12.5</v></c></row>',
  );
});
