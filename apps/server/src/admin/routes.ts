import {
  adminStudySchema,
  adminUserSchema,
  createMembershipRequestSchema,
  createStudyRequestSchema,
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
import { actorOf, principalOf } from '../auth/authenticate.ts';
import { readTwoFactorSetting, updateTwoFactorSetting } from '../auth/two-factor-setting.ts';
import { studyParams } from '../http/path-params.ts';
import { refusals } from '../http/refusals.ts';
import type { App } from '../http/types.ts';
import { createStudy } from './create-study.ts';
import { createMembership, deleteMembership, listMemberships, updateMembershipSites } from './memberships.ts';
import { resetSecondFactor } from './reset-second-factor.ts';
import { createSite, listStudiesWithSites, updateSite } from './sites.ts';
import { createUser, listUsers, resetUserPassword, updateUser } from './users.ts';

/** Path ids: canonical positive decimals (no `0x13`, `1.6e1`, `16.0`), ≤ 2^31 − 1. */
const id = paramIdSchema;
const userParams = z.object({ userId: id });
const membershipParams = z.object({ studyId: id, membershipId: id });

/** The refusal of every route that names a user. */
const NO_USER = 'No such user (`not_found`).';
/** The refusal of a user's email: one wording for creating and editing a user. */
const EMAIL_TAKEN = 'The email belongs to another user (`email_taken`).';

/** The refusal of a site's code or number: one wording for creating and changing a site. */
const SITE_NUMBER_TAKEN =
  'The site code (`site_code_taken`) or institution number (`institution_number_taken`) is already taken.';

/** The refusal of a membership's sites: one wording for adding it and changing its sites. */
const SITES_REFUSAL =
  'Sites do not fit the role: required (`sites_required`), not allowed (`sites_not_allowed`) or not of the study (`unknown_site`).';

/** System administration: users, sites, memberships. System administrators only. */
export function registerAdminRoutes(app: App, context: AppContext): void {
  const { db } = context.database;
  const tags = ['admin'];

  app.get(
    '/api/admin/users',
    {
      config: { access: 'system-admin' },
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
      config: { access: 'system-admin' },
      schema: {
        tags,
        summary: 'Create a user',
        body: createUserRequestSchema,
        response: {
          201: adminUserSchema,
          ...refusals({
            409: EMAIL_TAKEN,
            422: 'The password breaks the password rules (`password_policy`, `details.issues`) or is too common (`password_too_common`).',
          }),
        },
      },
    },
    async (request, reply) => reply.status(201).send(await createUser(db, actorOf(request), request.body)),
  );

  app.put(
    '/api/admin/users/:userId',
    {
      config: { access: 'system-admin' },
      schema: {
        tags,
        summary: 'Edit, deactivate or reactivate a user',
        params: userParams,
        body: updateUserRequestSchema,
        response: {
          200: adminUserSchema,
          ...refusals({
            404: NO_USER,
            409: EMAIL_TAKEN,
            422: 'Administrators cannot take away or give themselves system administration (`cannot_change_own_admin`).',
          }),
        },
      },
    },
    async (request) =>
      updateUser(db, principalOf(request), actorOf(request), request.params.userId, request.body),
  );

  app.post(
    '/api/admin/users/:userId/reset-password',
    {
      config: { access: 'system-admin' },
      schema: {
        tags,
        summary: 'Reset a password to a temporary one',
        params: userParams,
        response: { 200: resetPasswordResponseSchema, ...refusals({ 404: NO_USER }) },
      },
    },
    async (request) => ({
      temporaryPassword: await resetUserPassword(db, actorOf(request), request.params.userId),
    }),
  );

  app.post(
    '/api/admin/users/:userId/second-factor/reset',
    {
      config: { access: 'system-admin' },
      schema: {
        tags,
        summary: "Remove a user's second factor (they sign in with the password until they enrol again)",
        params: userParams,
        response: { 204: z.null(), ...refusals({ 404: NO_USER }) },
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
      config: { access: 'system-admin' },
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
      config: { access: 'system-admin' },
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
      config: { access: 'system-admin' },
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
    '/api/admin/studies',
    {
      config: { access: 'system-admin' },
      schema: {
        tags,
        summary: 'Create a study: it starts in design, the creating administrator its first ADMIN',
        body: createStudyRequestSchema,
        response: {
          201: adminStudySchema,
          ...refusals({
            409: 'A study with this code exists (`study_code_taken`); two listed sites share a code (`site_code_taken`) or an institution number (`institution_number_taken`); a member is listed twice with one role, or is its creator as ADMIN (`membership_exists`).',
            422: "A member's email has no account (`unknown_member_email`), names a site code not listed (`unknown_member_site`), or its role takes sites and names none (`sites_required`) or takes none and names some (`sites_not_allowed`).",
          }),
        },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await createStudy(db, actorOf(request), request.body, principalOf(request).user.id)),
  );

  app.post(
    '/api/admin/studies/:studyId/sites',
    {
      config: { access: 'system-admin' },
      schema: {
        tags,
        summary: 'Add a site to a study',
        params: studyParams,
        body: siteRequestSchema,
        response: {
          201: siteSummarySchema,
          ...refusals({
            404: 'No such study (`not_found`).',
            409: SITE_NUMBER_TAKEN,
          }),
        },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await createSite(db, actorOf(request), request.params.studyId, request.body)),
  );

  app.put(
    '/api/admin/studies/:studyId/sites/:siteId',
    {
      config: { access: 'system-admin' },
      schema: {
        tags,
        summary: 'Edit a site',
        params: z.object({ studyId: id, siteId: id }),
        body: siteRequestSchema,
        response: {
          200: siteSummarySchema,
          ...refusals({
            404: 'No such site in the study (`not_found`).',
            409: SITE_NUMBER_TAKEN,
          }),
        },
      },
    },
    async (request) =>
      updateSite(db, actorOf(request), request.params.studyId, request.params.siteId, request.body),
  );

  app.get(
    '/api/admin/studies/:studyId/memberships',
    {
      config: { access: 'system-admin' },
      schema: {
        tags,
        summary: 'Who holds which role at which sites',
        params: studyParams,
        response: { 200: z.object({ memberships: z.array(membershipSchema) }) },
      },
    },
    async (request) => ({ memberships: await listMemberships(db, request.params.studyId) }),
  );

  app.post(
    '/api/admin/studies/:studyId/memberships',
    {
      config: { access: 'system-admin' },
      schema: {
        tags,
        summary: 'Give a user a role in a study',
        params: studyParams,
        body: createMembershipRequestSchema,
        response: {
          201: membershipSchema,
          ...refusals({
            404: 'No such study or user (`not_found`).',
            409: 'The user already holds this role in the study (`membership_exists`).',
            422: SITES_REFUSAL,
          }),
        },
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
      config: { access: 'system-admin' },
      schema: {
        tags,
        summary: "Change a membership's sites",
        params: membershipParams,
        body: updateMembershipRequestSchema,
        response: {
          200: membershipSchema,
          ...refusals({
            404: 'No such membership in the study (`not_found`).',
            422: SITES_REFUSAL,
          }),
        },
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
      config: { access: 'system-admin' },
      schema: {
        tags,
        summary: 'Remove a role',
        params: membershipParams,
        response: { 204: z.null(), ...refusals({ 404: 'No such membership in the study (`not_found`).' }) },
      },
    },
    async (request, reply) => {
      await deleteMembership(db, actorOf(request), request.params.studyId, request.params.membershipId);
      return reply.status(204).send(null);
    },
  );
}
