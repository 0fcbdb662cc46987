import {
  generateRandomizationRequestSchema,
  importRandomizationRequestSchema,
  paramIdSchema,
  randomizationSettingsRequestSchema,
  randomizationStatusSchema,
  randomizeResponseSchema,
} from '@cdms/contract';
import type { AppContext } from '../app-context.ts';
import { actorOf, principalOf } from '../auth/authenticate.ts';
import { studyParams, subjectParams } from '../http/path-params.ts';
import { refusals } from '../http/refusals.ts';
import type { App } from '../http/types.ts';
import { HOLD_REFUSAL } from '../locks/holds-in-force.ts';
import { TRAINING_REFUSAL } from '../training-gate/training-gate.ts';
import {
  generateRandomizationLists,
  importRandomizationList,
  randomizationStatus,
  randomizeSubject,
} from './randomization.ts';
import { updateRandomizationSettings } from './settings.ts';

/** Path ids: canonical positive decimals (no `0x13`, `1.6e1`, `16.0`), ≤ 2^31 − 1. */
const _id = paramIdSchema;

/** The refusal of a new list: one wording for generating and importing lists. */
const LIST_REFUSAL =
  'A site already has a list (`randomization_list_exists`), or the study was created without randomization (`randomization_off`).';

export function registerRandomizationRoutes(app: App, context: AppContext): void {
  const { db } = context.database;
  const tags = ['randomization'];
  // Declared below (access `randomization.manage`): the lists and the setting are the randomization manager's.
  const keeperRefusals = refusals({ 403: 'The role may not manage randomization (`forbidden`).' });

  app.get(
    '/api/studies/:studyId/randomization',
    {
      config: { access: { study: 'randomization.manage' } },
      schema: {
        tags,
        summary: 'Allocation list use per site (never the groups)',
        params: studyParams,
        response: { 200: randomizationStatusSchema, ...keeperRefusals },
      },
    },
    async (request) => {
      return randomizationStatus(db, request.params.studyId);
    },
  );

  app.post(
    '/api/studies/:studyId/randomization/generate',
    {
      config: { access: { study: 'randomization.manage' } },
      schema: {
        tags,
        summary: 'Generate permuted-block lists (2 and 4, 1:1) per site',
        params: studyParams,
        body: generateRandomizationRequestSchema,
        response: {
          201: randomizationStatusSchema,
          ...keeperRefusals,
          ...refusals({
            409: LIST_REFUSAL,
            422: 'A site not of the study (`unknown_site`).',
          }),
        },
      },
    },
    async (request, reply) => {
      await generateRandomizationLists(db, actorOf(request), request.params.studyId, request.body);
      return reply.status(201).send(await randomizationStatus(db, request.params.studyId));
    },
  );

  app.post(
    '/api/studies/:studyId/randomization/import',
    {
      config: { access: { study: 'randomization.manage' } },
      schema: {
        tags,
        summary: 'Import a list: CSV institution,sequence,group',
        params: studyParams,
        body: importRandomizationRequestSchema,
        response: {
          201: randomizationStatusSchema,
          ...keeperRefusals,
          ...refusals({
            409: LIST_REFUSAL,
            422: 'The CSV does not read as a list (`randomization_import_invalid`, the problem in the message).',
          }),
        },
      },
    },
    async (request, reply) => {
      await importRandomizationList(db, actorOf(request), request.params.studyId, request.body.csv);
      return reply.status(201).send(await randomizationStatus(db, request.params.studyId));
    },
  );

  app.put(
    '/api/studies/:studyId/randomization/settings',
    {
      config: { access: { study: 'randomization.manage' } },
      schema: {
        tags,
        summary: 'Study setting: the roles that see the assigned group (blinding; audited)',
        params: studyParams,
        body: randomizationSettingsRequestSchema,
        response: {
          200: randomizationStatusSchema,
          ...keeperRefusals,
          ...refusals({
            409: 'Groups were filled into forms and subjects are randomized: the study cannot be blinded again (`groups_in_forms`).',
          }),
        },
      },
    },
    async (request) => {
      await updateRandomizationSettings(db, actorOf(request), request.params.studyId, request.body);
      return randomizationStatus(db, request.params.studyId);
    },
  );

  app.post(
    '/api/studies/:studyId/subjects/:subjectId/randomize',
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary: 'Randomize an eligible subject: next slot of the site, atomically',
        params: subjectParams,
        response: {
          201: randomizeResponseSchema,
          ...refusals({
            403: `The role may not randomize the subject (\`forbidden\`). ${TRAINING_REFUSAL}`,
            404: 'The study has no definition yet (`not_found`).',
            409: "The study was created without randomization (`randomization_off`), the subject is randomized already (`already_randomized`), or the site's list is used up (`randomization_list_exhausted`).",
            422: 'The subject is not eligible for randomization yet (`not_eligible_for_randomization`).',
            423: HOLD_REFUSAL,
          }),
        },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await randomizeSubject(
            db,
            principalOf(request),
            actorOf(request),
            request.params.studyId,
            request.params.subjectId,
          ),
        ),
  );
}
