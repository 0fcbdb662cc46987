import { z } from 'zod';
import type { AppContext } from '../app-context.ts';
import { authenticate, principalOf } from '../auth/authenticate.ts';
import { can } from '../auth/permissions.ts';
import { AppError } from '../http/errors.ts';
import type { App } from '../http/types.ts';
import { currentStudyDefinition } from './study-definitions.ts';

const studyParams = z.object({ studyId: z.coerce.number().int().positive().max(2_147_483_647) });

export function registerStudyRoutes(app: App, context: AppContext): void {
  const { db } = context.database;

  app.get(
    '/api/studies/:studyId/definition',
    {
      preHandler: authenticate(context),
      schema: {
        tags: ['studies'],
        summary: "The study's current definition: visits, forms, items, rules (packages/study format)",
        params: studyParams,
        response: { 200: z.object({ studyId: z.number(), version: z.string(), definition: z.unknown() }) },
      },
    },
    async (request) => {
      const { studyId } = request.params;
      // Outside the user's studies the study does not exist, as far as they can tell.
      if (!can(principalOf(request), 'subject.read', { studyId })) throw new AppError(404, 'not_found');
      const current = await currentStudyDefinition(db, studyId);
      if (!current) throw new AppError(404, 'not_found');
      return { studyId, version: current.version, definition: current.definition };
    },
  );
}
