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
  adminStudies: '/admin/studies',
  /** A design file's import into a study (issue 47): preview, then confirm. */
  adminStudyImport: '/admin/studies/import/:studyId',
  adminSites: '/admin/sites',
  adminMemberships: '/admin/memberships',
  /** Help pages linked from the task list (online manual with eTraining and support, terms of use). */
  manual: '/help/manual',
  terms: '/help/terms',
  // Study pages (spec §2): the trailing segment is the study id. Build links with `studyPath`.
  dashboard: '/dashboard/:studyId',
  taskAlarm: '/task-alarm/:studyId',
  subjectList: '/subject-list/:studyId',
  subjectOverview: '/subject-list/subject/:studyId',
  subjectDetail: '/subject-list/subject/subject-detail/:studyId',
  notice: '/notice/:studyId',
  noticeDetail: '/notice/detail/:studyId',
  noticeRegister: '/notice/register/:studyId?',
  guideline: '/guideline/:studyId',
  guidelineDetail: '/guideline/detail/:studyId',
  guidelineRegister: '/guideline/register/:studyId',
  /** Task notices (issue 18), a tab of the notices. */
  taskNotice: '/notice/tasks/:studyId',
  alarmLog: '/alarm-log/:studyId',
  systemETraining: '/system-e-training/:studyId',
  query: '/query/:studyId',
  report: '/report/:studyId',
  sdv: '/sdv/:studyId',
  /** One form across subjects, review marks and bulk queries (issue 50 item 4; CRA, DM). */
  reviewListings: '/review/:studyId',
  freezing: '/freezing/:studyId',
  summary: '/summary/:studyId',
  lab: '/lab/:studyId',
  /** Central monitoring (issue 50): key risk indicators per site, tolerance limits and signals. */
  monitoring: '/monitoring/:studyId',
  /** Medical coding (issue 51): the coder's queue and the coding dictionaries. */
  coding: '/coding/:studyId',
  /** SAE reports (issue 51): the list with each report's 24-hour clock, and one report. */
  safety: '/safety/:studyId',
  saeReport: '/safety/:studyId/reports/:reportId',
  data: '/data/:studyId',
  /** Allocation lists and the group-visibility setting (list keepers: DM, ADMIN). */
  randomization: '/randomization/:studyId',
  /** The study's audit trail (issue 16; CRA on their sites, DM, ADMIN). */
  audit: '/audit/:studyId',
  /** The study designer (issue 48): the schedule of visits and forms, for the study's designers. */
  design: '/design/:studyId',
  /** What changed between two versions of the study's definition (issue 48 item 7), for its designers. */
  designVersions: '/design/:studyId/versions',
  /** A live study's amendments (issue 49), for its designers. */
  amendments: '/design/:studyId/amendments',
  /** One amendment: its fields, what its change set asks, and (a draft) its discard. */
  amendment: '/design/:studyId/amendments/:amendmentId',
} as const;

/** The URL of a study page: `studyPath(paths.dashboard, 3, { type: 'PI' })` → `/dashboard/3?type=PI`. */
export function studyPath(
  pattern: string,
  studyId: number | string,
  query?: Record<string, string | undefined>,
): string {
  const path = pattern.replace(/:studyId\??/, encodeURIComponent(String(studyId)));
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) if (value) search.set(key, value);
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}
