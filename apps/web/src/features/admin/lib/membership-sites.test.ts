import { describe, expect, it } from 'vitest';
import { roleNeedsSites, siteChoiceError, siteCodes } from './membership-sites.ts';

const sites = [
  { id: 1, code: 'SNUH', name: '서울대학교병원', institutionNumber: '01' },
  { id: 2, code: 'AMC', name: '서울아산병원', institutionNumber: '02' },
];

describe('membership sites', () => {
  it('site roles need sites; DM and ADMIN see every site', () => {
    expect(['PI', 'SI', 'CRC', 'CRA'].every((role) => roleNeedsSites(role as 'PI'))).toBe(true);
    expect(roleNeedsSites('DM')).toBe(false);
    expect(roleNeedsSites('ADMIN')).toBe(false);
  });

  it('lists site codes in the study order and skips unknown ids', () => {
    expect(siteCodes([2, 1], sites)).toEqual(['SNUH', 'AMC']);
    expect(siteCodes([2, 99], sites)).toEqual(['AMC']);
    expect(siteCodes([], sites)).toEqual([]);
  });

  it('asks for a site only for a site role without one', () => {
    expect(siteChoiceError('CRC', [])).toBe('validation.sitesRequired');
    expect(siteChoiceError('CRC', [1])).toBeUndefined();
    expect(siteChoiceError('DM', [])).toBeUndefined();
  });
});
