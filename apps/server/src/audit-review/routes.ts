import {
  auditChainStatusSchema,
  auditTrailFilterSchema,
  auditTrailQuerySchema,
  auditTrailResponseSchema,
  todayInKorea,
} from '@cdms/contract';
import type { AppContext } from '../app-context.ts';
import { actorOf, principalOf } from '../auth/authenticate.ts';
import { fileAnswer } from '../http/file-answer.ts';
import { requestLanguage } from '../http/language.ts';
import { studyParams } from '../http/path-params.ts';
import { refusals } from '../http/refusals.ts';
import type { App } from '../http/types.ts';
import { recordListExport, sendListExport } from '../subjects/subject-export.ts';
import { auditChainStatus } from './audit-chain-status.ts';
import { auditReviewContext, countAuditEvents, filteredAuditEvents } from './audit-trail-query.ts';
import { auditTrailChunks, auditTrailCsv, lastAuditEventId } from './export-audit-trail.ts';
import { listAuditTrail } from './list-audit-trail.ts';

const reviewRefusals = refusals({
  403: 'The role may not review the audit trail (CRA, DM and ADMIN may) (`forbidden`).',
  404: 'The site filtered on is not one the caller reviews (`not_found`).',
});

/** Audit review (issue 16, item 5): the study's trail, its CSV download, the chain's status. */
export function registerAuditReviewRoutes(app: App, context: AppContext): void {
  const { db } = context.database;
  const tags = ['audit'];
  const base = '/api/studies/:studyId';

  app.get(
    `${base}/audit`,
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary:
          "The study's audit trail: filtered, newest first by default, paged (CRA on their sites, DM, ADMIN)",
        params: studyParams,
        querystring: auditTrailQuerySchema,
        response: { 200: auditTrailResponseSchema, ...reviewRefusals },
      },
    },
    async (request) => listAuditTrail(db, principalOf(request), request.params.studyId, request.query),
  );

  app.get(
    `${base}/audit.csv`,
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary: 'The filtered audit trail as CSV (UTF-8 with BOM; audited)',
        params: studyParams,
        querystring: auditTrailFilterSchema,
        response: { 200: fileAnswer('The audit trail as CSV.', ['text/csv']), ...reviewRefusals },
      },
    },
    async (request, reply) => {
      const { studyId } = request.params;
      const filter = request.query;
      const reviewContext = await auditReviewContext(db, principalOf(request), studyId);
      const throughId = await lastAuditEventId(db);
      const total = await countAuditEvents(
        filteredAuditEvents(db, reviewContext, filter).where('audit_events.id', '<=', throughId),
      );
      // Data leaving the system is audited, with the filters, before the first byte leaves.
      await recordListExport(db, actorOf(request), studyId, 'audit.exported', {
        format: 'csv',
        filter,
        rowCount: total,
      });
      const file = auditTrailCsv(
        auditTrailChunks(db, reviewContext, filter, throughId),
        requestLanguage(request),
      );
      const name = { studyCode: reviewContext.studyCode, today: todayInKorea(), what: 'audit' };
      return sendListExport(reply, 'csv', name, file);
    },
  );

  app.get(
    `${base}/audit/chain`,
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary: "The audit hash chain's status: intact up to record N, or where it breaks (CRA, DM, ADMIN)",
        params: studyParams,
        response: {
          200: auditChainStatusSchema,
          ...refusals({
            403: 'The role may not review the audit trail (CRA, DM and ADMIN may) (`forbidden`).',
          }),
        },
      },
    },
    async (request) => {
      await auditReviewContext(db, principalOf(request), request.params.studyId);
      return auditChainStatus(db);
    },
  );
}
