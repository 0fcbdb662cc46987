import {
  answerQueryRequestSchema,
  bulkQueryRequestSchema,
  bulkQueryResponseSchema,
  cancelQueryRequestSchema,
  closeQueryRequestSchema,
  commentQueryRequestSchema,
  createQueryRequestSchema,
  paramIdSchema,
  queryDetailSchema,
  queryExportQuerySchema,
  queryListQuerySchema,
  queryListResponseSchema,
  reopenQueryRequestSchema,
} from '@cdms/contract';
import { z } from 'zod';
import type { AppContext } from '../app-context.ts';
import { actorOf, principalOf } from '../auth/authenticate.ts';
import { fileAnswer, tableFileTypes } from '../http/file-answer.ts';
import { requestLanguage } from '../http/language.ts';
import { studyParams } from '../http/path-params.ts';
import { refusals } from '../http/refusals.ts';
import type { App } from '../http/types.ts';
import { HOLD_REFUSAL } from '../locks/holds-in-force.ts';
import { recordListExport, sendListExport } from '../subjects/subject-export.ts';
import { TRAINING_REFUSAL } from '../training-gate/training-gate.ts';
import { READER_REFUSALS } from '../visit-alarms/reader-scope.ts';
import { actOnQuery } from './act-on-query.ts';
import { bulkQueryAction } from './bulk-query-action.ts';
import { createQuery } from './create-query.ts';
import { queriesCsv, queriesXlsx, queryDownload } from './export-queries.ts';
import { listQueries } from './list-queries.ts';
import { queryDetail } from './query-detail.ts';
import type { QueryAction } from './query-workflow.ts';

const queryParams = z.object({ studyId: paramIdSchema, queryId: paramIdSchema });

/** Queries (issue 14): the list, its download, one query's thread, raising one, the five actions, bulk. */
export function registerQueryRoutes(app: App, context: AppContext): void {
  const { db } = context.database;
  const tags = ['queries'];
  const base = '/api/studies/:studyId/queries';
  const NO_QUERY = 'No such query, or one on a subject the caller does not see (`not_found`).';

  app.get(
    base,
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary:
          "Queries at the reader's sites: filtered, sorted and paged (default: unresolved, oldest first)",
        params: studyParams,
        querystring: queryListQuerySchema,
        response: { 200: queryListResponseSchema, ...refusals(READER_REFUSALS) },
      },
    },
    async (request) => listQueries(db, principalOf(request), request.params.studyId, request.query),
  );

  app.get(
    `${base}/export`,
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary: 'The filtered query list as CSV (UTF-8 with BOM) or XLSX (audited)',
        params: studyParams,
        querystring: queryExportQuerySchema,
        response: {
          200: fileAnswer('The query list as CSV or XLSX.', tableFileTypes),
          ...refusals(READER_REFUSALS),
        },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const { studyId } = request.params;
      const { format, ...filter } = request.query;
      const language = requestLanguage(request);
      const { chunks, studyCode, today, total } = await queryDownload(db, principal, studyId, filter);
      // Data leaving the system is audited, with the filters, before the first byte leaves.
      await recordListExport(db, actorOf(request), studyId, 'queries.exported', {
        format,
        filter,
        rowCount: total,
      });
      const file = format === 'csv' ? queriesCsv(chunks, language) : await queriesXlsx(chunks, language);
      return sendListExport(reply, format, { studyCode, today, what: 'queries' }, file);
    },
  );

  app.post(
    base,
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary: 'Raise a manual query on an item or a whole form (CRA, DM in scope)',
        params: studyParams,
        body: createQueryRequestSchema,
        response: {
          201: queryDetailSchema,
          ...refusals({
            403: 'The role may not raise queries on this subject (`forbidden`).',
            404: 'No such subject, form or visit the caller sees (`not_found`).',
            422: 'The item is not one of the form (`query_item_unknown`).',
            423: HOLD_REFUSAL,
          }),
        },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const { studyId } = request.params;
      const id = await createQuery(db, principal, actorOf(request), studyId, request.body);
      return reply.status(201).send(await queryDetail(db, principal, studyId, id));
    },
  );

  app.post(
    `${base}/bulk`,
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary: 'Close or cancel many queries with one reason, all or nothing (CRA, DM)',
        params: studyParams,
        body: bulkQueryRequestSchema,
        response: {
          200: bulkQueryResponseSchema,
          ...refusals({
            403: 'The role may not take this action on one of the queries (`forbidden`).',
            404: 'One of the queries is not one the caller sees (`not_found`).',
            409: 'The state of one of the queries does not allow the action (`query_state_conflict`; `details.queries` names them, nothing was changed).',
          }),
        },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const { studyId } = request.params;
      return { updated: await bulkQueryAction(db, principal, actorOf(request), studyId, request.body) };
    },
  );

  app.get(
    `${base}/:queryId`,
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary: 'One query with its thread and the actions the reader may take',
        params: queryParams,
        response: { 200: queryDetailSchema, ...refusals({ 404: NO_QUERY }) },
      },
    },
    async (request) => queryDetail(db, principalOf(request), request.params.studyId, request.params.queryId),
  );

  const actions: {
    action: QueryAction;
    body: z.ZodType;
    summary: string;
    refused?: Parameters<typeof refusals>[0];
  }[] = [
    { action: 'answer', body: answerQueryRequestSchema, summary: 'The site answers (PI, SI, CRC)' },
    { action: 'comment', body: commentQueryRequestSchema, summary: 'A message that keeps the state' },
    {
      action: 'close',
      body: closeQueryRequestSchema,
      summary: 'Close (CRA, DM); a system query whose check still fails needs a reason (422)',
      refused: {
        422: 'A system query whose check still fails is closed only with a reason (`query_reason_required`).',
      },
    },
    {
      action: 'cancel',
      body: cancelQueryRequestSchema,
      summary: 'Withdraw a manual query raised in error (CRA, DM)',
      refused: { 422: 'A system query cannot be withdrawn (`system_query_not_cancellable`).' },
    },
    {
      action: 'reopen',
      body: reopenQueryRequestSchema,
      summary: 'Send back to open, with a message (CRA, DM)',
    },
  ];
  for (const { action, body, summary, refused } of actions) {
    app.post(
      `${base}/:queryId/${action}`,
      {
        config: { access: { study: 'member' } },
        schema: {
          tags,
          summary: `${summary}; 409 query_state_conflict when the state does not allow it`,
          params: queryParams,
          body,
          response: {
            200: queryDetailSchema,
            ...refusals({
              403: `The role may not take this action on the query (\`forbidden\`). ${TRAINING_REFUSAL}`,
              404: NO_QUERY,
              409: 'The state of the query does not allow the action, or another open query stands on the item (`query_state_conflict`, `details`).',
              423: HOLD_REFUSAL,
              ...refused,
            }),
          },
        },
      },
      async (request) => {
        const principal = principalOf(request);
        const { studyId, queryId } = request.params;
        await actOnQuery(
          db,
          principal,
          actorOf(request),
          studyId,
          queryId,
          action,
          request.body as { text?: string; proposedValue?: string | number | boolean | null },
        );
        return queryDetail(db, principal, studyId, queryId);
      },
    );
  }
}
