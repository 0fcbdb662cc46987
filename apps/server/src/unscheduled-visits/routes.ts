import {
  addUnscheduledVisitRequestSchema,
  deleteUnscheduledVisitRequestSchema,
  paramIdSchema,
  repeatKeyParamSchema,
  unscheduledVisitSchema,
} from '@cdms/contract';
import { z } from 'zod';
import type { AppContext } from '../app-context.ts';
import { actorOf, principalOf } from '../auth/authenticate.ts';
import { subjectParams } from '../http/path-params.ts';
import { refusals } from '../http/refusals.ts';
import type { App } from '../http/types.ts';
import { HOLD_REFUSAL } from '../locks/holds-in-force.ts';
import { TRAINING_REFUSAL } from '../training-gate/training-gate.ts';
import { addUnscheduledVisit } from './add-unscheduled-visit.ts';
import { deleteUnscheduledVisit } from './delete-unscheduled-visit.ts';

const visitParams = z.object({
  studyId: paramIdSchema,
  subjectId: paramIdSchema,
  repeatKey: repeatKeyParamSchema,
});

/** Adding and deleting a subject's unscheduled visits (issue 19 item 1); the overview lists them. */
export function registerUnscheduledVisitRoutes(app: App, context: AppContext): void {
  const { db } = context.database;
  const tags = ['subjects'];

  app.post(
    '/api/studies/:studyId/subjects/:subjectId/unscheduled-visits',
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary: 'Add an unscheduled visit (site staff who enter data): date and reason, audited',
        params: subjectParams,
        body: addUnscheduledVisitRequestSchema,
        response: {
          201: unscheduledVisitSchema,
          ...refusals({
            403: `The role may not enter this subject's data (\`forbidden\`). ${TRAINING_REFUSAL}`,
            409: "The study's definition has no unscheduled visit (`unscheduled_visits_not_declared`).",
            422: "The visit date is in the future (`unscheduled_visit_date_in_future`) or before the subject's consent (`unscheduled_visit_before_consent`).",
            423: HOLD_REFUSAL,
          }),
        },
      },
    },
    async (request, reply) => {
      const visit = await addUnscheduledVisit(db, principalOf(request), actorOf(request), {
        ...request.params,
        request: request.body,
      });
      return reply.status(201).send(visit);
    },
  );

  app.delete(
    '/api/studies/:studyId/subjects/:subjectId/unscheduled-visits/:repeatKey',
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary: 'Delete an empty unscheduled visit, with a reason: 409 unscheduled_visit_has_data',
        params: visitParams,
        body: deleteUnscheduledVisitRequestSchema,
        response: {
          204: z.null(),
          ...refusals({
            403: `The role may not enter this subject's data (\`forbidden\`). ${TRAINING_REFUSAL}`,
            404: 'No such unscheduled visit of the subject (`not_found`).',
            409: 'The visit has saved data (`unscheduled_visit_has_data`).',
            423: HOLD_REFUSAL,
          }),
        },
      },
    },
    async (request, reply) => {
      await deleteUnscheduledVisit(db, principalOf(request), actorOf(request), {
        ...request.params,
        reason: request.body.reason,
      });
      return reply.status(204).send(null);
    },
  );
}
