import { describe, expect, it } from 'vitest';
import { cumulative, reportListParams, reportQueryString } from './report-filters.ts';

describe('report filters in the URL', () => {
  it('reads the report and its filters, dropping what the server would refuse', () => {
    const filters = reportListParams.read(
      new URLSearchParams('report=protocolDeviations&siteId=7&deviation=outOfWindow&size=50&page=3'),
    );
    expect(filters).toEqual({
      report: 'protocolDeviations',
      siteId: 7,
      deviation: 'outOfWindow',
      serious: 'all',
      size: 50,
      page: 3,
    });
    expect(
      reportListParams.read(new URLSearchParams('report=nope&siteId=x&size=7&deviation=bad')),
    ).toMatchObject({
      report: 'enrollment',
      siteId: null,
      deviation: 'all',
      size: 20,
    });
  });

  it('writes only what differs from the defaults, keeps other parameters and goes back to page 1', () => {
    const current = new URLSearchParams('menu-type=CRA&page=4&deviation=outOfWindow');
    const next = reportListParams.write(current, {
      report: 'adverseEvents',
      siteId: null,
      deviation: 'outOfWindow',
      serious: 'serious',
      size: 20,
    });
    expect(next.toString()).toBe('menu-type=CRA&report=adverseEvents&serious=serious');
  });

  it('sends page and size for listings only, the format for a file', () => {
    const base = reportListParams.read(new URLSearchParams('report=adverseEvents&serious=serious&page=2'));
    expect(reportQueryString(base)).toBe('serious=serious&page=2&size=20');
    expect(reportQueryString(base, 'csv')).toBe('serious=serious&format=csv');
    expect(reportQueryString(reportListParams.read(new URLSearchParams('siteId=3')))).toBe('siteId=3');
  });

  it('adds monthly counts up', () => {
    expect(cumulative([2, 0, 3, 1])).toEqual([2, 2, 5, 6]);
    expect(cumulative([])).toEqual([]);
  });
});
