import {
  paramIdSchema,
  trainingListResponseSchema,
  trainingMatrixQuerySchema,
  trainingMatrixResponseSchema,
  trainingModuleDetailSchema,
  trainingModuleRequestSchema,
  trainingQuizSubmissionSchema,
  trainingResultSchema,
  trainingSettingsRequestSchema,
  trainingSettingsSchema,
} from '@cdms/contract';
import { z } from 'zod';
import type { AppContext } from '../app-context.ts';
import { actorOf, principalOf } from '../auth/authenticate.ts';
import { fileAnswer } from '../http/file-answer.ts';
import { requestLanguage } from '../http/language.ts';
import { studyParams } from '../http/path-params.ts';
import { refusals } from '../http/refusals.ts';
import { attachmentNamed, sendDownload } from '../http/send-download.ts';
import type { App } from '../http/types.ts';
import { completeTraining } from './complete-training.ts';
import { completionMatrix } from './completion-matrix.ts';
import { exportCompletionMatrix } from './export-completion-matrix.ts';
import { exportTrainingCertificate } from './export-training-certificate.ts';
import { exportTrainingRecord } from './export-training-record.ts';
import { listTraining } from './list-training.ts';
import { readTrainingModule } from './read-training-module.ts';
import { saveTrainingModule } from './save-training-module.ts';
import { submitTrainingQuiz } from './submit-training-quiz.ts';
import { updateTrainingSettings } from './update-training-settings.ts';

