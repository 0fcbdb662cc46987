/** Every URL of the app, in one place (prototype-spec §2 "Routes"). */
export const paths = {
  landing: '/',
  taskList: '/task-list',
  taskEndList: '/task-end-list',
  notFound: '/404',
  /** Review page of the form renderer and rules engine (spec §2 "/test"). */
  formPreview: '/test',
  admin: '/admin',
  adminUsers: '/admin/users',
  adminSites: '/admin/sites',
  adminMemberships: '/admin/memberships',
} as const;
