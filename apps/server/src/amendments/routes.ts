import {
  amendmentImpactResponseSchema,
  amendmentImpactRowsQuerySchema,
  amendmentImpactRowsResponseSchema,
  amendmentListResponseSchema,
  amendmentParamsSchema,
  amendmentQuerySchema,
  amendmentResponseSchema,
  changeAmendmentRequestSchema,
  discardAmendmentRequestSchema,
  openAmendmentRequestSchema,
  publishAmendmentRequestSchema,
} from '@cdms/contract';
import { z } from 'zod';
import type { AppContext } from '../app-context.ts';
import { actorOf, principalOf } from '../auth/authenticate.ts';
import { fileAnswer } from '../http/file-answer.ts';
import { requestLanguage } from '../http/language.ts';
import { studyParams } from '../http/path-params.ts';
import { refusals } from '../http/refusals.ts';
import { attachmentNamedInUtf8, sendDownload } from '../http/send-download.ts';
import type { App } from '../http/types.ts';
import { SIGNING_CREDENTIALS_REFUSAL } from '../signature-state/verify-signing-credentials.ts';
import { changeAmendment } from './change-amendment.ts';
import { discardAmendment } from './discard-amendment.ts';
import { openAmendment } from './open-amendment.ts';
import { publishAmendment } from './publish-amendment.ts';
import { listAmendments, readAmendment } from './read-amendment.ts';
import { readImpact, readImpactRows } from './read-impact.ts';
import { renderImpactPdf } from './render-impact-pdf.ts';
import { runImpactAnalysis } from './run-impact-analysis.ts';

const idResponse = z.object({ id: z.number().int() });
const NOT_DRAFT = 'The amendment is published or discarded (`amendment_not_draft`)';