/** Issue 18 item 5: eTraining — modules, completions, certificates, the completion matrix and the gate. */
export function registerTrainingRoutes(app: App, context: AppContext): void {
  const { db } = context.database;
  const tags = ['training'];
  const base = '/api/studies/:studyId/training';
  const MANAGER_ONLY = 'The role may not manage training (DM and ADMIN may) (`forbidden`).';
  const NO_MODULE = 'No such module, or one the caller may not see (`not_found`).';
  const MODULE_INVALID =
    'No content (`content_required`), a quiz whose right answer is not one of its options (`training_quiz_invalid`), ' +
    "or attachments that are not the caller's uploads in this study (`attachment_unknown`).";
  const moduleParams = z.object({ studyId: paramIdSchema, moduleId: paramIdSchema });

  app.get(
    base,
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary: 'The reader’s required training modules with their standing (managers: every module)',
        params: studyParams,
        response: { 200: trainingListResponseSchema },
      },
    },
    async (request) => listTraining(db, principalOf(request), request.params.studyId),
  );

  app.post(
    `${base}/modules`,
    {
      config: { access: { study: 'training.manage' } },
      schema: {
        tags,
        summary: 'Add a training module (DM, ADMIN; audited)',
        params: studyParams,
        body: trainingModuleRequestSchema,
        response: {
          201: trainingModuleDetailSchema,
          ...refusals({ 403: MANAGER_ONLY, 422: MODULE_INVALID }),
        },
      },
    },
    async (request, reply) => {
      const module = await saveTrainingModule(db, principalOf(request), actorOf(request), {
        studyId: request.params.studyId,
        request: request.body,
      });
      return reply.status(201).send(module);
    },
  );

  app.get(
    `${base}/modules/:moduleId`,
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary: 'One training module to read (a quiz without its answers)',
        params: moduleParams,
        response: { 200: trainingModuleDetailSchema, ...refusals({ 404: NO_MODULE }) },
      },
    },
    async (request) =>
      readTrainingModule(db, principalOf(request), request.params.studyId, request.params.moduleId),
  );

  app.put(
    `${base}/modules/:moduleId`,
    {
      config: { access: { study: 'training.manage' } },
      schema: {
        tags,
        summary:
          'Change a training module; a content change of a published one bumps its version (DM, ADMIN; audited)',
        params: moduleParams,
        body: trainingModuleRequestSchema,
        response: {
          200: trainingModuleDetailSchema,
          ...refusals({ 403: MANAGER_ONLY, 404: NO_MODULE, 422: MODULE_INVALID }),
        },
      },
    },
    async (request) =>
      saveTrainingModule(db, principalOf(request), actorOf(request), {
        studyId: request.params.studyId,
        moduleId: request.params.moduleId,
        request: request.body,
      }),
  );

  app.post(
    `${base}/modules/:moduleId/complete`,
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary: 'Mark a module without a quiz as read and completed (audited)',
        params: moduleParams,
        response: {
          200: trainingResultSchema,
          ...refusals({
            404: NO_MODULE,
            409: 'The module is not published (`training_not_published`), or has a quiz to pass instead (`training_quiz_required`).',
          }),
        },
      },
    },
    async (request) =>
      completeTraining(
        db,
        principalOf(request),
        actorOf(request),
        request.params.studyId,
        request.params.moduleId,
      ),
  );

  app.post(
    `${base}/modules/:moduleId/quiz`,
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary: 'Submit the quiz: checked on the server; passing completes the module (audited)',
        params: moduleParams,
        body: trainingQuizSubmissionSchema,
        response: {
          200: trainingResultSchema,
          ...refusals({
            404: NO_MODULE,
            409: 'The module is not published (`training_not_published`) or has no quiz (`training_no_quiz`).',
            422: "The answers do not fit the quiz's questions (`training_quiz_answers`).",
          }),
        },
      },
    },
    async (request) =>
      submitTrainingQuiz(
        db,
        principalOf(request),
        actorOf(request),
        request.params.studyId,
        request.params.moduleId,
        request.body,
      ),
  );

  app.get(
    `${base}/modules/:moduleId/certificate.pdf`,
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary: 'The reader’s certificate of the module’s current version as PDF (audited)',
        params: moduleParams,
        querystring: z.object({ lang: z.enum(['ko', 'en']).optional() }),
        response: {
          200: fileAnswer('The certificate as PDF.', ['application/pdf']),
          ...refusals({
            404: NO_MODULE,
            409: "The caller has not completed the module's current version (`training_not_completed`).",
          }),
        },
      },
    },
    async (request, reply) => {
      const { pdf, fileName } = await exportTrainingCertificate(
        db,
        principalOf(request),
        actorOf(request),
        request.params.studyId,
        request.params.moduleId,
        request.query.lang ?? requestLanguage(request),
      );
      return sendDownload(reply, 'application/pdf', attachmentNamed(fileName), pdf);
    },
  );

  const recordAnswers = (forMember: boolean) => ({
    200: fileAnswer('The certificate as PDF.', ['application/pdf']),
    ...refusals({
      ...(forMember ? { 403: MANAGER_ONLY } : {}),
      404: forMember
        ? 'No such study or member, or the caller is not a member of the study (`not_found`).'
        : 'No such study, or the caller is not one of its members (`not_found`).',
      409: 'No module of the study completed at its current version (`training_not_completed`).',
    }),
  });
  const recordQuery = z.object({ lang: z.enum(['ko', 'en']).optional() });

  app.get(
    `${base}/certificate.pdf`,
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary:
          'The reader’s certificate of every module completed at its current version, as PDF (audited)',
        params: studyParams,
        querystring: recordQuery,
        response: recordAnswers(false),
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const { pdf, fileName } = await exportTrainingRecord(
        db,
        principal,
        actorOf(request),
        request.params.studyId,
        principal.user.id,
        request.query.lang ?? requestLanguage(request),
      );
      return sendDownload(reply, 'application/pdf', attachmentNamed(fileName), pdf);
    },
  );

  app.get(
    `${base}/members/:userId/certificate.pdf`,
    {
      config: { access: { study: 'training.manage' } },
      schema: {
        tags,
        summary:
          'A member’s certificate of every module completed at its current version, as PDF (DM, ADMIN; audited)',
        params: studyParams.extend({ userId: paramIdSchema }),
        querystring: recordQuery,
        response: recordAnswers(true),
      },
    },
    async (request, reply) => {
      const { pdf, fileName } = await exportTrainingRecord(
        db,
        principalOf(request),
        actorOf(request),
        request.params.studyId,
        request.params.userId,
        request.query.lang ?? requestLanguage(request),
      );
      return sendDownload(reply, 'application/pdf', attachmentNamed(fileName), pdf);
    },
  );

  app.get(
    `${base}/matrix`,
    {
      config: { access: { study: 'training.manage' } },
      schema: {
        tags,
        summary: 'Completion matrix: members × published modules, filtered and paged (DM, ADMIN)',
        params: studyParams,
        querystring: trainingMatrixQuerySchema,
        response: { 200: trainingMatrixResponseSchema, ...refusals({ 403: MANAGER_ONLY }) },
      },
    },
    async (request) => completionMatrix(db, principalOf(request), request.params.studyId, request.query),
  );

  app.get(
    `${base}/matrix/download`,
    {
      config: { access: { study: 'training.manage' } },
      schema: {
        tags,
        summary: 'The completion matrix as CSV, every row (DM, ADMIN; audited)',
        params: studyParams,
        querystring: trainingMatrixQuerySchema.pick({ search: true, status: true }),
        response: {
          200: fileAnswer('The completion matrix as CSV.', ['text/csv']),
          ...refusals({ 403: MANAGER_ONLY }),
        },
      },
    },
    async (request, reply) => {
      const { csv, fileName } = await exportCompletionMatrix(
        db,
        principalOf(request),
        actorOf(request),
        request.params.studyId,
        request.query,
        requestLanguage(request),
      );
      return sendDownload(reply, 'text/csv; charset=utf-8', attachmentNamed(fileName), csv);
    },
  );

  app.put(
    `${base}/settings`,
    {
      config: { access: { study: 'training.manage' } },
      schema: {
        tags,
        summary: 'Study setting: data entry waits for the required training (DM, ADMIN; audited)',
        params: studyParams,
        body: trainingSettingsRequestSchema,
        response: { 200: trainingSettingsSchema, ...refusals({ 403: MANAGER_ONLY }) },
      },
    },
    async (request) =>
      updateTrainingSettings(
        db,
        principalOf(request),
        actorOf(request),
        request.params.studyId,
        request.body,
      ),
  );
}
