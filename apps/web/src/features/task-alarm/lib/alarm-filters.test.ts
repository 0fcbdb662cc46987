import { describe, expect, it } from 'vitest';
import { alarmListParams, alarmQueryString } from './alarm-filters.ts';

describe('alarm filters in the URL', () => {
  it('reads site, state and size, ignoring values the server would refuse', () => {
    expect(alarmListParams.read(new URLSearchParams('site=3&state=overdue&size=50'))).toEqual({
      siteId: 3,
      state: 'overdue',
      size: 50,
    });
    expect(alarmListParams.read(new URLSearchParams('site=x&state=late&size=7'))).toEqual({
      siteId: null,
      state: null,
      size: 10,
    });
    expect(alarmListParams.read(new URLSearchParams('site=0')).siteId).toBeNull();
  });

  it('writes filters back, keeping other parameters, leaving defaults out and resetting the page', () => {
    const next = alarmListParams.write(new URLSearchParams('menu-type=CRA&page=4&state=due'), {
      siteId: 2,
      state: null,
      size: 10,
    });
    expect(next.toString()).toBe('menu-type=CRA&site=2');
  });

  it('builds the API query', () => {
    expect(alarmQueryString({ siteId: null, state: 'dueSoon', size: 50 }, 2)).toBe(
      'state=dueSoon&page=2&size=50',
    );
  });
});
