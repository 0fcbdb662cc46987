import {
  enrollmentTargetParamsSchema,
  enrollmentTargetRequestSchema,
  enrollmentTargetResponseSchema,
  type ReportKey,
  type ReportResponse,
  reportDownloadQuerySchema,
  reportParamsSchema,
  reportQuerySchema,
  reportResponseSchema,
} from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { AppContext } from '../app-context.ts';
import { actorOf, principalOf } from '../auth/authenticate.ts';
import type { Database } from '../db/schema.ts';
import { fileAnswer, tableFileTypes } from '../http/file-answer.ts';
import { requestLanguage } from '../http/language.ts';
import { refusals } from '../http/refusals.ts';
import type { App } from '../http/types.ts';
import { recordListExport, sendListExport } from '../subjects/subject-export.ts';
import { aeListingReport } from './ae-listing-report.ts';
import { enrollmentReport } from './enrollment-report.ts';
import { reportFile } from './export-report.ts';
import { missingFormsReport } from './missing-forms-report.ts';
import { protocolDeviationsReport } from './protocol-deviations-report.ts';
import { queryAgingReport } from './query-aging-report.ts';
import { REPORT_REFUSALS, type ReportContext, reportContext } from './report-context.ts';
import { setEnrollmentTarget } from './set-enrollment-target.ts';

/** The file names' middle part, one per report. */
const fileNames: Record<ReportKey, string> = {
  enrollment: 'enrollment',
  missingForms: 'missing-forms',
  queryAging: 'query-aging',
  protocolDeviations: 'protocol-deviations',
  adverseEvents: 'adverse-events',
};

export function readReport(
  db: Kysely<Database>,
  context: ReportContext,
  report: ReportKey,
  query: z.output<typeof reportQuerySchema>,
): Promise<ReportResponse> {
  const { page, size, ...filter } = query;
  switch (report) {
    case 'enrollment':
      return enrollmentReport(db, context, filter);
    case 'missingForms':
      return missingFormsReport(db, context, filter, { page, size });
    case 'queryAging':
      return queryAgingReport(db, context, filter);
    case 'protocolDeviations':
      return protocolDeviationsReport(db, context, filter, { page, size });
    case 'adverseEvents':
      return aeListingReport(db, context, filter, { page, size });
  }
}

/** Standard reports (issue 17): each report over the reader's sites, and its download (audited). */
export function registerReportRoutes(app: App, context: AppContext): void {
  const { db } = context.database;
  const tags = ['reports'];
  const base = '/api/studies/:studyId/reports/:report';
  const reportRefusals = refusals(REPORT_REFUSALS);

  app.get(
    base,
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary:
          "One standard report over the reader's sites (enrollment, missing forms, query aging, protocol deviations, adverse events); listings paged",
        params: reportParamsSchema,
        querystring: reportQuerySchema,
        response: { 200: reportResponseSchema, ...reportRefusals },
      },
    },
    async (request) => {
      const { studyId, report } = request.params;
      const scope = await reportContext(db, principalOf(request), studyId, request.query.siteId);
      return readReport(db, scope, report, request.query);
    },
  );

  app.get(
    `${base}/download`,
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary: 'One standard report as CSV (UTF-8 with BOM) or XLSX, every row (audited)',
        params: reportParamsSchema,
        querystring: reportDownloadQuerySchema,
        response: { 200: fileAnswer('The report as CSV or XLSX.', tableFileTypes), ...reportRefusals },
      },
    },
    async (request, reply) => {
      const { studyId, report } = request.params;
      const { format, ...filter } = request.query;
      const scope = await reportContext(db, principalOf(request), studyId, filter.siteId);
      // Data leaving the system is audited, with the report and its filters, before the first byte leaves.
      await recordListExport(db, actorOf(request), studyId, 'report.exported', { report, format, filter });
      const file = await reportFile(db, scope, report, filter, format, requestLanguage(request));
      const name = { studyCode: scope.studyCode, today: scope.today, what: fileNames[report] };
      return sendListExport(reply, format, name, file);
    },
  );

  app.put(
    '/api/studies/:studyId/sites/:siteId/enrollment-target',
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary:
          "A site's enrollment target for the enrollment report (DM, ADMIN; null: the study default; audited)",
        params: enrollmentTargetParamsSchema,
        body: enrollmentTargetRequestSchema,
        response: {
          200: enrollmentTargetResponseSchema,
          ...refusals({
            403: 'The role may not plan enrolment at this site (`forbidden`).',
            404: 'No such site in the study (`not_found`).',
          }),
        },
      },
    },
    async (request) =>
      setEnrollmentTarget(
        db,
        principalOf(request),
        actorOf(request),
        request.params.studyId,
        request.params.siteId,
        request.body.target,
      ),
  );
}
