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
import { actorOf, principalOf } from '../auth/authenticate.ts';
import { fileAnswer } from '../http/file-answer.ts';
import { studyParams } from '../http/path-params.ts';
import { refusals } from '../http/refusals.ts';
import { attachmentNamedInUtf8, sendDownload } from '../http/send-download.ts';
import type { App } from '../http/types.ts';
import { cancelExport } from './cancel-export.ts';
import { downloadExport } from './download-export.ts';
import type { ExportRunner } from './export-runner.ts';
import { listExports } from './list-exports.ts';
import { readExport } from './read-export.ts';
import { EXPORTER_REFUSAL } from './require-exporter.ts';
import { startExport } from './start-export.ts';

const exportParams = z.object({ studyId: paramIdSchema, exportId: paramIdSchema });

/** Data out (issue 16): export jobs of a study — start, list, progress, cancel, download (DM, ADMIN). */
export function registerDataExportRoutes(
  app: App,
  context: AppContext,
  runner: ExportRunner | undefined,
): void {
  const { db } = context.database;
  const tags = ['Data exports'];
  const base = '/api/studies/:studyId/data-exports';
  const NO_EXPORT = 'No such export in the study (`not_found`).';

  app.post(
    base,
    {
      config: { access: { study: 'data.export' } },
      schema: {
        tags,
        summary:
          'Queue an export of the study: scope, format, with or without audit trail (DM, ADMIN; audited)',
        params: studyParams,
        body: startDataExportRequestSchema,
        response: {
          201: dataExportSchema,
          ...refusals({
            403: EXPORTER_REFUSAL,
            422: 'Value labels or values as entered asked for with an ODM format (`data_export_labels_not_for_format`, `data_export_as_entered_not_for_format`), or sites or forms not of the study (`data_export_unknown_scope`, `details`).',
          }),
        },
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
      config: { access: { study: 'data.export' } },
      schema: {
        tags,
        summary: "The study's exports, newest first, paged",
        params: studyParams,
        querystring: dataExportsQuerySchema,
        response: { 200: dataExportsResponseSchema, ...refusals({ 403: EXPORTER_REFUSAL }) },
      },
    },
    async (request) => listExports(db, principalOf(request), request.params.studyId, request.query),
  );

  app.get(
    `${base}/:exportId`,
    {
      config: { access: { study: 'data.export' } },
      schema: {
        tags,
        summary: 'One export and its progress',
        params: exportParams,
        response: { 200: dataExportSchema, ...refusals({ 403: EXPORTER_REFUSAL, 404: NO_EXPORT }) },
      },
    },
    async (request) => readExport(db, principalOf(request), request.params.studyId, request.params.exportId),
  );

  app.post(
    `${base}/:exportId/cancel`,
    {
      config: { access: { study: 'data.export' } },
      schema: {
        tags,
        summary: 'Cancel a queued or running export; its partial output is deleted (audited)',
        params: exportParams,
        response: {
          200: dataExportSchema,
          ...refusals({
            403: EXPORTER_REFUSAL,
            404: NO_EXPORT,
            409: 'The export is no longer queued or running (`data_export_finished`).',
          }),
        },
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
      config: { access: { study: 'data.export' } },
      schema: {
        tags,
        summary: 'Download a finished export (streamed from the database; audited)',
        params: exportParams,
        response: {
          200: fileAnswer('The export file: ODM XML, or the tables as a CSV ZIP or XLSX.', [
            'application/xml',
            'application/zip',
            'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
          ]),
          ...refusals({
            403: EXPORTER_REFUSAL,
            404: NO_EXPORT,
            409: 'The export has not finished, or did not succeed (`data_export_not_ready`).',
          }),
        },
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
      return sendDownload(
        reply,
        file.contentType,
        attachmentNamedInUtf8(file.fileName),
        Readable.from(file.chunks),
      );
    },
  );
}
