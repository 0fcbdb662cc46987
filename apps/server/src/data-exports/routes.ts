import { Readable } from 'node:stream';
import {
  dataExportSchema,
  dataExportsQuerySchema,
  dataExportsResponseSchema,
  paramIdSchema,
  startDataExportRequestSchema,
} from '@cdms/contract';
import { z } from 'zod';
import type { AppContext } from '../app-context.ts';
import { actorOf, authenticate, principalOf } from '../auth/authenticate.ts';
import type { App } from '../http/types.ts';
import { cancelExport } from './cancel-export.ts';
import { downloadExport } from './download-export.ts';
import type { ExportRunner } from './export-runner.ts';
import { listExports } from './list-exports.ts';
import { readExport } from './read-export.ts';
import { startExport } from './start-export.ts';

const studyParams = z.object({ studyId: paramIdSchema });
const exportParams = z.object({ studyId: paramIdSchema, exportId: paramIdSchema });

/** Data out (issue 16): export jobs of a study — start, list, progress, cancel, download (DM, ADMIN). */
export function registerDataExportRoutes(
  app: App,
  context: AppContext,
  runner: ExportRunner | undefined,
): void {
  const { db } = context.database;
  const preHandler = authenticate(context);
  const tags = ['Data exports'];
  const base = '/api/studies/:studyId/data-exports';

  app.post(
    base,
    {
      preHandler,
      schema: {
        tags,
        summary:
          'Queue an export of the study: scope, format, with or without audit trail (DM, ADMIN; audited)',
        params: studyParams,
        body: startDataExportRequestSchema,
        response: { 201: dataExportSchema },
      },
    },
    async (request, reply) => {
      const started = await startExport(
        db,
        principalOf(request),
        actorOf(request),
        request.params.studyId,
        request.body,
      );
      runner?.kick();
      return reply.status(201).send(started);
    },
  );

  app.get(
    base,
    {
      preHandler,
      schema: {
        tags,
        summary: "The study's exports, newest first, paged",
        params: studyParams,
        querystring: dataExportsQuerySchema,
        response: { 200: dataExportsResponseSchema },
      },
    },
    async (request) => listExports(db, principalOf(request), request.params.studyId, request.query),
  );

  app.get(
    `${base}/:exportId`,
    {
      preHandler,
      schema: {
        tags,
        summary: 'One export and its progress',
        params: exportParams,
        response: { 200: dataExportSchema },
      },
    },
    async (request) => readExport(db, principalOf(request), request.params.studyId, request.params.exportId),
  );

  app.post(
    `${base}/:exportId/cancel`,
    {
      preHandler,
      schema: {
        tags,
        summary: 'Cancel a queued or running export; its partial output is deleted (audited)',
        params: exportParams,
        response: { 200: dataExportSchema },
      },
    },
    async (request) =>
      cancelExport(
        db,
        principalOf(request),
        actorOf(request),
        request.params.studyId,
        request.params.exportId,
      ),
  );

  app.get(
    `${base}/:exportId/download`,
    {
      preHandler,
      schema: {
        tags,
        summary: 'Download a finished export (streamed from the database; audited)',
        params: exportParams,
      },
    },
    async (request, reply) => {
      const file = await downloadExport(
        db,
        principalOf(request),
        actorOf(request),
        request.params.studyId,
        request.params.exportId,
      );
      const ascii = file.fileName.replace(/[^A-Za-z0-9._-]/g, '_');
      return reply
        .header('content-type', file.contentType)
        .header(
          'content-disposition',
          `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.fileName)}`,
        )
        .header('cache-control', 'no-store')
        .send(Readable.from(file.chunks));
    },
  );
}
