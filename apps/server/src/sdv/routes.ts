import {
  formSdvSchema,
  paramIdSchema,
  sdvNextQuerySchema,
  sdvNextResponseSchema,
  sdvPlanRequestSchema,
  sdvPlanResponseSchema,
  sdvSitesResponseSchema,
  sdvSubjectResponseSchema,
  sdvSubjectsQuerySchema,
  sdvSubjectsResponseSchema,
  unverifyItemsRequestSchema,
  verifyFormRequestSchema,
  verifyItemsRequestSchema,
  verifyVisitRequestSchema,
  verifyVisitResponseSchema,
} from '@cdms/contract';
import { z } from 'zod';
import type { AppContext } from '../app-context.ts';
import { actorOf, authenticate, principalOf } from '../auth/authenticate.ts';
import type { App } from '../http/types.ts';
import { readSdvPlan } from '../sdv-state/sdv-plan.ts';
import { sdvNext, sdvSites, sdvSubject, sdvSubjects } from './sdv-progress.ts';
import { unverifyItems } from './unverify-items.ts';
import { updateSdvPlan } from './update-sdv-plan.ts';
import { verifyForm } from './verify-form.ts';
import { verifyItems } from './verify-items.ts';
import { verifyVisit } from './verify-visit.ts';

const studyParams = z.object({ studyId: paramIdSchema });
const subjectParams = z.object({ studyId: paramIdSchema, subjectPk: paramIdSchema });

/** Source data verification (issue 15): the plan, progress read-outs, marking and un-marking. */
export function registerSdvRoutes(app: App, context: AppContext): void {
  const { db } = context.database;
  const preHandler = authenticate(context);
  const tags = ['SDV'];
  const base = '/api/studies/:studyId/sdv';

  app.get(
    `${base}/plan`,
    {
      preHandler,
      schema: {
        tags,
        summary: "The study's targeted SDV plan and its critical items",
        params: studyParams,
        response: { 200: sdvPlanResponseSchema },
      },
    },
    async (request) => readSdvPlan(db, principalOf(request), request.params.studyId),
  );

  app.put(
    `${base}/plan`,
    {
      preHandler,
      schema: {
        tags,
        summary:
          'Set the targeted SDV plan: all items, or critical items plus the first N subjects per site (DM, ADMIN; audited)',
        params: studyParams,
        body: sdvPlanRequestSchema,
        response: { 200: sdvPlanResponseSchema },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      await updateSdvPlan(db, principal, actorOf(request), request.params.studyId, request.body);
      return readSdvPlan(db, principal, request.params.studyId);
    },
  );

  app.get(
    `${base}/sites`,
    {
      preHandler,
      schema: {
        tags,
        summary: "SDV progress per site against the plan, over the reader's sites",
        params: studyParams,
        response: { 200: sdvSitesResponseSchema },
      },
    },
    async (request) => sdvSites(db, principalOf(request), request.params.studyId),
  );

  app.get(
    `${base}/subjects`,
    {
      preHandler,
      schema: {
        tags,
        summary: 'SDV progress per subject: filtered, sorted and paged',
        params: studyParams,
        querystring: sdvSubjectsQuerySchema,
        response: { 200: sdvSubjectsResponseSchema },
      },
    },
    async (request) => sdvSubjects(db, principalOf(request), request.params.studyId, request.query),
  );

  app.get(
    `${base}/subjects/:subjectPk`,
    {
      preHandler,
      schema: {
        tags,
        summary: "One subject's SDV by visit and form, and the next form to verify",
        params: subjectParams,
        response: { 200: sdvSubjectResponseSchema },
      },
    },
    async (request) => sdvSubject(db, principalOf(request), request.params.studyId, request.params.subjectPk),
  );

  app.get(
    `${base}/next`,
    {
      preHandler,
      schema: {
        tags,
        summary: "The next form to verify in the reader's sites (or one site)",
        params: studyParams,
        querystring: sdvNextQuerySchema,
        response: { 200: sdvNextResponseSchema },
      },
    },
    async (request) => sdvNext(db, principalOf(request), request.params.studyId, request.query),
  );

  app.post(
    `${base}/verify`,
    {
      preHandler,
      schema: {
        tags,
        summary: 'Verify items of one form against the source (CRA on the sites they monitor; audited)',
        params: studyParams,
        body: verifyItemsRequestSchema,
        response: { 200: formSdvSchema },
      },
    },
    async (request) =>
      verifyItems(db, principalOf(request), actorOf(request), request.params.studyId, request.body),
  );

  app.post(
    `${base}/verify-form`,
    {
      preHandler,
      schema: {
        tags,
        summary: 'Verify every item of one form the plan counts that is not verified yet (CRA; audited)',
        params: studyParams,
        body: verifyFormRequestSchema,
        response: { 200: formSdvSchema },
      },
    },
    async (request) =>
      verifyForm(db, principalOf(request), actorOf(request), request.params.studyId, request.body),
  );

  app.post(
    `${base}/verify-visit`,
    {
      preHandler,
      schema: {
        tags,
        summary: 'Verify every form of one visit as "verify form" does (CRA; audited)',
        params: studyParams,
        body: verifyVisitRequestSchema,
        response: { 200: verifyVisitResponseSchema },
      },
    },
    async (request) =>
      verifyVisit(db, principalOf(request), actorOf(request), request.params.studyId, request.body),
  );

  app.post(
    `${base}/unverify`,
    {
      preHandler,
      schema: {
        tags,
        summary: 'Withdraw verification marks with a reason (CRA; audited)',
        params: studyParams,
        body: unverifyItemsRequestSchema,
        response: { 200: formSdvSchema },
      },
    },
    async (request) =>
      unverifyItems(db, principalOf(request), actorOf(request), request.params.studyId, request.body),
  );
}
