import { describe, expect, it } from 'vitest';
import { withFallback } from './korean-with-english-fallback.ts';

describe('withFallback', () => {
  it('keeps the Korean text and takes only the keys Korean lacks from English, at every depth', () => {
    const korean = { title: '제목', nested: { a: '가', deeper: { x: '엑스' } } };
    const english = {
      title: 'Title',
      missing: 'Missing',
      nested: { a: 'A', b: 'B', deeper: { x: 'X', y: 'Y' } },
    };
    expect(withFallback(korean, english)).toEqual({
      title: '제목',
      missing: 'Missing',
      nested: { a: '가', b: 'B', deeper: { x: '엑스', y: 'Y' } },
    });
  });

  it('leaves a Korean value alone where English has an object, and the other way round', () => {
    expect(withFallback({ a: '가', b: { c: '다' } }, { a: { x: 'X' }, b: 'B' })).toEqual({
      a: '가',
      b: { c: '다' },
    });
  });
});
