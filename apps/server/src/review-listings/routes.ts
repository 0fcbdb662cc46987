import {
  bulkRaiseQueriesRequestSchema,
  bulkRaiseQueriesResponseSchema,
  reviewListingExportQuerySchema,
  reviewListingParamsSchema,
  reviewListingQuerySchema,
  reviewListingResponseSchema,
  reviewMarkRequestSchema,
  reviewMarkResponseSchema,
  reviewTablesResponseSchema,
} from '@cdms/contract';
import type { AppContext } from '../app-context.ts';
import { actorOf, principalOf } from '../auth/authenticate.ts';
import { fileAnswer, tableFileTypes } from '../http/file-answer.ts';
import { requestLanguage } from '../http/language.ts';
import { studyParams } from '../http/path-params.ts';
import { refusals } from '../http/refusals.ts';
import type { App } from '../http/types.ts';
import { HOLD_REFUSAL } from '../locks/holds-in-force.ts';
import { recordListExport, sendListExport } from '../subjects/subject-export.ts';
import { READER_REFUSALS } from '../visit-alarms/reader-scope.ts';
import { reviewListingDownload } from './export-review-listing.ts';
import { listReviewListing, listReviewTables } from './list-review-listing.ts';
import { markReviewed } from './mark-reviewed.ts';
import { raiseBulkQueries } from './raise-bulk-queries.ts';

const NO_TABLE =
  'The definition has no such listing, or the site filtered on is not one the caller sees (`not_found`).';
const BAD_SORT = 'The sort names an item the listing does not have (`review_sort_unknown`).';

/** Issue 50 item 4: review listings across subjects, review marks and bulk queries. */
export function registerReviewListingRoutes(app: App, context: AppContext): void {
  const { db } = context.database;
  const tags = ['review listings'];
  const base = '/api/studies/:studyId/review-listings';

  app.get(
    base,
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary: "The listings of the study's definition: each form's plain items and each repeating group",
        params: studyParams,
        response: { 200: reviewTablesResponseSchema, ...refusals({ 403: READER_REFUSALS[403] }) },
      },
    },
    async (request) => listReviewTables(db, principalOf(request), request.params.studyId),
  );

  app.get(
    `${base}/:table`,
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary:
          "A page of one form's listing across the reader's subjects: filtered, sorted, counted in SQL",
        params: reviewListingParamsSchema,
        querystring: reviewListingQuerySchema,
        response: {
          200: reviewListingResponseSchema,
          ...refusals({ 403: READER_REFUSALS[403], 404: NO_TABLE, 422: BAD_SORT }),
        },
      },
    },
    async (request) =>
      listReviewListing(
        db,
        principalOf(request),
        request.params.studyId,
        request.params.table,
        request.query,
        requestLanguage(request),
      ),
  );

  app.get(
    `${base}/:table/export`,
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary:
          'The filtered listing as CSV (UTF-8 with BOM, streamed) or XLSX, the columns shown (audited)',
        params: reviewListingParamsSchema,
        querystring: reviewListingExportQuerySchema,
        response: {
          200: fileAnswer('The listing as CSV or XLSX.', tableFileTypes),
          ...refusals({ 403: READER_REFUSALS[403], 404: NO_TABLE, 422: BAD_SORT }),
        },
      },
    },
    async (request, reply) => {
      const { studyId, table } = request.params;
      const download = await reviewListingDownload(
        db,
        principalOf(request),
        studyId,
        table,
        request.query,
        requestLanguage(request),
      );
      // Data leaving the system is audited, with the filters, before the first byte leaves.
      const { columns: _columns, format, ...filter } = request.query;
      await recordListExport(db, actorOf(request), studyId, 'review_listing.exported', {
        format,
        listing: table,
        filter,
        columns: download.itemKeys,
        rowCount: download.total,
      });
      const name = { studyCode: download.studyCode, today: download.today, what: `review_${table}` };
      return sendListExport(reply, format, name, download.file);
    },
  );

  app.post(
    `${base}/:table/review`,
    {
      config: { access: { study: 'review.mark' } },
      schema: {
        tags,
        summary:
          "Mark rows of a listing reviewed at their form's version now, all or nothing (CRA, DM; audited)",
        params: reviewListingParamsSchema,
        body: reviewMarkRequestSchema,
        response: {
          200: reviewMarkResponseSchema,
          ...refusals({
            403: 'The role may not mark rows reviewed (CRA and DM may) (`forbidden`).',
            404: 'No such listing, or a form instance that is not one with data of it at a site the caller covers (`not_found`).',
            423: HOLD_REFUSAL,
          }),
        },
      },
    },
    async (request) => {
      const { studyId, table } = request.params;
      const marked = await markReviewed(
        db,
        principalOf(request),
        actorOf(request),
        studyId,
        table,
        request.body,
      );
      return { marked };
    },
  );

  app.post(
    `${base}/bulk-queries`,
    {
      config: { access: { study: 'query.open' } },
      schema: {
        tags,
        summary: 'Raise one manual query per chosen item with one text, all or nothing (CRA, DM; audited)',
        params: studyParams,
        body: bulkRaiseQueriesRequestSchema,
        response: {
          201: bulkRaiseQueriesResponseSchema,
          ...refusals({
            403: 'The role may not raise queries on one of the subjects (`forbidden`).',
            404: 'One of the subjects, forms or visits is not one the caller sees (`not_found`).',
            409: 'One of the items already has an unresolved query (`review_query_exists`; `details.targets` names them, nothing was raised).',
            422: 'One of the items is not one of its form (`query_item_unknown`).',
            423: HOLD_REFUSAL,
          }),
        },
      },
    },
    async (request, reply) => {
      const queryIds = await raiseBulkQueries(
        db,
        principalOf(request),
        actorOf(request),
        request.params.studyId,
        request.body,
      );
      return reply.status(201).send({ queryIds });
    },
  );
}
