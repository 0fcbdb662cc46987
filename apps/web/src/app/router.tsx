import { createBrowserRouter, Navigate } from 'react-router';
import { PageLoading } from '../components/page-loading.tsx';
import { RouteErrorPage } from '../features/errors/components/route-error-page.tsx';
import { i18n } from '../i18n/i18n.ts';
import { paths } from '../lib/paths.ts';
import { RootLayout } from './root-layout.tsx';

/**
 * A route's `lazy` that loads the translation namespaces its page shows (beyond those bundled,
 * i18n.ts) together with its code: the router shows the page once both are there, complete. A
 * namespace left out still loads, but only when the page first renders (it suspends): the URL
 * would already be the new page's while the previous page stayed on screen.
 */
function withTranslations<T>(namespaces: string[], load: () => Promise<T>): () => Promise<T> {
  return async () => (await Promise.all([load(), i18n.loadNamespaces(namespaces)]))[0];
}

/**
 * Route modules load lazily: the landing page does not pay for pages the user has not opened. The
 * entry holds only the root providers, the router and the translations every first page needs;
 * everything a signed-in page uses (the sign-in wall and two-factor enrolment included) is behind
 * a `lazy` below. `npm run lighthouse` and e2e/tests/first-load.spec.ts keep the landing page's
 * JavaScript within its budget.
 */