/** Amendments of a live study (issue 49): opened, changed and discarded by its designers (DM, ADMIN). */
export function registerAmendmentRoutes(app: App, context: AppContext): void {
  const { db } = context.database;
  const tags = ['amendments'];

  app.get(
    '/api/studies/:studyId/amendments',
    {
      config: { access: { study: 'study.design' } },
      schema: {
        tags,
        summary: "The study's amendments, newest first, with their sites' approval dates",
        params: studyParams,
        response: { 200: amendmentListResponseSchema },
      },
    },
    async (request) => listAmendments(db, request.params.studyId),
  );

  app.post(
    '/api/studies/:studyId/amendments',
    {
      config: { access: { study: 'study.design' } },
      schema: {
        tags,
        summary: 'Open an amendment of the live study: its next version is drafted in the designer',
        params: studyParams,
        body: openAmendmentRequestSchema,
        response: {
          201: idResponse,
          ...refusals({
            409: 'The study is not live (`study_not_live`), another amendment is drafted (`amendment_draft_open`), or the number is used (`amendment_number_taken`).',
            422: "A site is not the study's (`unknown_site`) or named twice (`duplicate_site`).",
          }),
        },
      },
    },
    async (request, reply) => {
      const opened = await openAmendment(
        db,
        principalOf(request),
        actorOf(request),
        request.params.studyId,
        request.body,
      );
      return reply.code(201).send(opened);
    },
  );

  app.get(
    '/api/studies/:studyId/amendments/:amendmentId',
    {
      config: { access: { study: 'study.design' } },
      schema: {
        tags,
        summary: 'An amendment, its declarations and (a draft) its change set against the live version',
        params: amendmentParamsSchema,
        querystring: amendmentQuerySchema,
        response: { 200: amendmentResponseSchema },
      },
    },
    async (request) =>
      readAmendment(
        db,
        request.params.studyId,
        request.params.amendmentId,
        request.query.lang ?? requestLanguage(request),
      ),
  );

  app.put(
    '/api/studies/:studyId/amendments/:amendmentId',
    {
      config: { access: { study: 'study.design' } },
      schema: {
        tags,
        summary: "A draft amendment's number, reason, sites' approval dates and declarations",
        params: amendmentParamsSchema,
        body: changeAmendmentRequestSchema,
        response: {
          200: idResponse,
          ...refusals({
            409: `${NOT_DRAFT}, or the number is used (\`amendment_number_taken\`).`,
            422: "The declarations are not valid (`invalid_declarations`, each problem in `error.details.problems`), or a site is not the study's or named twice.",
          }),
        },
      },
    },
    async (request) =>
      changeAmendment(db, actorOf(request), request.params.studyId, request.params.amendmentId, request.body),
  );

  app.post(
    '/api/studies/:studyId/amendments/:amendmentId/publish',
    {
      config: { access: { study: 'study.design' } },
      schema: {
        tags,
        summary:
          "Publish a draft amendment with the designer's e-signature (approved): its version becomes the study's newest; subjects move by migration",
        params: amendmentParamsSchema,
        querystring: amendmentQuerySchema,
        body: publishAmendmentRequestSchema,
        response: {
          200: amendmentResponseSchema,
          ...refusals({
            409: `${NOT_DRAFT}, its change set is not ready (\`amendment_not_ready\`), or the impact analysis was not run on the draft as it is (\`amendment_impact_stale\`).`,
            422: SIGNING_CREDENTIALS_REFUSAL,
            429: 'Too many wrong passwords or codes in a row: wait (`too_many_signature_attempts`).',
          }),
        },
      },
    },
    async (request) => {
      const { studyId, amendmentId } = request.params;
      await publishAmendment(db, principalOf(request), actorOf(request), studyId, amendmentId, request.body);
      return readAmendment(db, studyId, amendmentId, request.query.lang ?? requestLanguage(request));
    },
  );

  app.post(
    '/api/studies/:studyId/amendments/:amendmentId/discard',
    {
      config: { access: { study: 'study.design' } },
      schema: {
        tags,
        summary: 'Discard a draft amendment with a reason: its design draft is removed, its record stays',
        params: amendmentParamsSchema,
        body: discardAmendmentRequestSchema,
        response: { 200: idResponse, ...refusals({ 409: `${NOT_DRAFT}.` }) },
      },
    },
    async (request) =>
      discardAmendment(
        db,
        actorOf(request),
        request.params.studyId,
        request.params.amendmentId,
        request.body.reason,
      ),
  );

  app.post(
    '/api/studies/:studyId/amendments/:amendmentId/impact',
    {
      config: { access: { study: 'study.design' } },
      schema: {
        tags,
        summary: "Analyze the draft amendment's impact on the stored data (replaces the last analysis)",
        description:
          'The next version run over every subject by the engine of data entry: values that move, are converted or ' +
          'retired; forms that become incomplete or complete; system queries that open or close; derived values; SDV ' +
          'marks and signatures invalidated; frozen or locked forms touched; subjects at sites not yet in effect.',
        params: amendmentParamsSchema,
        response: {
          200: amendmentImpactResponseSchema,
          ...refusals({
            409: `${NOT_DRAFT}, or it has open questions or refusals (\`amendment_not_ready\`).`,
          }),
        },
      },
    },
    async (request) =>
      runImpactAnalysis(db, principalOf(request), request.params.studyId, request.params.amendmentId),
  );

  app.get(
    '/api/studies/:studyId/amendments/:amendmentId/impact',
    {
      config: { access: { study: 'study.design' } },
      schema: {
        tags,
        summary: "The last impact analysis's counts per kind, and whether the draft has changed since",
        params: amendmentParamsSchema,
        response: { 200: amendmentImpactResponseSchema },
      },
    },
    async (request) => readImpact(db, request.params.studyId, request.params.amendmentId),
  );

  app.get(
    '/api/studies/:studyId/amendments/:amendmentId/impact/rows',
    {
      config: { access: { study: 'study.design' } },
      schema: {
        tags,
        summary:
          "The last impact analysis's rows: subject, visit, form, item, kind, before and after (paged)",
        params: amendmentParamsSchema,
        querystring: amendmentImpactRowsQuerySchema,
        response: { 200: amendmentImpactRowsResponseSchema },
      },
    },
    async (request) =>
      readImpactRows(
        db,
        request.params.studyId,
        request.params.amendmentId,
        request.query,
        request.query.lang ?? requestLanguage(request),
      ),
  );

  app.get(
    '/api/studies/:studyId/amendments/:amendmentId/impact.pdf',
    {
      config: { access: { study: 'study.design' } },
      schema: {
        tags,
        summary: "A draft amendment's change set and last impact analysis as a PDF (ko or en), to file",
        params: amendmentParamsSchema,
        querystring: amendmentQuerySchema,
        response: {
          200: fileAnswer('The impact analysis as PDF.', ['application/pdf']),
          ...refusals({ 409: `${NOT_DRAFT}.` }),
        },
      },
    },
    async (request, reply) => {
      const language = request.query.lang ?? requestLanguage(request);
      const { pdf, fileName } = await renderImpactPdf(
        db,
        request.params.studyId,
        request.params.amendmentId,
        language,
        new Date(),
      );
      return sendDownload(reply, 'application/pdf', attachmentNamedInUtf8(fileName), pdf);
    },
  );
}
