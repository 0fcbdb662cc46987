import {
  taskNoticeListQuerySchema,
  taskNoticeListResponseSchema,
  taskNoticeSchema,
  taskNoticeWriteSchema,
} from '@cdms/contract';
import type { AppContext } from '../app-context.ts';
import { actorOf, principalOf } from '../auth/authenticate.ts';
import { studyParams } from '../http/path-params.ts';
import { refusals } from '../http/refusals.ts';
import type { App } from '../http/types.ts';
import { createTaskNotice } from './create-task-notice.ts';
import { listTaskNotices } from './list-task-notices.ts';

/** Task notices of a study (issue 18): read by members, sent by CRA/DM/ADMIN (`notice.write`). */
export function registerTaskNoticeRoutes(app: App, context: AppContext): void {
  const { db } = context.database;
  const tags = ['task-notices'];

  app.get(
    '/api/studies/:studyId/task-notices',
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary: 'Task notices of a study with their sending state, filtered and paged',
        params: studyParams,
        querystring: taskNoticeListQuerySchema,
        response: { 200: taskNoticeListResponseSchema },
      },
    },
    async (request) => listTaskNotices(db, principalOf(request), request.params.studyId, request.query),
  );

  app.post(
    '/api/studies/:studyId/task-notices',
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary: 'Register a task notice (sent now when its period has started; CRA, DM, ADMIN)',
        params: studyParams,
        body: taskNoticeWriteSchema,
        response: {
          201: taskNoticeSchema,
          ...refusals({
            403: 'The role may not write task notices (CRA, DM and ADMIN may) (`forbidden`).',
            422: 'A site not of the study (`unknown_site`).',
          }),
        },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await createTaskNotice(
            db,
            principalOf(request),
            actorOf(request),
            request.params.studyId,
            request.body,
          ),
        ),
  );
}
