import { studyDefinitionAnswerSchema, studyListQuerySchema, studyListResponseSchema } from '@cdms/contract';
import { z } from 'zod';
import type { AppContext } from '../app-context.ts';
import { principalOf } from '../auth/authenticate.ts';
import { AppError } from '../http/errors.ts';
import { studyParams } from '../http/path-params.ts';
import { refusals } from '../http/refusals.ts';
import type { App } from '../http/types.ts';
import { definitionContentHash } from './definition-content-hash.ts';
import { listStudies, recentStudies, recordStudyView } from './list-studies.ts';
import { currentStudyDefinition } from './study-definitions.ts';

export function registerStudyRoutes(app: App, context: AppContext): void {
  const { db } = context.database;
  const tags = ['studies'];

  app.get(
    '/api/studies',
    {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary: "The user's studies (task list / ended list)",
        querystring: studyListQuerySchema,
        response: { 200: studyListResponseSchema },
      },
    },
    async (request) => ({ studies: await listStudies(db, principalOf(request), request.query) }),
  );

  app.get(
    '/api/studies/recent',
    {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary: 'Studies this user opened recently',
        response: { 200: studyListResponseSchema },
      },
    },
    async (request) => ({ studies: await recentStudies(db, principalOf(request)) }),
  );

  app.post(
    '/api/studies/:studyId/views',
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary: 'Remember that the user opened this study (recently viewed strip)',
        params: studyParams,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      await recordStudyView(db, principal.user.id, request.params.studyId);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/api/studies/:studyId/definition',
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary: "The study's current definition: visits, forms, items, rules (packages/study format)",
        params: studyParams,
        response: {
          200: studyDefinitionAnswerSchema,
          ...refusals({ 404: 'The study has no definition yet (`not_found`).' }),
        },
      },
    },
    async (request) => {
      const { studyId } = request.params;
      const current = await currentStudyDefinition(db, studyId);
      if (!current) throw new AppError(404, 'not_found');
      return {
        studyId,
        version: current.version,
        contentHash: definitionContentHash(current.definition),
        definition: current.definition,
      };
    },
  );
}
