import { describe, expect, it } from 'vitest';
import { auditListParams, auditQueryString, DEFAULT_AUDIT_FILTERS } from './audit-filters.ts';

describe('audit page filters in the URL', () => {
  it('reads the defaults from an empty URL and drops values the API would refuse', () => {
    expect(auditListParams.read(new URLSearchParams())).toEqual(DEFAULT_AUDIT_FILTERS);
    expect(
      auditListParams.read(
        new URLSearchParams(
          'from=2026-02-30&to=yesterday&userId=0&role=KING&siteId=01&subjectId=-4&eventType=DROP%20TABLE&visitKey=v%201&sort=sideways&size=7&page=x',
        ),
      ),
    ).toEqual(DEFAULT_AUDIT_FILTERS);
  });

  it('drops the end of a range that comes before its start', () => {
    expect(auditListParams.read(new URLSearchParams('from=2026-03-10&to=2026-03-01'))).toMatchObject({
      from: '2026-03-10',
      to: '',
    });
    expect(auditListParams.read(new URLSearchParams('from=2026-03-01&to=2026-03-10'))).toMatchObject({
      from: '2026-03-01',
      to: '2026-03-10',
    });
  });

  it('writes only what is set, keeps menu-type, starts on page 1, and reads back the same', () => {
    const filters = {
      ...DEFAULT_AUDIT_FILTERS,
      from: '2026-03-01',
      userId: 4,
      role: 'PI' as const,
      subjectId: 12,
      eventType: 'data.item_changed',
      visitKey: 'v1',
      formKey: 'vitalSigns',
      itemKey: 'heartRate',
      text: ' source ',
      sort: 'oldest' as const,
      size: 50 as const,
      page: 3,
    };
    // A change of filters is written without a page (useListState's apply), so the list starts on page 1.
    const params = auditListParams.write(new URLSearchParams('menu-type=CRA&page=9'), {
      ...filters,
      page: undefined,
    });
    expect(params.toString()).toBe(
      'menu-type=CRA&from=2026-03-01&userId=4&role=PI&subjectId=12&eventType=data.item_changed&visitKey=v1&formKey=vitalSigns&itemKey=heartRate&text=source&sort=oldest&size=50',
    );
    expect(auditListParams.read(params)).toEqual({ ...filters, text: 'source', page: 1 });
  });

  it('sends the page and size to the list but not to the CSV', () => {
    const filters = { ...DEFAULT_AUDIT_FILTERS, subjectId: 5, page: 2 };
    expect(auditQueryString(filters)).toBe('subjectId=5&sort=newest&page=2&size=20');
    expect(auditQueryString(filters, false)).toBe('subjectId=5&sort=newest');
  });
});
