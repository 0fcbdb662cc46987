import {
  changeSaeAwarenessRequestSchema,
  saeExportQuerySchema,
  saeListQuerySchema,
  saeListResponseSchema,
  saeReportParamsSchema,
  saeReportSchema,
  saeRowVersionRequestSchema,
  saveSaeDraftRequestSchema,
  submitSaeReportRequestSchema,
} from '@cdms/contract';
import type { AppContext } from '../app-context.ts';
import { actorOf, principalOf } from '../auth/authenticate.ts';
import { fileAnswer } from '../http/file-answer.ts';
import { requestLanguage } from '../http/language.ts';
import { studyParams } from '../http/path-params.ts';
import { refusals } from '../http/refusals.ts';
import { attachmentNamed, sendDownload } from '../http/send-download.ts';
import type { App } from '../http/types.ts';
import { SIGNING_CREDENTIALS_REFUSAL } from '../signature-state/verify-signing-credentials.ts';
import { TRAINING_REFUSAL } from '../training-gate/training-gate.ts';
import { acknowledgeSaeReport } from './acknowledge-sae-report.ts';
import { changeSaeAwareness } from './change-sae-awareness.ts';
import { exportCiomsPdf, exportE2bXml } from './export-sae-report.ts';
import { listSaeReports } from './list-sae-reports.ts';
import { readSaeReport } from './read-sae-report.ts';
import { saveSaeDraft } from './save-sae-draft.ts';
import { startSaeFollowUp } from './start-sae-follow-up.ts';
import { submitSaeReport } from './submit-sae-report.ts';

const NOT_FOUND = 'No such report, or one of a site the caller does not cover (`not_found`).';
const STALE =
  'Someone changed the report first (`sae_version_conflict`), or its state does not allow this (`sae_state_conflict`).';
const READ_403 = 'The role may not read SAE reports (`forbidden`).';

