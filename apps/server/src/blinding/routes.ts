import { unblindSubjectRequestSchema, unblindSubjectResponseSchema } from '@cdms/contract';
import type { AppContext } from '../app-context.ts';
import { actorOf, principalOf } from '../auth/authenticate.ts';
import { subjectParams } from '../http/path-params.ts';
import { refusals } from '../http/refusals.ts';
import type { App } from '../http/types.ts';
import { SIGNING_CREDENTIALS_REFUSAL } from '../signature-state/verify-signing-credentials.ts';
import { unblindSubject } from './unblind-subject.ts';

/** Emergency unblinding of one subject by its PI (issue 51 item 3). */
export function registerBlindingRoutes(app: App, context: AppContext): void {
  const { db } = context.database;
  const tags = ['blinding'];

  app.post(
    '/api/studies/:studyId/subjects/:subjectId/unblind',
    {
      // Not training-gated: an emergency never waits for a course (unblind-subject.ts).
      config: { access: { study: 'blind.break' } },
      schema: {
        tags,
        summary:
          "Emergency unblinding: the subject's PI, with a reason and their password; answers the group (audited, the sponsor notified)",
        params: subjectParams,
        body: unblindSubjectRequestSchema,
        response: {
          201: unblindSubjectResponseSchema,
          ...refusals({
            403: "The role may not break the blind (the subject's PI may) (`forbidden`).",
            404: 'No such subject at the PI’s sites (`not_found`).',
            409: 'The blind is broken already (`already_unblinded`), or the subject is not randomized (`not_randomized`).',
            422: SIGNING_CREDENTIALS_REFUSAL,
            429: 'Too many wrong passwords or codes in a row: wait (`too_many_signature_attempts`).',
          }),
        },
      },
    },
    async (request, reply) =>
      reply.status(201).send(
        await unblindSubject(db, principalOf(request), actorOf(request), {
          studyId: request.params.studyId,
          subjectId: request.params.subjectId,
          reason: request.body.reason,
          password: request.body.password,
          code: request.body.code,
        }),
      ),
  );
}
