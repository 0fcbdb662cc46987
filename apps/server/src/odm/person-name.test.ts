import { describe, expect, it } from 'vitest';
import { splitPersonName } from './person-name.ts';

describe('splitPersonName', () => {
  it('splits a Korean name after its family name, which comes first', () => {
    expect(splitPersonName('김연구')).toEqual({ family: '김', given: '연구' });
    expect(splitPersonName('이민')).toEqual({ family: '이', given: '민' });
    expect(splitPersonName('남궁민수')).toEqual({ family: '남궁', given: '민수' });
    expect(splitPersonName('황보람')).toEqual({ family: '황', given: '보람' });
    expect(splitPersonName('김 연구')).toEqual({ family: '김', given: '연구' });
  });

  it('reads any other name with spaces in Western order', () => {
    expect(splitPersonName('Jane Q. Doe')).toEqual({ given: 'Jane Q.', family: 'Doe' });
    expect(splitPersonName('  Ada   Lovelace ')).toEqual({ given: 'Ada', family: 'Lovelace' });
  });

  it('keeps a name it cannot split as the family name', () => {
    expect(splitPersonName('Admin')).toEqual({ given: '', family: 'Admin' });
    expect(splitPersonName('김')).toEqual({ given: '', family: '김' });
    expect(splitPersonName('')).toEqual({ given: '', family: '' });
  });
});