export const router = createBrowserRouter([
  {
    // Providers shared by every page (session, modal stack, alerts, toasts): see root-layout.tsx.
    element: <RootLayout />,
    errorElement: <RouteErrorPage />,
    // While the first page's code loads: the loading state index.html showed before any script.
    hydrateFallbackElement: <PageLoading />,
    children: [
      {
        path: paths.landing,
        // Features do not import each other: the app puts the auth feature's login button and
        // account menu into the landing page.
        lazy: async () => {
          const [{ LandingPage }, { LandingAccount }] = await Promise.all([
            import('../features/landing/components/landing-page.tsx'),
            import('../features/auth/components/landing-account.tsx'),
          ]);
          return { element: <LandingPage accountArea={<LandingAccount />} /> };
        },
      },
      {
        // Every page but `/` and `/404` needs a signed-in user (prototype-spec §6).
        lazy: withTranslations(['shell'], async () => ({
          Component: (await import('./protected-route.tsx')).ProtectedRoute,
        })),
        children: [
          {
            // Task lists and help pages: the reduced side menu (spec §2).
            lazy: withTranslations(['shell', 'notices'], async () => ({
              Component: (await import('./shell-layouts.tsx')).TaskListLayout,
            })),
            children: [
              {
                path: paths.taskList,
                lazy: withTranslations(['taskList'], async () => {
                  const { StudyListPage } = await import(
                    '../features/task-list/components/study-list-page.tsx'
                  );
                  return { element: <StudyListPage status="active" /> };
                }),
              },
              {
                path: paths.taskEndList,
                lazy: withTranslations(['taskList'], async () => {
                  const { StudyListPage } = await import(
                    '../features/task-list/components/study-list-page.tsx'
                  );
                  return { element: <StudyListPage status="ended" /> };
                }),
              },
              {
                path: paths.manual,
                // The manual's support section shows the shell's support contact.
                lazy: withTranslations(['help'], async () => {
                  const [{ ManualPage }, { SupportContact }] = await Promise.all([
                    import('../features/help/components/manual-page.tsx'),
                    import('../features/shell/components/support-contact.tsx'),
                  ]);
                  return { element: <ManualPage supportContact={<SupportContact />} /> };
                }),
              },
              {
                path: paths.terms,
                lazy: withTranslations(['help'], async () => ({
                  Component: (await import('../features/help/components/terms-page.tsx')).TermsPage,
                })),
              },
            ],
          },
          {
            // Study pages: the study's side menu (PI or CRA set), subject-info popup, membership check.
            lazy: withTranslations(['shell', 'notices'], async () => ({
              Component: (await import('./shell-layouts.tsx')).StudyLayout,
            })),
            children: [
              {
                path: paths.dashboard,
                // The monitoring panel's strings load with the panel, after the page (monitoring-panel-slot.tsx).
                lazy: withTranslations(['dashboard', 'notices'], async () => ({
                  Component: (await import('./study-pages.tsx')).DashboardRoute,
                })),
              },
              // Notices (list, detail, register/edit).
              {
                path: paths.notice,
                lazy: withTranslations(['notices'], async () => ({
                  Component: (await import('../features/notices/components/notice-list-page.tsx'))
                    .NoticeListPage,
                })),
              },
              {
                path: paths.noticeDetail,
                lazy: withTranslations(['notices'], async () => ({
                  Component: (await import('../features/notices/components/notice-detail-page.tsx'))
                    .NoticeDetailPage,
                })),
              },
              {
                // With a study id only: `/notice/register` alone is routed outside the study shell below.
                path: paths.noticeRegister.replace(/\?$/, ''),
                lazy: withTranslations(['notices'], async () => ({
                  Component: (await import('../features/notices/components/notice-register-page.tsx'))
                    .NoticeRegisterPage,
                })),
              },
              // Subjects: list and registration, visit matrix, form entry.
              {
                path: paths.subjectList,
                lazy: withTranslations(['subjects'], async () => ({
                  Component: (await import('../features/subjects/components/subject-list-page.tsx'))
                    .SubjectListPage,
                })),
              },
              {
                path: paths.subjectOverview,
                lazy: withTranslations(['subjects', 'sdv', 'holds'], async () => ({
                  Component: (await import('../features/subjects/components/subject-overview-page.tsx'))
                    .SubjectOverviewPage,
                })),
              },
              {
                path: paths.subjectDetail,
                lazy: withTranslations(
                  ['subjects', 'crf', 'signature', 'randomization', 'queries', 'sdv', 'holds'],
                  async () => ({
                    Component: (await import('../features/subjects/components/subject-detail-page.tsx'))
                      .SubjectDetailPage,
                  }),
                ),
              },
              {
                // Subject alarms from the visit windows.
                path: paths.taskAlarm,
                lazy: withTranslations(['taskAlarm'], async () => ({
                  Component: (await import('../features/task-alarm/components/task-alarm-page.tsx'))
                    .TaskAlarmPage,
                })),
              },
              {
                // Allocation lists per site and the group-visibility setting (DM, ADMIN).
                path: paths.randomization,
                lazy: withTranslations(['randomization'], async () => ({
                  Component: (await import('../features/randomization/components/randomization-page.tsx'))
                    .RandomizationPage,
                })),
              },
              {
                // The study designer: the schedule of visits and forms (issue 48; the study's designers).
                path: paths.design,
                lazy: withTranslations(['designer'], async () => ({
                  Component: (await import('../features/designer/components/designer-page.tsx')).DesignerPage,
                })),
              },
              {
                // Two versions of the study's definition compared, with the PDF (issue 48 item 7; designers).
                path: paths.designVersions,
                lazy: withTranslations(['designVersions'], async () => ({
                  Component: (await import('../features/design-versions/components/design-versions-page.tsx'))
                    .DesignVersionsPage,
                })),
              },
              {
                // A live study's amendments and one amendment's change set (issue 49; designers).
                path: paths.amendments,
                lazy: withTranslations(['amendments'], async () => ({
                  Component: (await import('../features/amendments/components/amendment-list-page.tsx'))
                    .AmendmentListPage,
                })),
              },
              {
                path: paths.amendment,
                lazy: withTranslations(['amendments'], async () => ({
                  Component: (await import('../features/amendments/components/amendment-page.tsx'))
                    .AmendmentPage,
                })),
              },
              {
                // Every query of the reader's sites (CRA menu; site users come by the count links).
                path: paths.query,
                lazy: withTranslations(['queries'], async () => ({
                  Component: (await import('../features/queries/components/query-list-page.tsx'))
                    .QueryListPage,
                })),
              },
              {
                // Source data verification against the plan (issue 15; CRA menu).
                path: paths.sdv,
                lazy: withTranslations(['sdv'], async () => ({
                  Component: (await import('../features/sdv/components/sdv-page.tsx')).SdvPage,
                })),
              },
              {
                // The study's audit trail with the chain's status (issue 16; CRA menu).
                path: paths.audit,
                lazy: withTranslations(['audit'], async () => ({
                  Component: (await import('../features/audit/components/audit-page.tsx')).AuditPage,
                })),
              },
              {
                // The database-lock readiness board; freeze and lock in bulk (issue 15; CRA menu).
                path: paths.freezing,
                lazy: withTranslations(['holds'], async () => ({
                  Component: (await import('../features/freezing/components/freezing-page.tsx')).FreezingPage,
                })),
              },
              {
                // Data out: export jobs with progress and download (issue 16; CRA menu, DM and ADMIN).
                path: paths.data,
                lazy: withTranslations(['data', 'subjects'], async () => ({
                  Component: (await import('../features/data-exports/components/data-page.tsx')).DataPage,
                })),
              },
              {
                // Standard reports over the reader's sites (issue 17; CRA menu).
                path: paths.report,
                lazy: withTranslations(['reports'], async () => ({
                  Component: (await import('../features/reports/components/reports-page.tsx')).ReportsPage,
                })),
              },
              {
                // Central monitoring (issue 50): indicators, tolerance limits, signals.
                path: paths.monitoring,
                lazy: withTranslations(['monitoring'], async () => ({
                  Component: (await import('../features/monitoring/components/monitoring-page.tsx'))
                    .MonitoringPage,
                })),
              },
              {
                // Medical coding (issue 51): the coder's queue, dictionary search and the dictionaries.
                path: paths.coding,
                lazy: withTranslations(['coding'], async () => ({
                  Component: (await import('../features/coding/components/coding-page.tsx')).CodingPage,
                })),
              },
              {
                // SAE reports (issue 51): the list with each report's clock, and one report.
                path: paths.safety,
                lazy: withTranslations(['safety'], async () => ({
                  Component: (await import('../features/safety/components/sae-list-page.tsx')).SaeListPage,
                })),
              },
              {
                path: paths.saeReport,
                lazy: withTranslations(['safety'], async () => ({
                  Component: (await import('../features/safety/components/sae-report-page.tsx'))
                    .SaeReportPage,
                })),
              },
              {
                // Lab normal ranges per site and the out-of-range listing (issue 17 item 3; CRA menu).
                path: paths.lab,
                lazy: withTranslations(['lab'], async () => ({
                  Component: (await import('../features/lab/components/lab-page.tsx')).LabPage,
                })),
              },
              {
                // The study at a glance over the reader's sites (issue 17 item 2; CRA menu).
                path: paths.summary,
                lazy: withTranslations(['summary'], async () => ({
                  Component: (await import('../features/summary/components/summary-page.tsx')).SummaryPage,
                })),
              },
              {
                // A form across subjects: review marks and bulk queries (issue 50 item 4; CRA, DM).
                path: paths.reviewListings,
                lazy: withTranslations(['reviewListings', 'queries'], async () => ({
                  Component: (await import('../features/review-listings/components/review-listing-page.tsx'))
                    .ReviewListingPage,
                })),
              },
              {
                // Every notification raised for the study with its delivery status (issue 18; CRA menu).
                path: paths.alarmLog,
                lazy: withTranslations(['alarmLog'], async () => ({
                  Component: (await import('../features/alarm-log/components/alarm-log-page.tsx'))
                    .AlarmLogPage,
                })),
              },
              {
                // eTraining: required modules, quiz, certificate, completion matrix (issue 18 item 5; CRA menu).
                path: paths.systemETraining,
                lazy: withTranslations(['training', 'notices'], async () => ({
                  Component: (await import('../features/training/components/training-page.tsx')).TrainingPage,
                })),
              },
              // Guidelines (issue 18): list, detail, register/edit (the notices' editor, composed by the app).
              {
                path: paths.guideline,
                lazy: withTranslations(['guidelines'], async () => ({
                  Component: (await import('../features/guidelines/components/guideline-list-page.tsx'))
                    .GuidelineListPage,
                })),
              },
              {
                path: paths.guidelineDetail,
                lazy: withTranslations(['guidelines'], async () => ({
                  Component: (await import('../features/guidelines/components/guideline-detail-page.tsx'))
                    .GuidelineDetailPage,
                })),
              },
              {
                path: paths.guidelineRegister,
                lazy: withTranslations(['guidelines', 'notices'], async () => ({
                  Component: (await import('../features/guidelines/components/guideline-register-page.tsx'))
                    .GuidelineRegisterPage,
                })),
              },
              // Task notices (issue 18): a tab of the notices.
              {
                path: paths.taskNotice,
                lazy: withTranslations(['notices'], async () => ({
                  Component: (await import('../features/notices/components/task-notice-list-page.tsx'))
                    .TaskNoticeListPage,
                })),
              },
            ],
          },
          {
            lazy: withTranslations(['shell'], async () => ({
              Component: (await import('./app-layout.tsx')).AppLayout,
            })),
            children: [
              {
                // `/notice/register` without a study: forwards to the user's first study where they
                // may write notices (the page needs no study shell for that).
                path: paths.noticeRegister.replace(/\/:studyId\?$/, ''),
                lazy: withTranslations(['notices'], async () => ({
                  Component: (await import('../features/notices/components/notice-register-page.tsx'))
                    .NoticeRegisterPage,
                })),
              },
              {
                path: paths.formPreview,
                lazy: withTranslations(['crf'], async () => ({
                  Component: (await import('../features/form-preview/components/form-preview-page.tsx'))
                    .FormPreviewPage,
                })),
              },
              {
                // Administration (system administrators; the server answers 403 to anyone else).
                lazy: withTranslations(['admin'], async () => ({
                  Component: (await import('./admin-route.tsx')).AdminRoute,
                })),
                children: [
                  { path: paths.admin, element: <Navigate to={paths.adminUsers} replace /> },
                  {
                    path: paths.adminUsers,
                    lazy: async () => ({
                      Component: (await import('../features/admin/components/users-page.tsx')).UsersPage,
                    }),
                  },
                  {
                    path: paths.adminStudies,
                    lazy: async () => ({
                      Component: (await import('../features/admin/components/studies-page.tsx')).StudiesPage,
                    }),
                  },
                  {
                    path: paths.adminStudyImport,
                    lazy: async () => ({
                      Component: (await import('../features/admin/components/definition-import-page.tsx'))
                        .DefinitionImportPage,
                    }),
                  },
                  {
                    path: paths.adminSites,
                    lazy: async () => ({
                      Component: (await import('../features/admin/components/sites-page.tsx')).SitesPage,
                    }),
                  },
                  {
                    path: paths.adminMemberships,
                    lazy: async () => ({
                      Component: (await import('../features/admin/components/memberships-page.tsx'))
                        .MembershipsPage,
                    }),
                  },
                ],
              },
            ],
          },
        ],
      },
      {
        path: paths.notFound,
        lazy: async () => ({
          Component: (await import('../features/errors/components/not-found-page.tsx')).NotFoundPage,
        }),
      },
      { path: '*', element: <Navigate to={paths.notFound} replace /> },
    ],
  },
]);
