import {
  deleteSubjectRequestSchema,
  subjectExportQuerySchema,
  subjectListQuerySchema,
  subjectListResponseSchema,
} from '@cdms/contract';
import { z } from 'zod';
import type { AppContext } from '../app-context.ts';
import { actorOf, principalOf } from '../auth/authenticate.ts';
import { EXPORTER_REFUSAL } from '../data-exports/require-exporter.ts';
import { fileAnswer, tableFileTypes } from '../http/file-answer.ts';
import { requestLanguage } from '../http/language.ts';
import { studyParams, subjectParams } from '../http/path-params.ts';
import { refusals } from '../http/refusals.ts';
import type { App } from '../http/types.ts';
import { HOLD_REFUSAL } from '../locks/holds-in-force.ts';
import { recordListExport, sendListExport, subjectsCsv, subjectsXlsx } from '../subjects/subject-export.ts';
import { TRAINING_REFUSAL } from '../training-gate/training-gate.ts';
import { deleteSubject } from './delete-subject.ts';
import { listSubjectsPage, subjectDownload } from './subject-list.ts';

/** The subject list, its download and deleting a subject registered in error (issue 7). */
export function registerSubjectListRoutes(app: App, context: AppContext): void {
  const { db } = context.database;
  const tags = ['subjects'];

  app.get(
    '/api/studies/:studyId/subjects',
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary:
          "Subjects at the user's sites: filtered, sorted and paged, every column computed from the data",
        params: studyParams,
        querystring: subjectListQuerySchema,
        response: { 200: subjectListResponseSchema },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      return listSubjectsPage(db, principal, request.params.studyId, request.query);
    },
  );

  app.get(
    '/api/studies/:studyId/subjects/export',
    {
      config: { access: { study: 'data.export' } },
      schema: {
        tags,
        summary: 'The filtered subject list as CSV (UTF-8 with BOM) or XLSX (DM, ADMIN; audited)',
        params: studyParams,
        querystring: subjectExportQuerySchema,
        response: {
          200: fileAnswer('The subject list as CSV or XLSX.', tableFileTypes),
          ...refusals({ 403: EXPORTER_REFUSAL }),
        },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const { studyId } = request.params;
      const { format, ...filter } = request.query;
      const language = requestLanguage(request);
      const { chunks, studyCode, today, total } = await subjectDownload(db, principal, studyId, filter);
      // Who took which data out, with the filters used: data leaving the system is audited, before
      // the first byte leaves.
      await recordListExport(db, actorOf(request), studyId, 'subjects.exported', {
        format,
        filter,
        rowCount: total,
      });
      const file = format === 'csv' ? subjectsCsv(chunks, language) : await subjectsXlsx(chunks, language);
      return sendListExport(reply, format, { studyCode, today }, file);
    },
  );

  app.delete(
    '/api/studies/:studyId/subjects/:subjectId',
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary:
          'Delete a subject registered in error (PI, CRC of its site; with a reason): 409 subject_has_data',
        params: subjectParams,
        body: deleteSubjectRequestSchema,
        response: {
          204: z.null(),
          ...refusals({
            403: `The role may not delete this subject (the PI or CRC of its site may) (\`forbidden\`). ${TRAINING_REFUSAL}`,
            409: 'The subject has data beyond its registration (`subject_has_data`, `details` counts it).',
            423: HOLD_REFUSAL,
          }),
        },
      },
    },
    async (request, reply) => {
      await deleteSubject(db, principalOf(request), actorOf(request), {
        studyId: request.params.studyId,
        subjectId: request.params.subjectId,
        reason: request.body.reason,
      });
      return reply.status(204).send(null);
    },
  );
}
