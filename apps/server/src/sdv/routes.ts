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
import { actorOf, principalOf } from '../auth/authenticate.ts';
import { studyParams } from '../http/path-params.ts';
import { refusals } from '../http/refusals.ts';
import type { App } from '../http/types.ts';
import { HOLD_REFUSAL } from '../locks/holds-in-force.ts';
import { readSdvPlan } from '../sdv-state/sdv-plan.ts';
import { READER_REFUSALS } from '../visit-alarms/reader-scope.ts';
import { sdvNext, sdvSites, sdvSubject, sdvSubjects } from './sdv-progress.ts';
import { unverifyItems } from './unverify-items.ts';
import { updateSdvPlan } from './update-sdv-plan.ts';
import { verifyForm } from './verify-form.ts';
import { verifyItems } from './verify-items.ts';
import { verifyVisit } from './verify-visit.ts';

const subjectParams = z.object({ studyId: paramIdSchema, subjectPk: paramIdSchema });

/** Source data verification (issue 15): the plan, progress read-outs, marking and un-marking. */
export function registerSdvRoutes(app: App, context: AppContext): void {
  const { db } = context.database;
  const tags = ['SDV'];
  const base = '/api/studies/:studyId/sdv';
  const planRefusals = refusals({ 403: 'The role may not read subjects (`forbidden`).' });
  // \`subjectForSdv\`, \`lockForSdv\`: the subject and form to mark, and the holds over them.
  const markRefusals = refusals({
    403: "The role may not verify this subject's data (the CRA monitoring its site may) (`forbidden`).",
    404: 'No such subject the caller sees, or no such visit or form (`not_found`).',
    423: HOLD_REFUSAL,
  });

  app.get(
    `${base}/plan`,
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary: "The study's targeted SDV plan and its critical items",
        params: studyParams,
        response: { 200: sdvPlanResponseSchema, ...planRefusals },
      },
    },
    async (request) => readSdvPlan(db, principalOf(request), request.params.studyId),
  );

  app.put(
    `${base}/plan`,
    {
      config: { access: { study: 'sdv.plan' } },
      schema: {
        tags,
        summary:
          'Set the targeted SDV plan: all items, or critical items plus the first N subjects per site (DM, ADMIN; audited)',
        params: studyParams,
        body: sdvPlanRequestSchema,
        response: {
          200: sdvPlanResponseSchema,
          ...refusals({
            403: 'The role may not set the SDV plan (DM and ADMIN may) (`forbidden`).',
            409: 'The plan is the one in force already (`sdv_plan_unchanged`).',
          }),
        },
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
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary: "SDV progress per site against the plan, over the reader's sites",
        params: studyParams,
        response: { 200: sdvSitesResponseSchema, ...refusals(READER_REFUSALS) },
      },
    },
    async (request) => sdvSites(db, principalOf(request), request.params.studyId),
  );

  app.get(
    `${base}/subjects`,
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary: 'SDV progress per subject: filtered, sorted and paged',
        params: studyParams,
        querystring: sdvSubjectsQuerySchema,
        response: { 200: sdvSubjectsResponseSchema, ...refusals(READER_REFUSALS) },
      },
    },
    async (request) => sdvSubjects(db, principalOf(request), request.params.studyId, request.query),
  );

  app.get(
    `${base}/subjects/:subjectPk`,
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary: "One subject's SDV by visit and form, and the next form to verify",
        params: subjectParams,
        response: {
          200: sdvSubjectResponseSchema,
          ...refusals({
            404: 'No such subject the caller sees, or the study has no definition yet (`not_found`).',
          }),
        },
      },
    },
    async (request) => sdvSubject(db, principalOf(request), request.params.studyId, request.params.subjectPk),
  );

  app.get(
    `${base}/next`,
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary: "The next form to verify in the reader's sites (or one site)",
        params: studyParams,
        querystring: sdvNextQuerySchema,
        response: { 200: sdvNextResponseSchema, ...refusals(READER_REFUSALS) },
      },
    },
    async (request) => sdvNext(db, principalOf(request), request.params.studyId, request.query),
  );

  app.post(
    `${base}/verify`,
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary: 'Verify items of one form against the source (CRA on the sites they monitor; audited)',
        params: studyParams,
        body: verifyItemsRequestSchema,
        response: {
          200: formSdvSchema,
          ...markRefusals,
          ...refusals({
            409: 'Items not entered yet (`sdv_item_not_entered`) or verified already (`sdv_already_verified`); `details.itemKeys` names them.',
            422: 'Items the form does not have (`unknown_item`, `details.itemKeys`).',
          }),
        },
      },
    },
    async (request) =>
      verifyItems(db, principalOf(request), actorOf(request), request.params.studyId, request.body),
  );

  app.post(
    `${base}/verify-form`,
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary: 'Verify every item of one form the plan counts that is not verified yet (CRA; audited)',
        params: studyParams,
        body: verifyFormRequestSchema,
        response: {
          200: formSdvSchema,
          ...markRefusals,
          ...refusals({ 409: 'Nothing in the form is left to verify (`sdv_nothing_to_verify`).' }),
        },
      },
    },
    async (request) =>
      verifyForm(db, principalOf(request), actorOf(request), request.params.studyId, request.body),
  );

  app.post(
    `${base}/verify-visit`,
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary: 'Verify every form of one visit as "verify form" does (CRA; audited)',
        params: studyParams,
        body: verifyVisitRequestSchema,
        response: {
          200: verifyVisitResponseSchema,
          ...markRefusals,
          ...refusals({ 409: 'Nothing in the visit is left to verify (`sdv_nothing_to_verify`).' }),
        },
      },
    },
    async (request) =>
      verifyVisit(db, principalOf(request), actorOf(request), request.params.studyId, request.body),
  );

  app.post(
    `${base}/unverify`,
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary: 'Withdraw verification marks with a reason (CRA; audited)',
        params: studyParams,
        body: unverifyItemsRequestSchema,
        response: {
          200: formSdvSchema,
          ...markRefusals,
          ...refusals({
            409: 'Items not verified (`sdv_not_verified`, `details.itemKeys`).',
            422: 'Items the form does not have (`unknown_item`, `details.itemKeys`).',
          }),
        },
      },
    },
    async (request) =>
      unverifyItems(db, principalOf(request), actorOf(request), request.params.studyId, request.body),
  );
}