/** Issue 51 item 1: the SAE fast path — the reports, their drafts, the PI's signed submission, follow-ups, acknowledgement. */
export function registerSaeRoutes(app: App, context: AppContext): void {
  const { db } = context.database;
  const tags = ['SAE reports'];
  const base = '/api/studies/:studyId/sae-reports';
  const one = `${base}/:reportId`;

  app.get(
    base,
    {
      config: { access: { study: 'sae.read' } },
      schema: {
        tags,
        summary:
          "A page of the study's SAE reports the caller may read: by status, site, overdue (not submitted past due)",
        params: studyParams,
        querystring: saeListQuerySchema,
        response: { 200: saeListResponseSchema, ...refusals({ 403: READ_403 }) },
      },
    },
    async (request) => listSaeReports(db, principalOf(request), request.params.studyId, request.query),
  );

  app.get(
    one,
    {
      config: { access: { study: 'sae.read' } },
      schema: {
        tags,
        summary: 'One SAE report with every version (initial and follow-ups) and what the caller may do',
        params: saeReportParamsSchema,
        response: { 200: saeReportSchema, ...refusals({ 403: READ_403, 404: NOT_FOUND }) },
      },
    },
    async (request) =>
      readSaeReport(db, principalOf(request), request.params.studyId, request.params.reportId),
  );

  app.put(
    `${one}/draft`,
    {
      config: { access: { study: 'sae.read' } },
      schema: {
        tags,
        summary: "The site saves the current version's draft (PI, SI, CRC; audited with the fields changed)",
        params: saeReportParamsSchema,
        body: saveSaeDraftRequestSchema,
        response: {
          200: saeReportSchema,
          ...refusals({
            403: `The role may not write SAE reports (\`forbidden\`). ${TRAINING_REFUSAL}`,
            404: NOT_FOUND,
            409: STALE,
          }),
        },
      },
    },
    async (request) =>
      saveSaeDraft(db, principalOf(request), actorOf(request), {
        studyId: request.params.studyId,
        reportId: request.params.reportId,
        rowVersion: request.body.rowVersion,
        content: request.body.content,
      }),
  );

  app.put(
    `${one}/awareness`,
    {
      config: { access: { study: 'sae.read' } },
      schema: {
        tags,
        summary: 'The site corrects when it learned of the event, with a reason; the due time moves with it',
        params: saeReportParamsSchema,
        body: changeSaeAwarenessRequestSchema,
        response: {
          200: saeReportSchema,
          ...refusals({
            403: `The role may not write SAE reports (\`forbidden\`). ${TRAINING_REFUSAL}`,
            404: NOT_FOUND,
            409: STALE,
            422: 'The awareness time is in the future (`sae_awareness_invalid`).',
          }),
        },
      },
    },
    async (request) =>
      changeSaeAwareness(db, principalOf(request), actorOf(request), {
        studyId: request.params.studyId,
        reportId: request.params.reportId,
        rowVersion: request.body.rowVersion,
        awarenessAt: request.body.awarenessAt,
        reason: request.body.reason,
      }),
  );

  app.post(
    `${one}/submission`,
    {
      config: { access: { study: 'sae.read' } },
      schema: {
        tags,
        summary:
          "The site's PI submits the current version with an electronic signature (password again): 422 signature_password_incorrect",
        params: saeReportParamsSchema,
        body: submitSaeReportRequestSchema,
        response: {
          200: saeReportSchema,
          ...refusals({
            403: `Only the site's PI submits (\`forbidden\`). ${TRAINING_REFUSAL}`,
            404: NOT_FOUND,
            409: STALE,
            422: SIGNING_CREDENTIALS_REFUSAL,
            429: 'Too many wrong passwords or codes in a row: wait (`too_many_signature_attempts`).',
          }),
        },
      },
    },
    async (request) =>
      submitSaeReport(db, principalOf(request), actorOf(request), {
        studyId: request.params.studyId,
        reportId: request.params.reportId,
        rowVersion: request.body.rowVersion,
        password: request.body.password,
        code: request.body.code,
      }),
  );

  app.post(
    `${one}/follow-ups`,
    {
      config: { access: { study: 'sae.read' } },
      schema: {
        tags,
        summary: 'The site starts a follow-up: a new draft version holding a copy of the last submitted one',
        params: saeReportParamsSchema,
        body: saeRowVersionRequestSchema,
        response: {
          201: saeReportSchema,
          ...refusals({
            403: `The role may not write SAE reports (\`forbidden\`). ${TRAINING_REFUSAL}`,
            404: NOT_FOUND,
            409: STALE,
          }),
        },
      },
    },
    async (request, reply) =>
      reply.status(201).send(
        await startSaeFollowUp(db, principalOf(request), actorOf(request), {
          studyId: request.params.studyId,
          reportId: request.params.reportId,
          rowVersion: request.body.rowVersion,
        }),
      ),
  );

  app.post(
    `${one}/acknowledgement`,
    {
      config: { access: { study: 'sae.read' } },
      schema: {
        tags,
        summary: "The sponsor's safety desk acknowledges receipt of the submitted version",
        params: saeReportParamsSchema,
        body: saeRowVersionRequestSchema,
        response: {
          200: saeReportSchema,
          ...refusals({
            403: 'Only the safety desk acknowledges (`forbidden`).',
            404: NOT_FOUND,
            409: STALE,
          }),
        },
      },
    },
    async (request) =>
      acknowledgeSaeReport(db, principalOf(request), actorOf(request), {
        studyId: request.params.studyId,
        reportId: request.params.reportId,
        rowVersion: request.body.rowVersion,
      }),
  );

  app.get(
    `${one}/cioms.pdf`,
    {
      config: { access: { study: 'sae.read' } },
      schema: {
        tags,
        summary:
          'One version (the current one unless `version`) as a CIOMS-I-style PDF, Korean or English (audited)',
        params: saeReportParamsSchema,
        querystring: saeExportQuerySchema,
        response: {
          200: fileAnswer('The CIOMS-I-style form as PDF.', ['application/pdf']),
          ...refusals({ 403: READ_403, 404: `${NOT_FOUND} Or no such version.` }),
        },
      },
    },
    async (request, reply) => {
      const { pdf, fileName } = await exportCiomsPdf(db, principalOf(request), actorOf(request), {
        studyId: request.params.studyId,
        reportId: request.params.reportId,
        version: request.query.version,
        language: request.query.lang ?? requestLanguage(request),
      });
      return sendDownload(reply, 'application/pdf', attachmentNamed(fileName), pdf);
    },
  );

  app.get(
    `${one}/e2b.xml`,
    {
      config: { access: { study: 'sae.read' } },
      schema: {
        tags,
        summary: 'One version as an E2B(R3)-shaped ICSR (MCCI_IN200100UV01 around PORR_IN049016UV; audited)',
        params: saeReportParamsSchema,
        querystring: saeExportQuerySchema,
        response: {
          200: fileAnswer('The ICSR as XML.', ['application/xml']),
          ...refusals({ 403: READ_403, 404: `${NOT_FOUND} Or no such version.` }),
        },
      },
    },
    async (request, reply) => {
      const { xml, fileName } = await exportE2bXml(db, principalOf(request), actorOf(request), {
        studyId: request.params.studyId,
        reportId: request.params.reportId,
        version: request.query.version,
        language: requestLanguage(request),
      });
      return sendDownload(reply, 'application/xml; charset=utf-8', attachmentNamed(fileName), xml);
    },
  );
}
