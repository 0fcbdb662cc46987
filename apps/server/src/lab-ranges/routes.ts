import {
  labRangeRequestSchema,
  labRangeSchema,
  labRangesQuerySchema,
  labRangesResponseSchema,
  labResultsDownloadQuerySchema,
  labResultsQuerySchema,
  labResultsResponseSchema,
  paramIdSchema,
  todayInKorea,
} from '@cdms/contract';
import { z } from 'zod';
import type { AppContext } from '../app-context.ts';
import { actorOf, principalOf } from '../auth/authenticate.ts';
import { authorize } from '../auth/authorize.ts';
import type { Principal } from '../auth/principal.ts';
import { AppError } from '../http/errors.ts';
import { fileAnswer, tableFileTypes } from '../http/file-answer.ts';
import { requestLanguage } from '../http/language.ts';
import { studyParams } from '../http/path-params.ts';
import { refusals } from '../http/refusals.ts';
import type { App } from '../http/types.ts';
import { readStudyCode } from '../studies/study-code.ts';
import { currentStudyDefinition } from '../studies/study-definitions.ts';
import { recordListExport, sendListExport } from '../subjects/subject-export.ts';
import { labResultsFile } from './export-lab-results.ts';
import { listLabRanges } from './list-lab-ranges.ts';
import { listLabResults } from './list-lab-results.ts';
import { retireLabRange } from './retire-lab-range.ts';
import { saveLabRange } from './save-lab-range.ts';

/** The refusal of a range's values: one wording for adding and changing it. */
const RANGE_REFUSAL =
  'A range with neither limit, a low limit above the high one or ages the wrong way round (`lab_range_invalid`), a test the study does not have (`unknown_lab_test`) or a site not of the study (`unknown_site`).';

/** Issue 17 item 3: the sites' lab normal ranges and the results outside them. */
export function registerLabRangeRoutes(app: App, context: AppContext): void {
  const { db } = context.database;
  const tags = ['lab'];
  const rangeParams = z.object({ studyId: paramIdSchema, rangeId: paramIdSchema });
  const MANAGER_ONLY = 'The role may not manage normal ranges (DM and ADMIN may) (`forbidden`).';

  async function definitionFor(principal: Principal, studyId: number) {
    authorize(principal, 'member', { studyId });
    const current = await currentStudyDefinition(db, studyId);
    if (!current) throw new AppError(404, 'not_found');
    return current.definition;
  }

  app.get(
    '/api/studies/:studyId/lab-ranges',
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary: 'Normal ranges of the reader’s sites',
        params: studyParams,
        querystring: labRangesQuerySchema,
        response: { 200: labRangesResponseSchema },
      },
    },
    async (request) =>
      listLabRanges(db, principalOf(request), request.params.studyId, {
        siteId: request.query.siteId,
        retired: request.query.retired === 'true',
      }),
  );

  app.post(
    '/api/studies/:studyId/lab-ranges',
    {
      config: { access: { study: 'lab.manage' } },
      schema: {
        tags,
        summary: 'Add a normal range (DM, ADMIN; audited)',
        params: studyParams,
        body: labRangeRequestSchema,
        response: {
          201: labRangeSchema,
          ...refusals({
            403: MANAGER_ONLY,
            422: RANGE_REFUSAL,
          }),
        },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const definition = await definitionFor(principal, request.params.studyId);
      const range = await saveLabRange(db, principal, actorOf(request), {
        studyId: request.params.studyId,
        definition,
        request: request.body,
      });
      return reply.status(201).send(range);
    },
  );

  app.put(
    '/api/studies/:studyId/lab-ranges/:rangeId',
    {
      config: { access: { study: 'lab.manage' } },
      schema: {
        tags,
        summary: 'Change a normal range (DM, ADMIN; audited with before and after)',
        params: rangeParams,
        body: labRangeRequestSchema,
        response: {
          200: labRangeSchema,
          ...refusals({
            403: MANAGER_ONLY,
            404: 'No such range in the study (`not_found`).',
            409: 'The range is retired (`lab_range_retired`).',
            422: RANGE_REFUSAL,
          }),
        },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const definition = await definitionFor(principal, request.params.studyId);
      return saveLabRange(db, principal, actorOf(request), {
        studyId: request.params.studyId,
        definition,
        rangeId: request.params.rangeId,
        request: request.body,
      });
    },
  );

  app.post(
    '/api/studies/:studyId/lab-ranges/:rangeId/retire',
    {
      config: { access: { study: 'lab.manage' } },
      schema: {
        tags,
        summary: 'Retire a normal range: no longer applied, kept for the record (DM, ADMIN; audited)',
        params: rangeParams,
        response: {
          200: labRangeSchema,
          ...refusals({
            403: MANAGER_ONLY,
            404: 'No such range in the study (`not_found`).',
            409: 'The range is retired already (`lab_range_retired`).',
          }),
        },
      },
    },
    async (request) =>
      retireLabRange(
        db,
        principalOf(request),
        actorOf(request),
        request.params.studyId,
        request.params.rangeId,
      ),
  );

  app.get(
    '/api/studies/:studyId/lab-results',
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary: 'Lab results outside the site’s normal range or clinically significant, paged',
        params: studyParams,
        querystring: labResultsQuerySchema,
        response: { 200: labResultsResponseSchema },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const definition = await definitionFor(principal, request.params.studyId);
      return listLabResults(db, principal, request.params.studyId, definition, request.query);
    },
  );

  app.get(
    '/api/studies/:studyId/lab-results/download',
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary: 'The abnormal lab results listing as CSV (UTF-8 with BOM) or XLSX, every row (audited)',
        params: studyParams,
        querystring: labResultsDownloadQuerySchema,
        response: { 200: fileAnswer('The listing as CSV or XLSX.', tableFileTypes) },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const { studyId } = request.params;
      const { format, ...filters } = request.query;
      const definition = await definitionFor(principal, studyId);
      const studyCode = await readStudyCode(db, studyId);
      // Data leaving the system is audited, with its filters, before the first byte leaves.
      await recordListExport(db, actorOf(request), studyId, 'lab_results.exported', {
        format,
        filter: filters,
      });
      const file = await labResultsFile(
        db,
        principal,
        studyId,
        definition,
        filters,
        format,
        requestLanguage(request),
      );
      const name = { studyCode, today: todayInKorea(), what: 'lab_results' };
      return sendListExport(reply, format, name, file);
    },
  );
}
