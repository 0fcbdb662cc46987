import { describe, expect, it } from 'vitest';
import {
  type AlarmLogFilters,
  alarmLogDownloadQueryString,
  alarmLogListParams,
  alarmLogQueryString,
  DEFAULT_ALARM_LOG_FILTERS,
} from './alarm-log-filters.ts';

describe('alarm log filters in the URL', () => {
  const filters: AlarmLogFilters = {
    eventType: 'task_notice',
    channel: 'sms',
    status: 'failed',
    siteId: 2,
    from: '2026-11-01',
    to: '2026-11-30',
    recipient: '박코디',
    page: 3,
    size: 50,
  };

  it('reads back what it writes, keeping other parameters', () => {
    const params = alarmLogListParams.write(new URLSearchParams('menu-type=CRA'), filters);
    expect(params.get('menu-type')).toBe('CRA');
    expect(alarmLogListParams.read(params)).toEqual(filters);
  });

  it('drops what the server would refuse and leaves defaults out', () => {
    expect(
      alarmLogListParams.read(
        new URLSearchParams(
          'eventType=x&channel=fax&status=delivered&siteId=0&from=2026-02-30&size=7&page=-1',
        ),
      ),
    ).toEqual(DEFAULT_ALARM_LOG_FILTERS);
    expect(alarmLogListParams.read(new URLSearchParams('from=2026-11-02&to=2026-11-01'))).toMatchObject({
      from: '2026-11-02',
      to: '',
    });
    expect(alarmLogListParams.write(new URLSearchParams(), DEFAULT_ALARM_LOG_FILTERS).toString()).toBe('');
  });

  it('asks the API with the filters, and downloads without paging', () => {
    expect(alarmLogQueryString(DEFAULT_ALARM_LOG_FILTERS)).toBe('page=1&size=20');
    const download = new URLSearchParams(alarmLogDownloadQueryString(filters, 'xlsx'));
    expect(download.get('format')).toBe('xlsx');
    expect(download.get('page')).toBeNull();
    expect(download.get('recipient')).toBe('박코디');
    expect(download.get('siteId')).toBe('2');
  });
});
