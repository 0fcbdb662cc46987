import type { CodeList, StudyDefinition } from '@cdms/study';
import { describe, expect, it } from 'vitest';
import {
  addCode,
  addCodeList,
  itemsUsingCodeList,
  moveCode,
  newCodeList,
  removeCode,
  removeCodeList,
  updateCode,
} from './code-list-edits.ts';

const lists: CodeList[] = [
  {
    key: 'sex',
    codes: [
      { code: 'M', label: { ko: '남', en: 'Male' } },
      { code: 'F', label: { ko: '여', en: 'Female' } },
    ],
  },
];

describe('the code list edits', () => {
  it('add a list with one code to name, and codes numbered past the ones taken', () => {
    const added = addCodeList(lists, newCodeList('result'));
    expect(added[1]).toEqual({ key: 'result', codes: [{ code: '1', label: { ko: '', en: '' } }] });
    const more = addCode(addCode(added, 1), 1);
    expect(more[1]?.codes.map((code) => code.code)).toEqual(['1', '2', '3']);
    expect(addCode(lists, 0)[0]?.codes.map((code) => code.code)).toEqual(['M', 'F', '3']);
  });

  it('change, move and remove codes, keeping one at least', () => {
    const changed = updateCode(lists, 0, 1, { code: 'W', label: { ko: '여', en: 'Woman' } });
    expect(changed[0]?.codes[1]).toEqual({ code: 'W', label: { ko: '여', en: 'Woman' } });
    expect(moveCode(lists, 0, 1, -1)[0]?.codes.map((code) => code.code)).toEqual(['F', 'M']);
    expect(moveCode(lists, 0, 0, -1)).toBe(lists);
    const one = removeCode(lists, 0, 0);
    expect(one[0]?.codes.map((code) => code.code)).toEqual(['F']);
    expect(removeCode(one, 0, 0)).toBe(one);
    expect(removeCodeList(lists, 0)).toEqual([]);
    expect(removeCodeList(lists, 3)).toBe(lists);
  });

  it('find the items that choose from a list, in variants too', () => {
    const definition = {
      forms: [
        {
          key: 'demo',
          sections: [{ key: 's', items: [{ key: 'sex', type: 'singleChoice', codeList: 'sex' }] }],
          variants: [
            {
              visits: ['V2'],
              sections: [{ key: 't', items: [{ key: 'sexAgain', type: 'singleChoice', codeList: 'sex' }] }],
            },
          ],
        },
      ],
    } as unknown as StudyDefinition;
    expect(itemsUsingCodeList(definition, 'sex')).toEqual(['demo.sex', 'demo.sexAgain']);
    expect(itemsUsingCodeList(definition, 'other')).toEqual([]);
  });
});
