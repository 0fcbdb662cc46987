import { describe, expect, it } from 'vitest';
import { DEFAULT_READINESS_FILTERS, readinessListParams, readinessQueryString } from './readiness-filters.ts';

describe('readiness board filters in the URL', () => {
  it('reads the defaults from an empty URL and drops values the API would refuse', () => {
    expect(readinessListParams.read(new URLSearchParams())).toEqual(DEFAULT_READINESS_FILTERS);
    expect(readinessListParams.read(new URLSearchParams('siteId=0&state=done&hold=open&size=20'))).toEqual(
      DEFAULT_READINESS_FILTERS,
    );
  });

  it('writes only what differs from the defaults, starts on page 1, keeps menu-type', () => {
    const filters = {
      ...DEFAULT_READINESS_FILTERS,
      siteId: 1,
      state: 'notReady' as const,
      hold: 'frozen' as const,
      sort: 'openQueries' as const,
      order: 'desc' as const,
    };
    const params = readinessListParams.write(new URLSearchParams('menu-type=CRA&page=4'), filters);
    expect(params.toString()).toBe(
      'menu-type=CRA&siteId=1&state=notReady&hold=frozen&sort=openQueries&order=desc',
    );
    expect(readinessListParams.read(params)).toEqual(filters);
  });

  it('asks the API for the page with every parameter named', () => {
    expect(readinessQueryString({ ...DEFAULT_READINESS_FILTERS, subject: 'S01', page: 2 })).toBe(
      'subject=S01&state=all&hold=all&sort=subjectId&order=asc&page=2&size=10',
    );
  });
});
