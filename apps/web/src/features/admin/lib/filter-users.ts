import type { AdminUser } from '@cdms/contract';

/** The users whose name or email contains the search text, ignoring case and surrounding spaces. */
export function filterUsers(users: readonly AdminUser[], search: string): AdminUser[] {
  const needle = search.trim().toLocaleLowerCase();
  if (needle === '') return [...users];
  return users.filter(
    (user) =>
      user.name.toLocaleLowerCase().includes(needle) || user.email.toLocaleLowerCase().includes(needle),
  );
}
