import { summaryParamsSchema, summaryQuerySchema, summaryResponseSchema } from '@cdms/contract';
import type { AppContext } from '../app-context.ts';
import { principalOf } from '../auth/authenticate.ts';
import { refusals } from '../http/refusals.ts';
import type { App } from '../http/types.ts';
import { REPORT_REFUSALS } from '../reports/report-context.ts';
import { readStudySummary } from './read-study-summary.ts';

/** The study summary (issue 17 item 2): the study at a glance over the reader's sites. */
export function registerSummaryRoutes(app: App, context: AppContext): void {
  const { db } = context.database;
  app.get(
    '/api/studies/:studyId/summary',
    {
      config: { access: { study: 'member' } },
      schema: {
        tags: ['summary'],
        summary:
          "The study at a glance over the reader's sites: subjects by status and site, visit completion, the outcome and key measures by visit (split by group only for readers allowed to know groups)",
        params: summaryParamsSchema,
        querystring: summaryQuerySchema,
        response: { 200: summaryResponseSchema, ...refusals(REPORT_REFUSALS) },
      },
    },
    async (request) =>
      readStudySummary(db, principalOf(request), request.params.studyId, request.query.siteId),
  );
}
