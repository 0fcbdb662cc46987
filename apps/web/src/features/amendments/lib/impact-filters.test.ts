import { describe, expect, it } from 'vitest';
import { impactListParams, impactRowsQueryString, impactValueText } from './impact-filters.ts';

describe('impactValueText', () => {
  it('shows strings as they are, nothing as a dash, and objects and lists as compact JSON', () => {
    expect(impactValueText('MALE')).toBe('MALE');
    expect(impactValueText(null)).toBe('—');
    expect(impactValueText(undefined)).toBe('—');
    expect(impactValueText(36.5)).toBe('36.5');
    expect(impactValueText(false)).toBe('false');
    expect(impactValueText({ kind: 'lock', level: 'form' })).toBe('{"kind":"lock","level":"form"}');
    expect(impactValueText(['A', 'B'])).toBe('["A","B"]');
  });
});

describe('impactListParams', () => {
  it('drops a kind the server does not know and asks for the rows with the filters given', () => {
    const filters = impactListParams.read(new URLSearchParams('kind=nonsense&siteId=2&subject=S02&page=3'));
    expect(filters).toEqual({ kind: '', siteId: 2, subject: 'S02', page: 3, size: 50 });
    expect(impactRowsQueryString({ ...filters, kind: 'queryOpens' })).toBe(
      'kind=queryOpens&siteId=2&subject=S02&page=3&size=50',
    );
  });
});
