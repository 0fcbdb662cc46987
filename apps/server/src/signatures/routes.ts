import { signatureResponseSchema, signCasebookRequestSchema } from '@cdms/contract';
import type { AppContext } from '../app-context.ts';
import { actorOf, principalOf } from '../auth/authenticate.ts';
import { subjectParams } from '../http/path-params.ts';
import { refusals } from '../http/refusals.ts';
import type { App } from '../http/types.ts';
import { HOLD_REFUSAL } from '../locks/holds-in-force.ts';
import { subjectSignature } from '../signature-state/signature-data.ts';
import { SIGNING_CREDENTIALS_REFUSAL } from '../signature-state/verify-signing-credentials.ts';
import { findSubjectInScope } from '../subjects/subject-access.ts';
import { TRAINING_REFUSAL } from '../training-gate/training-gate.ts';
import { signCasebook } from './sign-casebook.ts';

/** The investigator's signature of a subject's casebook. */
export function registerSignatureRoutes(app: App, context: AppContext): void {
  const { db } = context.database;
  const tags = ['signatures'];

  app.get(
    '/api/studies/:studyId/subjects/:subjectId/signature',
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary: "The subject's signature state, the signature in force or last invalidated, its history",
        params: subjectParams,
        response: { 200: signatureResponseSchema },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const subject = await findSubjectInScope(
        db,
        principal,
        request.params.studyId,
        request.params.subjectId,
      );
      return subjectSignature(db, principal, subject);
    },
  );

  app.post(
    '/api/studies/:studyId/subjects/:subjectId/signature',
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary:
          'The PI signs the casebook with their password: 422 signature_password_incorrect, 409 already_signed',
        params: subjectParams,
        body: signCasebookRequestSchema,
        response: {
          201: signatureResponseSchema,
          ...refusals({
            403: `The role may not sign the casebook (the site's PI may) (\`forbidden\`). ${TRAINING_REFUSAL}`,
            404: 'The study has no definition yet (`not_found`).',
            409: 'A signature is in force already (`already_signed`).',
            422: SIGNING_CREDENTIALS_REFUSAL,
            423: HOLD_REFUSAL,
            429: 'Too many wrong passwords or codes in a row: wait (`too_many_signature_attempts`).',
          }),
        },
      },
    },
    async (request, reply) =>
      reply.status(201).send(
        await signCasebook(db, principalOf(request), actorOf(request), {
          studyId: request.params.studyId,
          subjectId: request.params.subjectId,
          password: request.body.password,
          code: request.body.code,
        }),
      ),
  );
}
