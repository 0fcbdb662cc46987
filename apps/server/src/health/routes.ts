import { appInfoSchema } from '@cdms/contract';
import { z } from 'zod';
import type { AppContext } from '../app-context.ts';
import { sendError } from '../http/errors.ts';
import { refusals } from '../http/refusals.ts';
import type { App } from '../http/types.ts';
import { productReleaseDate, productVersion } from '../version.ts';
import { checkReadiness } from './check-readiness.ts';

const healthResponse = z.object({
  status: z.literal('ok'),
  database: z.enum(['pglite', 'postgres']),
  version: z.string(),
});

const liveResponse = z.object({ status: z.literal('live') });

const readinessResponse = z.object({
  status: z.literal('ready'),
  database: z.literal('ok'),
  /** `unchecked`: the server's role may not read the migrator's table (health/check-readiness.ts). */
  migrations: z.enum(['current', 'unchecked']),
});

/** Outside /api (no access hooks there), a malformed query text is still refused (http/url-text.ts). */
const malformedQuery = refusals({
  400: 'A query text that is not valid UTF-8 or holds NUL (`malformed_url`, `invalid_text`).',
});

export function registerHealthRoutes(app: App, context: AppContext): void {
  // Issue 52: the probes of a load balancer or orchestrator, at the paths they expect. Public: they
  // say nothing but up or down. (Outside /api, `config.access` is not enforced; declared to say so.)
  // Probed every few seconds: their requests are logged at warn and above only, not every answer.
  app.get(
    '/health/live',
    {
      logLevel: 'warn',
      config: { access: 'public' },
      schema: {
        tags: ['system'],
        summary: 'Liveness: 200 while the process runs (no database check)',
        response: { 200: liveResponse, ...malformedQuery },
      },
    },
    async () => ({ status: 'live' as const }),
  );

  app.get(
    '/health/ready',
    {
      logLevel: 'warn',
      config: { access: 'public' },
      schema: {
        tags: ['system'],
        summary: 'Readiness: 200 when the database answers and holds every migration, else 503',
        response: {
          200: readinessResponse,
          ...refusals({
            400: 'A query text that is not valid UTF-8 or holds NUL (`malformed_url`, `invalid_text`).',
            503:
              'The database does not answer, or lacks a migration of this code (`not_ready`; `details` has ' +
              '`database`, `migrations` and the `pending` migrations).',
          }),
        },
      },
    },
    async (request, reply) => {
      const readiness = await checkReadiness(context.database.db);
      if (readiness.ready)
        return { status: 'ready' as const, database: readiness.database, migrations: readiness.migrations };
      const { ready: _, ...checks } = readiness;
      request.log.warn(checks, 'not ready');
      return sendError(request, reply, 503, 'not_ready', {}, checks);
    },
  );

  app.get(
    '/api/health',
    {
      config: { access: 'public' },
      schema: {
        tags: ['system'],
        summary: 'Liveness and database check',
        response: { 200: healthResponse },
      },
    },
    async () => {
      // A trivial query proves the database answers, not just that the process is up.
      await context.database.db.selectFrom('app_meta').select('key').limit(1).execute();
      return { status: 'ok' as const, database: context.database.kind, version: productVersion };
    },
  );

  app.get(
    '/api/app-info',
    {
      config: { access: 'public' },
      schema: {
        tags: ['system'],
        summary: 'Version, release date and support contact',
        response: { 200: appInfoSchema },
      },
    },
    async () => ({
      version: productVersion,
      releaseDate: productReleaseDate,
      supportEmail: context.config.support.email,
      supportPhone: context.config.support.phone,
    }),
  );
}
