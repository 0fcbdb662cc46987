import { dashboardQuerySchema, dashboardResponseSchema, subjectInfoResponseSchema } from '@cdms/contract';
import type { AppContext } from '../app-context.ts';
import { principalOf } from '../auth/authenticate.ts';
import { studyParams } from '../http/path-params.ts';
import { refusals } from '../http/refusals.ts';
import type { App } from '../http/types.ts';
import { READER_REFUSALS } from '../visit-alarms/reader-scope.ts';
import { loadDashboard, loadSubjectInfo } from './dashboard.ts';

/** The study dashboard and the header's subject-info counts, both over the reader's sites. */
export function registerDashboardRoutes(app: App, context: AppContext): void {
  const { db } = context.database;
  const tags = ['dashboard'];

  app.get(
    '/api/studies/:studyId/dashboard',
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary: 'Subject, query, safety, target-status, registration and alarm figures',
        params: studyParams,
        querystring: dashboardQuerySchema,
        response: { 200: dashboardResponseSchema, ...refusals(READER_REFUSALS) },
      },
    },
    async (request) => loadDashboard(db, principalOf(request), request.params.studyId, request.query),
  );

  app.get(
    '/api/studies/:studyId/subject-info',
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary: "Today's work: open and answered queries, SAEs, eCRF pages, alarms",
        params: studyParams,
        response: { 200: subjectInfoResponseSchema, ...refusals({ 403: READER_REFUSALS[403] }) },
      },
    },
    async (request) => loadSubjectInfo(db, principalOf(request), request.params.studyId),
  );
}
