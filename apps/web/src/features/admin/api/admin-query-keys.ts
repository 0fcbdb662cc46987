/** Query keys of the admin pages, in one place so that a write can invalidate exactly what it changed. */
export const adminQueryKeys = {
  all: ['admin'] as const,
  users: ['admin', 'users'] as const,
  studies: ['admin', 'studies'] as const,
  twoFactorSetting: ['admin', 'settings', 'two-factor'] as const,
  memberships: (studyId: number) => ['admin', 'studies', studyId, 'memberships'] as const,
};
