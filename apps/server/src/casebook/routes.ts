import { type CasebookQuery, casebookQuerySchema, paramIdSchema } from '@cdms/contract';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../app-context.ts';
import { actorOf, principalOf } from '../auth/authenticate.ts';
import { fileAnswer } from '../http/file-answer.ts';
import { requestLanguage } from '../http/language.ts';
import { subjectParams } from '../http/path-params.ts';
import { refusals } from '../http/refusals.ts';
import { attachmentNamed, sendDownload } from '../http/send-download.ts';
import type { App } from '../http/types.ts';
import { exportSiteCasebooks } from './export-site-casebooks.ts';
import { exportSubjectCasebook } from './export-subject-casebook.ts';

const siteParams = z.object({ studyId: paramIdSchema, siteId: paramIdSchema });

/** The ?lang= and ?audit=1 of both casebook routes: the PDF of one subject and the ZIP of a site are the same pages. */
function casebookOptions(request: Pick<FastifyRequest, 'headers'> & { query: CasebookQuery }) {
  return {
    language: request.query.lang ?? requestLanguage(request),
    withAudit: request.query.audit === '1',
  };
}

/** The casebook PDF of a subject and the ZIP of a site's casebooks (issue 16 "Data out", item 4). */
export function registerCasebookRoutes(app: App, context: AppContext): void {
  const { db } = context.database;
  const tags = ['casebook'];

  app.get(
    '/api/studies/:studyId/subjects/:subjectId/casebook.pdf',
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary:
          "One subject's casebook as PDF: cover, visits and forms, queries, SDV and hold marks, optional audit trail, §11.50 signature (anyone who may read the subject; audited)",
        params: subjectParams,
        querystring: casebookQuerySchema,
        response: { 200: fileAnswer('The casebook as PDF.', ['application/pdf']) },
      },
    },
    async (request, reply) => {
      const { pdf, fileName } = await exportSubjectCasebook(
        db,
        principalOf(request),
        actorOf(request),
        request.params.studyId,
        request.params.subjectId,
        casebookOptions(request),
      );
      return sendDownload(reply, 'application/pdf', attachmentNamed(fileName), pdf);
    },
  );

  app.get(
    '/api/studies/:studyId/sites/:siteId/casebooks.zip',
    {
      config: { access: { study: 'data.export' } },
      schema: {
        tags,
        summary: "Every subject's casebook PDF of one site as a streamed ZIP (DM, ADMIN; audited)",
        params: siteParams,
        querystring: casebookQuerySchema,
        response: {
          200: fileAnswer('The casebooks as a ZIP of PDFs.', ['application/zip']),
          ...refusals({
            403: 'The role may not export data (DM and ADMIN may) (`forbidden`).',
            404: 'No such site in the study, or the study has no definition yet (`not_found`).',
          }),
        },
      },
    },
    async (request, reply) => {
      const { zip, fileName } = await exportSiteCasebooks(
        db,
        principalOf(request),
        actorOf(request),
        request.params.studyId,
        request.params.siteId,
        casebookOptions(request),
      );
      return sendDownload(reply, 'application/zip', attachmentNamed(fileName), zip);
    },
  );
}
