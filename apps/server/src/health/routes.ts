import { appInfoSchema } from '@cdms/contract';
import { z } from 'zod';
import type { AppContext } from '../app-context.ts';
import type { App } from '../http/types.ts';
import { productReleaseDate, productVersion } from '../version.ts';

const healthResponse = z.object({
  status: z.literal('ok'),
  database: z.enum(['pglite', 'postgres']),
  version: z.string(),
});

export function registerHealthRoutes(app: App, context: AppContext): void {
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
