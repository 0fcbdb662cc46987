/** Every URL of the app, in one place (prototype-spec §2 "Routes"). */
export const paths = {
  landing: '/',
  taskList: '/task-list',
  taskEndList: '/task-end-list',
  notFound: '/404',
} as const;
