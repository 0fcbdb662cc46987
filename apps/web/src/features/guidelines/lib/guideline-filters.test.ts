import { describe, expect, it } from 'vitest';
import { guidelineListParams, guidelineListQueryString } from './guideline-filters.ts';

describe('guideline filters in the URL', () => {
  it('reads known values and drops unknown ones', () => {
    expect(
      guidelineListParams.read(
        new URLSearchParams('type=protocol&state=published&page=3&size=20&search=계획'),
      ),
    ).toEqual({
      type: 'protocol',
      state: 'published',
      search: '계획',
      page: 3,
      size: 20,
    });
    expect(guidelineListParams.read(new URLSearchParams('type=memo&state=gone&size=7'))).toMatchObject({
      type: '',
      state: '',
      size: 10,
    });
  });

  it('starts a new filter on page 1 and keeps other parameters', () => {
    const written = guidelineListParams.write(new URLSearchParams('menu-type=CRA&page=4&type=other'), {
      type: 'lab_manual',
      state: '',
      search: ' manual ',
      size: 10,
    });
    expect(written.toString()).toBe('menu-type=CRA&type=lab_manual&search=manual');
    expect(guidelineListQueryString(guidelineListParams.read(written))).toBe(
      'type=lab_manual&search=manual&page=1&size=10',
    );
  });
});
