import {
  adminStudySchema,
  adminUserSchema,
  createMembershipRequestSchema,
  createUserRequestSchema,
  membershipSchema,
  paramIdSchema,
  resetPasswordResponseSchema,
  siteRequestSchema,
  siteSummarySchema,
  twoFactorSettingSchema,
  updateMembershipRequestSchema,
  updateUserRequestSchema,
} from '@cdms/contract';
import { z } from 'zod';
import type { AppContext } from '../app-context.ts';
import { actorOf, authenticate, principalOf, requireSystemAdmin } from '../auth/authenticate.ts';
import { readTwoFactorSetting, updateTwoFactorSetting } from '../auth/two-factor-setting.ts';
import type { App } from '../http/types.ts';
import { createMembership, deleteMembership, listMemberships, updateMembershipSites } from './memberships.ts';
import { resetSecondFactor } from './reset-second-factor.ts';
import { createSite, listStudiesWithSites, updateSite } from './sites.ts';
import { createUser, listUsers, resetUserPassword, updateUser } from './users.ts';

/** Path ids: canonical positive decimals (no `0x13`, `1.6e1`, `16.0`), ≤ 2^31 − 1. */
const id = paramIdSchema;

/** System administration: users, sites, memberships. System administrators only. */
export function registerAdminRoutes(app: App, context: AppContext): void {
  const { db } = context.database;
  const preHandler = [authenticate(context), requireSystemAdmin];
  const tags = ['admin'];

  app.get(
    '/api/admin/users',
    {
      preHandler,
      schema: {
        tags,
        summary: 'List users',
        response: { 200: z.object({ users: z.array(adminUserSchema) }) },
      },
    },
    async () => ({
      users: await listUsers(db),
    }),
  );

  app.post(
    '/api/admin/users',
    {
      preHandler,
      schema: {
        tags,
        summary: 'Create a user',
        body: createUserRequestSchema,
        response: { 201: adminUserSchema },
      },
    },
    async (request, reply) => reply.status(201).send(await createUser(db, actorOf(request), request.body)),
  );

  app.put(
    '/api/admin/users/:userId',
    {
      preHandler,
      schema: {
        tags,
        summary: 'Edit, deactivate or reactivate a user',
        params: z.object({ userId: id }),
        body: updateUserRequestSchema,
        response: { 200: adminUserSchema },
      },
    },
    async (request) =>
      updateUser(db, principalOf(request), actorOf(request), request.params.userId, request.body),
  );

  app.post(
    '/api/admin/users/:userId/reset-password',
    {
      preHandler,
      schema: {
        tags,
        summary: 'Reset a password to a temporary one',
        params: z.object({ userId: id }),
        response: { 200: resetPasswordResponseSchema },
      },
    },
    async (request) => ({
      temporaryPassword: await resetUserPassword(db, actorOf(request), request.params.userId),
    }),
  );

  app.post(
    '/api/admin/users/:userId/second-factor/reset',
    {
      preHandler,
      schema: {
        tags,
        summary: "Remove a user's second factor (they sign in with the password until they enrol again)",
        params: z.object({ userId: id }),
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await resetSecondFactor(db, actorOf(request), request.params.userId);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/api/admin/settings/two-factor',
    {
      preHandler,
      schema: {
        tags,
        summary: 'Whether a second factor is required for system administrators, ADMIN and DM',
        response: { 200: twoFactorSettingSchema },
      },
    },
    async () => readTwoFactorSetting(db),
  );

  app.put(
    '/api/admin/settings/two-factor',
    {
      preHandler,
      schema: {
        tags,
        summary: 'Require (or stop requiring) a second factor for system administrators, ADMIN and DM',
        body: twoFactorSettingSchema,
        response: { 200: twoFactorSettingSchema },
      },
    },
    async (request) => updateTwoFactorSetting(db, actorOf(request), request.body),
  );

  app.get(
    '/api/admin/studies',
    {
      preHandler,
      schema: {
        tags,
        summary: 'Studies with their sites',
        response: { 200: z.object({ studies: z.array(adminStudySchema) }) },
      },
    },
    async () => ({
      studies: await listStudiesWithSites(db),
    }),
  );

  app.post(
    '/api/admin/studies/:studyId/sites',
    {
      preHandler,
      schema: {
        tags,
        summary: 'Add a site to a study',
        params: z.object({ studyId: id }),
        body: siteRequestSchema,
        response: { 201: siteSummarySchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await createSite(db, actorOf(request), request.params.studyId, request.body)),
  );

  app.put(
    '/api/admin/studies/:studyId/sites/:siteId',
    {
      preHandler,
      schema: {
        tags,
        summary: 'Edit a site',
        params: z.object({ studyId: id, siteId: id }),
        body: siteRequestSchema,
        response: { 200: siteSummarySchema },
      },
    },
    async (request) =>
      updateSite(db, actorOf(request), request.params.studyId, request.params.siteId, request.body),
  );

  app.get(
    '/api/admin/studies/:studyId/memberships',
    {
      preHandler,
      schema: {
        tags,
        summary: 'Who holds which role at which sites',
        params: z.object({ studyId: id }),
        response: { 200: z.object({ memberships: z.array(membershipSchema) }) },
      },
    },
    async (request) => ({ memberships: await listMemberships(db, request.params.studyId) }),
  );

  app.post(
    '/api/admin/studies/:studyId/memberships',
    {
      preHandler,
      schema: {
        tags,
        summary: 'Give a user a role in a study',
        params: z.object({ studyId: id }),
        body: createMembershipRequestSchema,
        response: { 201: membershipSchema },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await createMembership(db, actorOf(request), request.params.studyId, request.body)),
  );

  app.put(
    '/api/admin/studies/:studyId/memberships/:membershipId',
    {
      preHandler,
      schema: {
        tags,
        summary: "Change a membership's sites",
        params: z.object({ studyId: id, membershipId: id }),
        body: updateMembershipRequestSchema,
        response: { 200: membershipSchema },
      },
    },
    async (request) =>
      updateMembershipSites(
        db,
        actorOf(request),
        request.params.studyId,
        request.params.membershipId,
        request.body.siteIds,
      ),
  );

  app.delete(
    '/api/admin/studies/:studyId/memberships/:membershipId',
    {
      preHandler,
      schema: {
        tags,
        summary: 'Remove a role',
        params: z.object({ studyId: id, membershipId: id }),
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await deleteMembership(db, actorOf(request), request.params.studyId, request.params.membershipId);
      return reply.status(204).send(null);
    },
  );
}
