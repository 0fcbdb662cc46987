import type { Role } from '@cdms/contract';
import { describe, expect, it } from 'vitest';
import { type AccessHolder, abilities, can, type SiteScope, siteScope } from './permissions.ts';

function holder(studyId: number, roles: [Role, SiteScope][]): AccessHolder {
  return { studies: new Map([[studyId, { studyId, roles: new Map(roles) }]]) };
}

describe('can', () => {
  const pi = holder(1, [['PI', new Set([10])]]);
  const cra = holder(1, [['CRA', new Set([10, 11])]]);
  const dm = holder(1, [['DM', 'all']]);

  it('follows the matrix for each role', () => {
    expect(can(pi, 'subject.write', { studyId: 1 })).toBe(true);
    expect(can(pi, 'casebook.sign', { studyId: 1 })).toBe(true);
    expect(can(pi, 'query.open', { studyId: 1 })).toBe(false);
    expect(can(cra, 'sdv.mark', { studyId: 1 })).toBe(true);
    expect(can(cra, 'subject.write', { studyId: 1 })).toBe(false);
    expect(can(dm, 'lock.manage', { studyId: 1 })).toBe(true);
    expect(can(dm, 'sdv.mark', { studyId: 1 })).toBe(false);
  });

  it('lets every role read reports, each over its own sites', () => {
    expect(can(pi, 'report.read', { studyId: 1, siteId: 10 })).toBe(true);
    expect(can(pi, 'report.read', { studyId: 1, siteId: 11 })).toBe(false);
    expect(siteScope(cra, 'report.read', 1)).toEqual(new Set([10, 11]));
    expect(siteScope(dm, 'report.read', 1)).toBe('all');
  });

  it('limits site roles to their sites and lets DM see every site', () => {
    expect(can(pi, 'subject.read', { studyId: 1, siteId: 10 })).toBe(true);
    expect(can(pi, 'subject.read', { studyId: 1, siteId: 11 })).toBe(false);
    expect(can(cra, 'subject.read', { studyId: 1, siteId: 11 })).toBe(true);
    expect(can(dm, 'subject.read', { studyId: 1, siteId: 99 })).toBe(true);
  });

  it('refuses everything in a study the user is not a member of', () => {
    expect(can(dm, 'subject.read', { studyId: 2 })).toBe(false);
    expect(abilities(dm, 2)).toEqual([]);
    expect(siteScope(dm, 'subject.read', 2)).toEqual(new Set());
  });

  it('combines roles: each action is scoped by the roles that grant it', () => {
    const both = holder(1, [
      ['PI', new Set([10])],
      ['CRA', new Set([11])],
    ]);
    expect(can(both, 'subject.write', { studyId: 1, siteId: 10 })).toBe(true);
    expect(can(both, 'subject.write', { studyId: 1, siteId: 11 })).toBe(false);
    expect(siteScope(both, 'subject.read', 1)).toEqual(new Set([10, 11]));
    expect(siteScope(both, 'subject.write', 1)).toEqual(new Set([10]));
    expect(abilities(both, 1)).toContain('sdv.mark');
    expect(abilities(both, 1)).toContain('casebook.sign');
  });
});
