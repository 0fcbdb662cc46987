import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SUBJECT_FILTERS,
  deriveRange,
  nextSort,
  presetDates,
  readSubjectListFilters,
  subjectListQueryString,
  writeSubjectListFilters,
} from './subject-list-filters.ts';

const TODAY = '2026-11-21';
const read = (query: string) => readSubjectListFilters(new URLSearchParams(query), TODAY);

describe('reading the subject list filters from the URL', () => {
  it('gives the server defaults for a bare URL', () => {
    expect(read('')).toEqual(DEFAULT_SUBJECT_FILTERS);
  });

  it('reads every filter, the sort, the page and the page size', () => {
    expect(
      read(
        'dateType=consentDate&start=2026-01-01&end=2026-03-31&status=Drop-out&signature=false&search=+S01+&sort=age&order=desc&page=3&size=50',
      ),
    ).toEqual({
      dateType: 'consentDate',
      start: '2026-01-01',
      end: '2026-03-31',
      status: 'Drop-out',
      signature: 'false',
      search: 'S01',
      sort: 'age',
      order: 'desc',
      page: 3,
      size: 50,
    });
  });

  it('drops values the server would refuse instead of sending them', () => {
    expect(
      read(
        'dateType=birthDate&start=2026-02-30&end=x&status=screening&signature=yes&sort=initials&order=up&page=0&size=15',
      ),
    ).toEqual(DEFAULT_SUBJECT_FILTERS);
    // A start after the end is no period at all.
    expect(read('start=2026-05-01&end=2026-01-01')).toMatchObject({ start: '', end: '' });
    expect(read(`search=${'x'.repeat(150)}`).search).toHaveLength(100);
  });

  it('turns a preset without dates into the last 3 or 6 months up to today', () => {
    expect(read('range=3')).toMatchObject({ start: '2026-08-21', end: TODAY });
    expect(read('range=6')).toMatchObject({ start: '2026-05-21', end: TODAY });
    expect(read('range=3&start=2026-01-01')).toMatchObject({ start: '2026-01-01', end: '' });
  });
});

describe('writing the filters to the URL', () => {
  const base = { ...DEFAULT_SUBJECT_FILTERS };

  it('leaves defaults out, keeps parameters that are not the list’s and starts on page 1', () => {
    const current = new URLSearchParams('menu-type=CRA&page=4&status=Complete');
    expect(writeSubjectListFilters(current, base).toString()).toBe('menu-type=CRA');
  });

  it('writes the range derived from the dates and the date type only with a period', () => {
    const dates = presetDates('3', TODAY);
    const params = writeSubjectListFilters(new URLSearchParams(), {
      ...base,
      ...dates,
      dateType: 'consentDate',
    });
    expect(params.toString()).toBe('start=2026-08-21&end=2026-11-21&dateType=consentDate&range=3');
    expect(
      writeSubjectListFilters(new URLSearchParams(), { ...base, dateType: 'consentDate' }).toString(),
    ).toBe('');
  });

  it('round-trips every filter through the URL', () => {
    const filters = {
      ...base,
      dateType: 'lastVisitDate' as const,
      start: '2026-01-01',
      end: '2026-02-15',
      status: 'Screening-failure' as const,
      signature: 'true' as const,
      search: 'SBH',
      sort: 'unresolvedQuery' as const,
      order: 'desc' as const,
      size: 100 as const,
    };
    expect(read(writeSubjectListFilters(new URLSearchParams(), filters).toString())).toEqual(filters);
  });
});

describe('presets and sorting', () => {
  it('derives the preset from the dates', () => {
    expect(deriveRange('', '')).toBe('all');
    expect(deriveRange('2026-08-21', TODAY)).toBe('3');
    expect(deriveRange('2026-05-21', TODAY)).toBe('6');
    expect(deriveRange('2026-05-22', TODAY)).toBeNull();
    expect(presetDates('all', TODAY)).toEqual({ start: '', end: '' });
  });

  it('flips the order on the same column and starts another column ascending', () => {
    expect(nextSort({ sort: 'age', order: 'asc' }, 'age')).toEqual({ sort: 'age', order: 'desc' });
    expect(nextSort({ sort: 'age', order: 'desc' }, 'age')).toEqual({ sort: 'age', order: 'asc' });
    expect(nextSort({ sort: 'age', order: 'desc' }, 'site')).toEqual({ sort: 'site', order: 'asc' });
  });
});

describe('the server query', () => {
  it('sends filters and sort, with page and size only for the paged list', () => {
    const filters = { ...DEFAULT_SUBJECT_FILTERS, start: '2026-01-01', status: 'Ongoing' as const, page: 2 };
    expect(subjectListQueryString(filters)).toBe(
      'dateType=registrationDate&start=2026-01-01&status=Ongoing&sort=subjectId&order=asc&page=2&size=10',
    );
    expect(subjectListQueryString(DEFAULT_SUBJECT_FILTERS, false)).toBe('sort=subjectId&order=asc');
  });
});
