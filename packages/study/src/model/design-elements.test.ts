import { describe, expect, it } from 'vitest';
import { designElementsOf } from './design-elements.ts';

describe('designElementsOf', () => {
  it('names every element of a design by keys, in the order it reads', () => {
    const refs = designElementsOf({
      visits: [{ key: 'V1', label: { ko: '선별', en: 'Screening' } }],
      forms: [
        { key: 'DM', label: { ko: '인구학', en: 'Demographics' }, sections: [{ items: [{ key: 'AGE' }] }] },
      ],
      codeLists: [{ key: 'SEX' }],
    }).map((element) => element.ref);
    expect(refs).toEqual(['study', 'visit:V1', 'form:DM', 'form:DM/item:AGE', 'codeList:SEX']);
  });

  it('reads a draft with problems as far as it goes', () => {
    expect(designElementsOf(null).map((element) => element.ref)).toEqual(['study']);
    const refs = designElementsOf({
      visits: 'none',
      forms: [{ key: 7 }, { key: 'F', sections: [null, { items: 3 }] }],
    }).map((element) => element.ref);
    expect(refs).toEqual(['study', 'form:F']);
  });
});
