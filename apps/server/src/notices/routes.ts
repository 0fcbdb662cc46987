import {
  noticeDetailSchema,
  noticeListQuerySchema,
  noticeListResponseSchema,
  noticeUpdateSchema,
  noticeWriteSchema,
  paramIdSchema,
} from '@cdms/contract';
import { z } from 'zod';
import type { AppContext } from '../app-context.ts';
import { actorOf, principalOf } from '../auth/authenticate.ts';
import { studyParams } from '../http/path-params.ts';
import { refusals } from '../http/refusals.ts';
import type { App } from '../http/types.ts';
import { createNotice, deleteNotice, getNotice, listNotices, updateNotice } from './notices.ts';

/** Path ids: canonical positive decimals (no `0x13`, `1.6e1`, `16.0`), ≤ 2^31 − 1. */
const id = paramIdSchema;
const noticeParams = z.object({ studyId: id, noticeId: id });

export function registerNoticeRoutes(app: App, context: AppContext): void {
  const { db } = context.database;
  const tags = ['notices'];

  app.get(
    '/api/studies/:studyId/notices',
    {
      config: { access: { study: 'member', systemAdmins: true } },
      schema: {
        tags,
        summary: 'Notices of a study (and global ones), filtered and paged',
        params: studyParams,
        querystring: noticeListQuerySchema,
        response: { 200: noticeListResponseSchema },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      return listNotices(db, principal, request.params.studyId, request.query);
    },
  );

  app.post(
    '/api/studies/:studyId/notices',
    {
      config: { access: { study: 'member', systemAdmins: true } },
      schema: {
        tags,
        summary: 'Register a notice (CRA, DM, ADMIN; global: system administrators)',
        params: studyParams,
        body: noticeWriteSchema,
        response: {
          201: noticeDetailSchema,
          ...refusals({
            403: 'The role may not write notices (CRA, DM and ADMIN may; global ones: system administrators) (`forbidden`).',
            422: 'No content (`content_required`).',
          }),
        },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      return reply
        .status(201)
        .send(await createNotice(db, principal, actorOf(request), request.params.studyId, request.body));
    },
  );

  app.get(
    '/api/studies/:studyId/notices/:noticeId',
    {
      config: { access: { study: 'member', systemAdmins: true } },
      schema: {
        tags,
        summary: 'One notice with its sanitized HTML',
        params: noticeParams,
        response: {
          200: noticeDetailSchema,
          ...refusals({ 404: 'No such notice, or a hidden one the caller may not see (`not_found`).' }),
        },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      return getNotice(db, principal, request.params.studyId, request.params.noticeId);
    },
  );

  app.put(
    '/api/studies/:studyId/notices/:noticeId',
    {
      config: { access: { study: 'member', systemAdmins: true } },
      schema: {
        tags,
        summary: 'Edit a notice, pin/unpin, hide/show',
        params: noticeParams,
        body: noticeUpdateSchema,
        response: {
          200: noticeDetailSchema,
          ...refusals({
            403: 'The caller may not edit this notice (`forbidden`).',
            404: 'No such notice (`not_found`).',
            422: 'No content (`content_required`).',
          }),
        },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      return updateNotice(
        db,
        principal,
        actorOf(request),
        request.params.studyId,
        request.params.noticeId,
        request.body,
      );
    },
  );

  app.delete(
    '/api/studies/:studyId/notices/:noticeId',
    {
      config: { access: { study: 'member', systemAdmins: true } },
      schema: {
        tags,
        summary: 'Delete a notice (kept for the audit trail)',
        params: noticeParams,
        response: {
          204: z.null(),
          ...refusals({
            403: 'The caller may not delete this notice (`forbidden`).',
            404: 'No such notice (`not_found`).',
          }),
        },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      await deleteNotice(db, principal, actorOf(request), request.params.studyId, request.params.noticeId);
      return reply.status(204).send(null);
    },
  );
}
