import type { AdminUser } from '@cdms/contract';
import { describe, expect, it } from 'vitest';
import { filterUsers } from './filter-users.ts';

function user(id: number, name: string, email: string): AdminUser {
  return {
    id,
    name,
    email,
    contact: '',
    locale: 'ko',
    active: true,
    isAdmin: false,
    lockedUntil: null,
    lastLoginAt: null,
    createdAt: '2026-01-01T00:00:00Z',
    secondFactorEnrolled: false,
  };
}

const users = [
  user(1, '김연구', 'pi@demo.cdms'),
  user(2, 'Jane Doe', 'jane@hospital.kr'),
  user(3, '최모니', 'cra@demo.cdms'),
];

describe('filterUsers', () => {
  it('returns everyone for an empty or blank search', () => {
    expect(filterUsers(users, '')).toHaveLength(3);
    expect(filterUsers(users, '   ')).toHaveLength(3);
  });

  it('matches part of the name or the email, ignoring case and spaces around', () => {
    expect(filterUsers(users, '연구').map((u) => u.id)).toEqual([1]);
    expect(filterUsers(users, ' JANE ').map((u) => u.id)).toEqual([2]);
    expect(filterUsers(users, 'demo.cdms').map((u) => u.id)).toEqual([1, 3]);
  });

  it('finds nothing when nothing matches', () => {
    expect(filterUsers(users, 'nobody')).toEqual([]);
  });
});
