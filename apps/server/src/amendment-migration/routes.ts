import {
  amendmentMigrationsResponseSchema,
  amendmentParamsSchema,
  amendmentQuerySchema,
  startMigrationRequestSchema,
  startMigrationResponseSchema,
} from '@cdms/contract';
import type { AppContext } from '../app-context.ts';
import { actorOf, principalOf } from '../auth/authenticate.ts';
import type { PollingLoop } from '../background/polling-loop.ts';
import { requestLanguage } from '../http/language.ts';
import { refusals } from '../http/refusals.ts';
import type { App } from '../http/types.ts';
import { listMigrations } from './list-migrations.ts';
import { startMigration } from './start-migration.ts';

const NOT_PUBLISHED = 'The amendment is a draft or discarded (`amendment_not_published`)';

/** A published amendment's migrations (issue 49 item 4): listed and started by the study's designers. */
export function registerMigrationRoutes(
  app: App,
  context: AppContext,
  worker: PollingLoop | undefined,
): void {
  const { db } = context.database;
  const tags = ['amendments'];

  app.get(
    '/api/studies/:studyId/amendments/:amendmentId/migrations',
    {
      config: { access: { study: 'study.design' } },
      schema: {
        tags,
        summary:
          "A published amendment's migration jobs with their progress, and the subjects on each version",
        params: amendmentParamsSchema,
        querystring: amendmentQuerySchema,
        response: { 200: amendmentMigrationsResponseSchema, ...refusals({ 409: `${NOT_PUBLISHED}.` }) },
      },
    },
    async (request) =>
      listMigrations(
        db,
        request.params.studyId,
        request.params.amendmentId,
        request.query.lang ?? requestLanguage(request),
      ),
  );

  app.post(
    '/api/studies/:studyId/amendments/:amendmentId/migrations',
    {
      config: { access: { study: 'study.design' } },
      schema: {
        tags,
        summary: "Move the study's, a site's or one subject's subjects to the amendment's version now",
        params: amendmentParamsSchema,
        querystring: amendmentQuerySchema,
        body: startMigrationRequestSchema,
        response: {
          202: startMigrationResponseSchema,
          ...refusals({
            404: 'No such amendment, site or subject in the study (`not_found`).',
            409: `${NOT_PUBLISHED}, or a job of the same scope is queued or running (\`migration_running\`).`,
          }),
        },
      },
    },
    async (request, reply) => {
      const migration = await startMigration(
        db,
        principalOf(request),
        actorOf(request),
        request.params.studyId,
        request.params.amendmentId,
        request.body,
        request.query.lang ?? requestLanguage(request),
      );
      worker?.kick();
      return reply.code(202).send({ migration });
    },
  );
}
