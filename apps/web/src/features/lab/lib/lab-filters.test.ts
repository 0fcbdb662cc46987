import { describe, expect, it } from 'vitest';
import {
  DEFAULT_LAB_FILTERS,
  labListParams,
  labResultsDownloadQueryString,
  labResultsQueryString,
} from './lab-filters.ts';

describe('lab listing filters in the URL', () => {
  it('reads back what it writes, keeping other parameters', () => {
    const filters = {
      siteId: 3,
      subject: 'S01',
      testKey: 'wbc',
      flag: 'H' as const,
      page: 2,
      size: 50 as const,
    };
    const params = labListParams.write(new URLSearchParams('menu-type=CRA'), filters);
    expect(params.get('menu-type')).toBe('CRA');
    expect(labListParams.read(params)).toEqual(filters);
  });

  it('drops what the server would refuse and leaves defaults out', () => {
    expect(labListParams.read(new URLSearchParams('flag=X&size=7&siteId=0x1&page=-1'))).toEqual(
      DEFAULT_LAB_FILTERS,
    );
    expect(labListParams.write(new URLSearchParams(), DEFAULT_LAB_FILTERS).toString()).toBe('');
    expect(labResultsQueryString(DEFAULT_LAB_FILTERS)).toBe('flag=all&page=1&size=10');
  });

  it('downloads with the filters, without the paging', () => {
    expect(
      labResultsDownloadQueryString({ ...DEFAULT_LAB_FILTERS, siteId: 3, testKey: 'wbc', page: 4 }, 'xlsx'),
    ).toBe('flag=all&siteId=3&testKey=wbc&format=xlsx');
  });
});
