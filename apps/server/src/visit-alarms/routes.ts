import { visitAlarmListResponseSchema, visitAlarmQuerySchema } from '@cdms/contract';
import type { AppContext } from '../app-context.ts';
import { principalOf } from '../auth/authenticate.ts';
import { studyParams } from '../http/path-params.ts';
import { refusals } from '../http/refusals.ts';
import type { App } from '../http/types.ts';
import { READER_REFUSALS } from './reader-scope.ts';
import { listVisitAlarms } from './visit-alarms.ts';

/** Subject alarms from the visit windows (`/task-alarm/:studyId`). */
export function registerVisitAlarmRoutes(app: App, context: AppContext): void {
  const { db } = context.database;

  app.get(
    '/api/studies/:studyId/visit-alarms',
    {
      config: { access: { study: 'member' } },
      schema: {
        tags: ['visit-alarms'],
        summary: "Visits overdue, due, due soon and done out of window, in the reader's sites",
        params: studyParams,
        querystring: visitAlarmQuerySchema,
        response: { 200: visitAlarmListResponseSchema, ...refusals(READER_REFUSALS) },
      },
    },
    async (request) => listVisitAlarms(db, principalOf(request), request.params.studyId, request.query),
  );
}
