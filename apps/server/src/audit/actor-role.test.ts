import { describe, expect, it } from 'vitest';
import { actorRoleIn } from './actor-role.ts';
import type { StudyRoles } from './audit-events.ts';

describe('the role an audit record names', () => {
  const studyRoles: StudyRoles = new Map([
    [
      1,
      {
        roles: new Map([
          ['CRC', new Set([2])],
          ['PI', new Set([1, 2])],
          ['CRA', new Set([3])],
        ]),
      },
    ],
    [2, { roles: new Map([['DM', 'all']]) }],
  ]);

  it('names the roles covering the record’s site, in the contract’s order', () => {
    expect(actorRoleIn(studyRoles, 1, 2)).toBe('PI,CRC');
    expect(actorRoleIn(studyRoles, 1, 1)).toBe('PI');
    expect(actorRoleIn(studyRoles, 1, 9)).toBeNull();
    expect(actorRoleIn(studyRoles, 2, 9)).toBe('DM');
  });

  it('names every role of the study for a record without a site, none without a study', () => {
    expect(actorRoleIn(studyRoles, 1, null)).toBe('PI,CRC,CRA');
    expect(actorRoleIn(studyRoles, null, 2)).toBeNull();
    expect(actorRoleIn(undefined, 1, 2)).toBeNull();
  });
});
