import {
  guidelineDetailSchema,
  guidelineListQuerySchema,
  guidelineListResponseSchema,
  guidelineRevisionSchema,
  guidelineUpdateSchema,
  guidelineWriteSchema,
  paramIdSchema,
} from '@cdms/contract';
import { z } from 'zod';
import type { AppContext } from '../app-context.ts';
import { actorOf, principalOf } from '../auth/authenticate.ts';
import { studyParams } from '../http/path-params.ts';
import { refusals } from '../http/refusals.ts';
import type { App } from '../http/types.ts';
import { createGuideline } from './create-guideline.ts';
import { deleteGuideline } from './delete-guideline.ts';
import { getGuideline } from './get-guideline.ts';
import { listGuidelines } from './list-guidelines.ts';
import { publishGuideline } from './publish-guideline.ts';
import { retireGuideline } from './retire-guideline.ts';
import { reviseGuideline } from './revise-guideline.ts';
import { updateGuideline } from './update-guideline.ts';

/** The refusal of every write route: one wording, so the OpenAPI document says the same each time. */
const NOT_A_WRITER = 'The role may not write guidelines (CRA, DM and ADMIN may) (`forbidden`).';
/** The refusal of every route that names a guideline. */
const NO_GUIDELINE = 'No such guideline (`not_found`).';
/** The refusal of a draft's content: one wording for registering and editing it. */
const CONTENT_REFUSAL =
  "No content (`content_required`), an alarm period that ends before it starts (`alarm_period_invalid`), or attachments that are not the caller's uploads in this study (`attachment_unknown`).";
const guidelineParams = z.object({ studyId: paramIdSchema, guidelineId: paramIdSchema });

/** Guidelines of a study (issue 18): read by members, written by CRA/DM/ADMIN (`notice.write`). */
export function registerGuidelineRoutes(app: App, context: AppContext): void {
  const { db } = context.database;
  const tags = ['guidelines'];

  app.get(
    '/api/studies/:studyId/guidelines',
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary: 'Guidelines of a study, filtered and paged (readers: published only)',
        params: studyParams,
        querystring: guidelineListQuerySchema,
        response: { 200: guidelineListResponseSchema },
      },
    },
    async (request) => listGuidelines(db, principalOf(request), request.params.studyId, request.query),
  );

  app.post(
    '/api/studies/:studyId/guidelines',
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary: 'Register a guideline as a draft (CRA, DM, ADMIN)',
        params: studyParams,
        body: guidelineWriteSchema,
        response: {
          201: guidelineDetailSchema,
          ...refusals({
            403: NOT_A_WRITER,
            422: CONTENT_REFUSAL,
          }),
        },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await createGuideline(
            db,
            principalOf(request),
            actorOf(request),
            request.params.studyId,
            request.body,
          ),
        ),
  );

  app.get(
    '/api/studies/:studyId/guidelines/:guidelineId',
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary: 'One guideline with its attachments',
        params: guidelineParams,
        response: {
          200: guidelineDetailSchema,
          ...refusals({ 404: 'No such guideline, or a draft the caller may not see (`not_found`).' }),
        },
      },
    },
    async (request) =>
      getGuideline(db, principalOf(request), request.params.studyId, request.params.guidelineId),
  );

  app.put(
    '/api/studies/:studyId/guidelines/:guidelineId',
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary: 'Edit a draft guideline',
        params: guidelineParams,
        body: guidelineUpdateSchema,
        response: {
          200: guidelineDetailSchema,
          ...refusals({
            403: NOT_A_WRITER,
            404: NO_GUIDELINE,
            409: 'Only a draft can be edited (`guideline_not_draft`).',
            422: CONTENT_REFUSAL,
          }),
        },
      },
    },
    async (request) =>
      updateGuideline(
        db,
        principalOf(request),
        actorOf(request),
        request.params.studyId,
        request.params.guidelineId,
        request.body,
      ),
  );

  app.post(
    '/api/studies/:studyId/guidelines/:guidelineId/publish',
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary: 'Publish a draft (retires the version it supersedes)',
        params: guidelineParams,
        response: {
          200: guidelineDetailSchema,
          ...refusals({
            403: NOT_A_WRITER,
            404: NO_GUIDELINE,
            409: 'Only a draft can be published (`guideline_not_draft`).',
          }),
        },
      },
    },
    async (request) =>
      publishGuideline(
        db,
        principalOf(request),
        actorOf(request),
        request.params.studyId,
        request.params.guidelineId,
      ),
  );

  app.post(
    '/api/studies/:studyId/guidelines/:guidelineId/retire',
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary: 'Retire a published guideline',
        params: guidelineParams,
        response: {
          200: guidelineDetailSchema,
          ...refusals({
            403: NOT_A_WRITER,
            404: NO_GUIDELINE,
            409: 'Only a published guideline can be retired (`guideline_not_published`).',
          }),
        },
      },
    },
    async (request) =>
      retireGuideline(
        db,
        principalOf(request),
        actorOf(request),
        request.params.studyId,
        request.params.guidelineId,
      ),
  );

  app.post(
    '/api/studies/:studyId/guidelines/:guidelineId/revisions',
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary: 'Draft a new version of a published guideline',
        params: guidelineParams,
        body: guidelineRevisionSchema,
        response: {
          201: guidelineDetailSchema,
          ...refusals({
            403: NOT_A_WRITER,
            404: NO_GUIDELINE,
            409: 'The guideline is not published (`guideline_not_published`), the version is its own (`guideline_version_taken`), or a draft of a new version exists already (`guideline_draft_exists`).',
          }),
        },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await reviseGuideline(
            db,
            principalOf(request),
            actorOf(request),
            request.params.studyId,
            request.params.guidelineId,
            request.body,
          ),
        ),
  );

  app.delete(
    '/api/studies/:studyId/guidelines/:guidelineId',
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary: 'Discard a draft that was never published (audited)',
        params: guidelineParams,
        response: {
          204: z.null(),
          ...refusals({
            403: NOT_A_WRITER,
            404: NO_GUIDELINE,
            409: 'Only a draft can be discarded (`guideline_not_draft`).',
          }),
        },
      },
    },
    async (request, reply) => {
      await deleteGuideline(
        db,
        principalOf(request),
        actorOf(request),
        request.params.studyId,
        request.params.guidelineId,
      );
      return reply.status(204).send(null);
    },
  );
}
