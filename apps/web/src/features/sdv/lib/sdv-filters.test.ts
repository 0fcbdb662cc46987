import { describe, expect, it } from 'vitest';
import { DEFAULT_SDV_FILTERS, sdvListParams, sdvSubjectsQueryString } from './sdv-filters.ts';

describe('SDV page filters in the URL', () => {
  it('reads the defaults from an empty URL and drops values the API would refuse', () => {
    expect(sdvListParams.read(new URLSearchParams())).toEqual(DEFAULT_SDV_FILTERS);
    expect(
      sdvListParams.read(new URLSearchParams('siteId=01&state=done&sort=name&size=7&open=-3&page=x')),
    ).toEqual(DEFAULT_SDV_FILTERS);
  });

  it('writes only what differs from the defaults, keeps menu-type, and reads back the same', () => {
    const filters = {
      ...DEFAULT_SDV_FILTERS,
      siteId: 2,
      subject: ' S02 ',
      state: 'changed' as const,
      sort: 'percent' as const,
      order: 'desc' as const,
      size: 50 as const,
      page: 3,
      open: 14,
    };
    const params = sdvListParams.write(new URLSearchParams('menu-type=CRA&page=9'), filters);
    expect(params.toString()).toBe(
      'menu-type=CRA&siteId=2&subject=S02&state=changed&sort=percent&order=desc&size=50&page=3&open=14',
    );
    expect(sdvListParams.read(params)).toEqual({ ...filters, subject: 'S02' });
  });

  it('asks the API for the page with every parameter named', () => {
    expect(sdvSubjectsQueryString({ ...DEFAULT_SDV_FILTERS, siteId: 1, subject: 'S01' })).toBe(
      'siteId=1&subject=S01&state=all&sort=subjectId&order=asc&page=1&size=10',
    );
  });
});
