import { describe, expect, it } from 'vitest';
import { panelFieldsOf } from '../../../lib/list-state.ts';
import {
  DEFAULT_QUERY_FILTERS,
  EMPTY_QUERY_FILTER_FIELDS,
  queryListParams,
  queryListQueryString,
} from './query-list-filters.ts';

const read = (search: string) => queryListParams.read(new URLSearchParams(search));

describe('query list filters in the URL', () => {
  it('means the defaults without parameters: unresolved, oldest first, 10 a page', () => {
    expect(read('')).toEqual(DEFAULT_QUERY_FILTERS);
    expect(DEFAULT_QUERY_FILTERS).toMatchObject({
      state: 'unresolved',
      sort: 'age',
      order: 'desc',
      size: 10,
    });
  });

  it('reads the links of the subject-info popup and the dashboard', () => {
    expect(read('state=open').state).toBe('open');
    expect(read('state=answered&kind=system')).toMatchObject({ state: 'answered', kind: 'system' });
  });

  it('reads every filter, sort, page and size', () => {
    expect(
      read(
        'state=all&kind=manual&siteId=2&subject=S01&visitKey=v1&formKey=vitalSigns&itemPath=v1.vitalSigns.heartRate' +
          '&assignee=monitor&age=15-30&text=unit&sort=openedAt&order=asc&page=3&size=50',
      ),
    ).toEqual({
      state: 'all',
      kind: 'manual',
      siteId: 2,
      subject: 'S01',
      visitKey: 'v1',
      formKey: 'vitalSigns',
      itemPath: 'v1.vitalSigns.heartRate',
      assignee: 'monitor',
      age: '15-30',
      text: 'unit',
      sort: 'openedAt',
      order: 'asc',
      page: 3,
      size: 50,
    });
  });

  it('drops what the server would refuse instead of sending it', () => {
    expect(
      read('state=gone&kind=x&siteId=0&assignee=me&age=90&sort=secret&order=up&page=-1&size=25'),
    ).toEqual(DEFAULT_QUERY_FILTERS);
    expect(read('siteId=99999999999').siteId).toBeNull();
    expect(read(`subject=${'a'.repeat(150)}`).subject).toHaveLength(100);
    // A form without its visit, an item of another form: dropped.
    expect(read('formKey=vitalSigns')).toMatchObject({ visitKey: '', formKey: '' });
    expect(read('visitKey=v1&formKey=vitalSigns&itemPath=v2.labs.x').itemPath).toBe('');
    expect(read('visitKey=v1;drop').visitKey).toBe('');
    // An unscheduled visit's key (issue 19) is a key like any other.
    expect(read('visitKey=unscheduled-2&formKey=vitalSigns')).toMatchObject({
      visitKey: 'unscheduled-2',
      formKey: 'vitalSigns',
    });
  });

  it('writes only what differs from the defaults, keeps other parameters, and starts on page 1', () => {
    const current = new URLSearchParams('menu-type=CRA&page=4&state=open');
    const next = queryListParams.write(current, { ...DEFAULT_QUERY_FILTERS, kind: 'system', size: 100 });
    expect(next.toString()).toBe('menu-type=CRA&kind=system&size=100');
  });

  it('round-trips every filter through the URL', () => {
    const filters = {
      ...DEFAULT_QUERY_FILTERS,
      state: 'closed' as const,
      siteId: 7,
      subject: 'KJ',
      visitKey: 'v1',
      formKey: 'vitalSigns',
      itemPath: 'v1.vitalSigns.heartRate',
      age: '31+' as const,
      text: '단위',
      sort: 'subjectId' as const,
      order: 'asc' as const,
      size: 50 as const,
    };
    expect(queryListParams.read(queryListParams.write(new URLSearchParams(), filters))).toEqual(filters);
  });

  it('writes the sort only when it is not the default', () => {
    expect(
      queryListParams.write(new URLSearchParams(), { ...DEFAULT_QUERY_FILTERS, order: 'asc' }).get('sort'),
    ).toBe('age');
    expect(queryListParams.write(new URLSearchParams(), DEFAULT_QUERY_FILTERS).toString()).toBe('');
  });

  it("asks the server with the API's names; the download without page and size", () => {
    const filters = { ...read('state=open&siteId=2&text=%20unit%20'), page: 2 };
    expect(queryListQueryString(filters)).toBe(
      'state=open&siteId=2&text=unit&sort=age&order=desc&page=2&size=10',
    );
    expect(queryListQueryString(filters, false)).toBe('state=open&siteId=2&text=unit&sort=age&order=desc');
  });

  it("keeps only the panel's fields, so a search never brings back a stale sort or page", () => {
    const fields = panelFieldsOf(
      { ...DEFAULT_QUERY_FILTERS, state: 'open', sort: 'kind', page: 4 } as never,
      EMPTY_QUERY_FILTER_FIELDS,
    );
    expect(fields).toEqual({
      ...panelFieldsOf(DEFAULT_QUERY_FILTERS, EMPTY_QUERY_FILTER_FIELDS),
      state: 'open',
    });
    expect(Object.keys(fields)).not.toContain('sort');
    expect(Object.keys(fields)).not.toContain('page');
  });
});
