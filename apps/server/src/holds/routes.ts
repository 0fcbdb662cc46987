import {
  bulkHoldRequestSchema,
  bulkHoldResponseSchema,
  holdInForceSchema,
  holdListQuerySchema,
  holdListResponseSchema,
  liftedHoldSchema,
  liftHoldRequestSchema,
  placeHoldRequestSchema,
  readinessSitesResponseSchema,
  readinessSubjectsQuerySchema,
  readinessSubjectsResponseSchema,
} from '@cdms/contract';
import type { AppContext } from '../app-context.ts';
import { actorOf, principalOf } from '../auth/authenticate.ts';
import { studyParams } from '../http/path-params.ts';
import { refusals } from '../http/refusals.ts';
import type { App } from '../http/types.ts';
import { READER_REFUSALS } from '../visit-alarms/reader-scope.ts';
import { bulkHoldAction } from './bulk-holds.ts';
import { liftHold } from './lift-hold.ts';
import { listHolds } from './list-holds.ts';
import { placeHold } from './place-hold.ts';
import { readinessSites, readinessSubjects } from './readiness-board.ts';

/**
 * Freezes and locks (issue 15): the holds in force, placing and lifting one, bulk over subjects, and
 * the database-lock readiness board.
 */
export function registerHoldRoutes(app: App, context: AppContext): void {
  const { db } = context.database;
  const tags = ['freezing and locking'];
  const base = '/api/studies/:studyId/holds';
  // `resolveHoldTarget`: what a freeze or lock, and its lifting, may be refused for.
  const targetRefusals = refusals({
    403: 'The role may not freeze (CRA, DM) or lock (DM) at this level (`forbidden`).',
    404: 'The site, subject, form or visit is not one the caller sees (`not_found`).',
  });

  app.get(
    base,
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary:
          "Freezes and locks in force over a subject, a site or the reader's study, with the reader's rights",
        params: studyParams,
        querystring: holdListQuerySchema,
        response: {
          200: holdListResponseSchema,
          ...refusals({
            403: 'The role may not read subjects (`forbidden`).',
            404: 'The subject or site asked about is not one the caller sees (`not_found`).',
          }),
        },
      },
    },
    async (request) => listHolds(db, principalOf(request), request.params.studyId, request.query),
  );

  app.post(
    base,
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary: 'Freeze (CRA, DM) or lock (DM) a form, subject, site or the study, with a reason (audited)',
        params: studyParams,
        body: placeHoldRequestSchema,
        response: {
          201: holdInForceSchema,
          ...targetRefusals,
          ...refusals({
            409: 'The same hold is in force there already (`hold_already_in_force`, `details`).',
          }),
        },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await placeHold(db, principalOf(request), actorOf(request), request.params.studyId, request.body),
        ),
  );

  app.post(
    `${base}/lift`,
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary:
          'Unfreeze (CRA, DM) or unlock (DM) a form, subject, site or the study, with a reason (audited)',
        params: studyParams,
        body: liftHoldRequestSchema,
        response: {
          200: liftedHoldSchema,
          ...targetRefusals,
          ...refusals({ 409: 'No such hold is in force there (`hold_not_in_force`, `details`).' }),
        },
      },
    },
    async (request) =>
      liftHold(db, principalOf(request), actorOf(request), request.params.studyId, request.body),
  );

  app.post(
    `${base}/bulk`,
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary: 'Freeze, lock, unfreeze or unlock selected subjects with one reason, all or nothing',
        params: studyParams,
        body: bulkHoldRequestSchema,
        response: {
          200: bulkHoldResponseSchema,
          ...refusals({
            403: 'The role may not place or lift this hold on one of the subjects (`forbidden`).',
            404: 'One of the subjects is not one the caller sees (`not_found`).',
            409: 'One of the subjects already has the hold (`hold_already_in_force`) or has none to lift (`hold_not_in_force`); `details.subjectPks` names them, nothing was changed.',
          }),
        },
      },
    },
    async (request) =>
      bulkHoldAction(db, principalOf(request), actorOf(request), request.params.studyId, request.body),
  );

  app.get(
    '/api/studies/:studyId/readiness/sites',
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary: "Readiness for database lock per site over the reader's sites, and the study's sums",
        params: studyParams,
        response: { 200: readinessSitesResponseSchema, ...refusals({ 403: READER_REFUSALS[403] }) },
      },
    },
    async (request) => readinessSites(db, principalOf(request), request.params.studyId),
  );

  app.get(
    '/api/studies/:studyId/readiness/subjects',
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary:
          'Readiness for database lock per subject: what still stands in the way; filtered, sorted, paged',
        params: studyParams,
        querystring: readinessSubjectsQuerySchema,
        response: { 200: readinessSubjectsResponseSchema, ...refusals(READER_REFUSALS) },
      },
    },
    async (request) => readinessSubjects(db, principalOf(request), request.params.studyId, request.query),
  );
}
