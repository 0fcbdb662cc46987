import { roles } from '@cdms/contract';
import { getFormLayout, tmPerforationStudy } from '@cdms/study';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createUser } from '../src/admin/users.ts';
import { systemActor } from '../src/audit/audit-events.ts';
import { recordAudit } from '../src/audit/audit-log.ts';
import { permissionMatrix } from '../src/auth/permissions.ts';
import { claimExport } from '../src/data-exports/claim-export.ts';
import { runExport } from '../src/data-exports/run-export.ts';
import type { Database } from '../src/db/schema.ts';
import type { App } from '../src/http/types.ts';
import { generateRandomizationLists } from '../src/randomization/randomization.ts';
import { DEMO_PASSWORD, demoAccounts } from '../src/seed/demo-seed.ts';
import { operationsOf } from './fuzz/openapi-operations.ts';
import { buildTestApp, type SignedIn, sessionUser, signIn } from './test-app.ts';
import { describeWithDatabase } from './test-database.ts';

/**
 * Every API route × every demo role (and no session at all) → the expected status. A route that
 * exists but is missing from this table fails the test: a new endpoint must state who may call it.
 * Site-scoped routes list an "own site" and an "other site" case (from the subject endpoints on).
 */
type StaffCaller = 'anonymous' | 'ADMIN' | 'PI' | 'SI' | 'CRC' | 'CRA' | 'DM';
/**
 * The sponsor's desks (issue 51): study-wide like DM. `everyone` states their statuses; a case written
 * without it expects a desk 403 on a route whose action it lacks and DM's status elsewhere (what a
 * study-wide member gets) — `expectedOf`.
 */
type Desk = 'CODER' | 'SAFETY' | 'UNBLINDED';
type Caller = StaffCaller | Desk;
const desks: readonly Desk[] = ['CODER', 'SAFETY', 'UNBLINDED'];
const callers: Caller[] = ['anonymous', 'ADMIN', 'PI', 'SI', 'CRC', 'CRA', 'DM', ...desks];
const isDesk = (caller: Caller): caller is Desk => (desks as readonly Caller[]).includes(caller);

interface Case {
  method: string;
  /** The route pattern as registered. */
  route: string;
  /** A concrete URL and body for the call (a function: some need fresh values per call). */
  request: (context: Fixture) => { url: string; body?: unknown; headers?: Record<string, string> };
  expected: Expected;
}

type Expected = Record<StaffCaller, number> & Partial<Record<Desk, number>>;

interface Fixture {
  studyId: number;
  siteId: number;
  userId: number;
  membershipId: () => Promise<number>;
  unique: () => string;
  noticeId: number;
  imageId: string;
  subjectId: number;
  sectionKey: string;
  queryId: number;
  /** A finished export of the study, to read and download. */
  doneExportId: number;
  /** A published training module required for every role, without a quiz. */
  trainingModuleId: number;
  /** A published one-question quiz module required for every role, passed by every demo account. */
  trainingQuizModuleId: number;
  /** A member of the study (the demo's CRC), for the routes about one member (issue 51). */
  memberUserId: number;
}

const everyone = (status: number, anonymous = 401): Expected => ({
  anonymous,
  ADMIN: status,
  PI: status,
  SI: status,
  CRC: status,
  CRA: status,
  DM: status,
  CODER: status,
  SAFETY: status,
  UNBLINDED: status,
});
const adminOnly = (status: number): Expected => ({ ...everyone(403), ADMIN: status });
/** A subject at site 01: PI and SI work there, CRC works at site 02 (other site → 404). */
const subjectReaders = (status: number): Expected => ({ ...everyone(status), CRC: 404 });
/** Reports and the summary: every subject reader but the coder, who codes terms and reads no reports. */
const reportReaders = (status: number): Expected => ({ ...subjectReaders(status), CODER: 403 });
const subjectWriters = (status: number): Expected => ({
  ...everyone(403),
  PI: status,
  SI: status,
  CRC: 404,
});
/** Raising and managing queries on a subject at site 01: CRA and DM; the CRC (site 02) does not see it. */
const queryManagers = (status: number): Expected => ({
  ...everyone(403),
  CRA: status,
  DM: status,
  CRC: 404,
});
/** Freezing a subject at site 01: its monitor and the data manager; the CRC (site 02) does not see it. */
const freezers = queryManagers;
/** SDV on a subject at site 01: its monitor only; the CRC (site 02) does not see it. */
const verifiers = (status: number): Expected => ({ ...everyone(403), CRA: status, CRC: 404 });
/** Reviewing the audit trail: CRA, DM and ADMIN; the site roles may not. */
const auditReviewers = (status: number): Expected => ({
  ...everyone(403),
  CRA: status,
  DM: status,
  ADMIN: status,
});
const noticeWriters = (status: number): Expected => ({
  ...everyone(403),
  CRA: status,
  DM: status,
  ADMIN: status,
});

const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const boundary = '----matrix-boundary';
const imageUpload = Buffer.concat([
  Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="upload"; filename="p.png"\r\nContent-Type: image/png\r\n\r\n`,
  ),
  PNG_1X1,
  Buffer.from(`\r\n--${boundary}--\r\n`),
]);

/** A tiny PDF in the attachment upload's field `file`. */
const pdfUpload = Buffer.concat([
  Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="m.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
  ),
  Buffer.from('%PDF-1.4\n%%EOF\n'),
  Buffer.from(`\r\n--${boundary}--\r\n`),
]);

/** A one-line synonym list (issue 51) in the dictionary upload's field `upload`. */
const synonymUpload = Buffer.concat([
  Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="upload"; filename="s.csv"\r\nContent-Type: text/csv\r\n\r\n`,
  ),
  Buffer.from('kind,verbatim,code\nmeddra,ear ache,99001011\n'),
  Buffer.from(`\r\n--${boundary}--\r\n`),
]);

/** The 1×1 PNG as an eardrum photo (issue 19), in the photo upload's field `photo`. */
const photoUpload = Buffer.concat([
  Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="photo"; filename="ear.png"\r\nContent-Type: image/png\r\n\r\n`,
  ),
  PNG_1X1,
  Buffer.from(`\r\n--${boundary}--\r\n`),
]);

const cases: Case[] = [
  {
    method: 'GET',
    route: '/api/health',
    request: () => ({ url: '/api/health' }),
    expected: everyone(200, 200),
  },
  {
    method: 'GET',
    route: '/api/app-info',
    request: () => ({ url: '/api/app-info' }),
    expected: everyone(200, 200),
  },
  // Issue 52: the probes, public; /metrics answers this machine without METRICS_TOKEN (inject is
  // loopback), whoever is signed in (metrics/metrics.test.ts covers the token and the refusals).
  {
    method: 'GET',
    route: '/health/live',
    request: () => ({ url: '/health/live' }),
    expected: everyone(200, 200),
  },
  {
    method: 'GET',
    route: '/health/ready',
    request: () => ({ url: '/health/ready' }),
    expected: everyone(200, 200),
  },
  {
    method: 'GET',
    route: '/metrics',
    request: () => ({ url: '/metrics' }),
    expected: everyone(200, 200),
  },
  {
    method: 'POST',
    route: '/api/auth/login',
    request: (f) => ({
      url: '/api/auth/login',
      body: { email: `${f.unique()}@nowhere.kr`, password: 'wrong-password-1' },
    }),
    expected: everyone(401, 401),
  },
  {
    method: 'GET',
    route: '/api/auth/me',
    request: () => ({ url: '/api/auth/me' }),
    // Without a session: 200 { user: null }, the question every page load asks, never an error.
    expected: everyone(200, 200),
  },
  {
    method: 'POST',
    route: '/api/auth/login/second-factor',
    request: () => ({
      url: '/api/auth/login/second-factor',
      body: { pendingToken: 'unknown', code: '123456' },
    }),
    expected: everyone(401, 401),
  },
  {
    method: 'POST',
    route: '/api/auth/second-factor/enrolment',
    // A wrong password: nobody's enrolment starts.
    request: () => ({ url: '/api/auth/second-factor/enrolment', body: { password: 'not-the-password-1' } }),
    expected: everyone(422),
  },
  {
    method: 'POST',
    route: '/api/auth/second-factor/enrolment/confirm',
    // No enrolment was started: nothing to confirm.
    request: () => ({ url: '/api/auth/second-factor/enrolment/confirm', body: { code: '123456' } }),
    expected: everyone(409),
  },
  {
    method: 'POST',
    route: '/api/auth/second-factor/recovery-codes',
    // No caller has a second factor: nothing to regenerate.
    request: () => ({
      url: '/api/auth/second-factor/recovery-codes',
      body: { password: 'not-the-password-1', code: '123456' },
    }),
    expected: everyone(409),
  },
  {
    method: 'POST',
    route: '/api/auth/second-factor/turn-off',
    request: () => ({
      url: '/api/auth/second-factor/turn-off',
      body: { password: 'not-the-password-1', code: '123456' },
    }),
    expected: everyone(409),
  },

  {
    method: 'POST',
    route: '/api/auth/renew',
    request: () => ({ url: '/api/auth/renew' }),
    expected: everyone(200),
  },
  {
    method: 'PUT',
    route: '/api/auth/contact',
    request: () => ({ url: '/api/auth/contact', body: { contact: '02-1234-5678' } }),
    expected: everyone(204),
  },
  {
    method: 'GET',
    route: '/api/auth/notification-preferences',
    request: () => ({ url: '/api/auth/notification-preferences' }),
    expected: everyone(200),
  },
  {
    method: 'PUT',
    route: '/api/auth/notification-preferences',
    request: () => ({
      url: '/api/auth/notification-preferences',
      body: { preferences: [{ eventType: 'visit_overdue', email: false }] },
    }),
    expected: everyone(200),
  },
  {
    method: 'PUT',
    route: '/api/auth/password',
    // A wrong current password: authorised callers get as far as the check (422), nobody's password changes.
    request: () => ({
      url: '/api/auth/password',
      body: { currentPassword: 'not-the-password-1', newPassword: 'whatever-2027' },
    }),
    expected: everyone(422),
  },
  {
    method: 'POST',
    route: '/api/auth/logout',
    request: () => ({ url: '/api/auth/logout' }),
    expected: everyone(204),
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/definition',
    request: (f) => ({ url: `/api/studies/${f.studyId}/definition` }),
    expected: everyone(200),
  },
  {
    method: 'GET',
    route: '/api/study-definition-schema',
    request: () => ({ url: '/api/study-definition-schema' }),
    expected: everyone(200, 200),
  },
  {
    // The study is live: its designers (DM, ADMIN) pass authorization and are told it is not in design.
    method: 'PUT',
    route: '/api/studies/:studyId/definition',
    request: (f) => ({ url: `/api/studies/${f.studyId}/definition`, body: { key: 'x' } }),
    expected: { ...everyone(403), DM: 409, ADMIN: 409 },
  },
  {
    // A preview writes nothing: the designers (DM, ADMIN) may preview an import into a live study too.
    method: 'POST',
    route: '/api/studies/:studyId/definition-imports/preview',
    request: (f) => ({
      url: `/api/studies/${f.studyId}/definition-imports/preview`,
      body: {
        format: 'redcapDictionary',
        file: 'Variable / Field Name,Form Name,Field Type,Field Label\nrecord_id,demo,text,ID\nage,demo,text,Age\n',
        language: 'en',
      },
    }),
    expected: { ...everyone(403), DM: 200, ADMIN: 200 },
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/definition-versions/odm',
    request: (f) => ({ url: `/api/studies/${f.studyId}/definition-versions/odm` }),
    expected: everyone(200),
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/definition-versions',
    request: (f) => ({ url: `/api/studies/${f.studyId}/definition-versions` }),
    expected: everyone(200),
  },
  {
    // The demo study has one version: compared with itself, it reads as no change.
    method: 'GET',
    route: '/api/studies/:studyId/definition-versions/compare',
    request: (f) => ({ url: `/api/studies/${f.studyId}/definition-versions/compare?from=1.0.0&to=1.0.0` }),
    expected: everyone(200),
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/definition-versions/compare.pdf',
    request: (f) => ({
      url: `/api/studies/${f.studyId}/definition-versions/compare.pdf?from=1.0.0&to=1.0.0&lang=en`,
    }),
    expected: everyone(200),
  },
  {
    // The live demo study has no draft: its designers read none.
    method: 'GET',
    route: '/api/studies/:studyId/design-draft',
    request: (f) => ({ url: `/api/studies/${f.studyId}/design-draft` }),
    expected: { ...everyone(403), DM: 200, ADMIN: 200 },
  },
  {
    // The study is live: its designers pass authorization and are told it is not in design.
    method: 'PUT',
    route: '/api/studies/:studyId/design-draft',
    request: (f) => ({
      url: `/api/studies/${f.studyId}/design-draft`,
      body: { baseRevision: 0, definition: { key: 'x' } },
    }),
    expected: { ...everyone(403), DM: 409, ADMIN: 409 },
  },
  {
    method: 'POST',
    route: '/api/studies/:studyId/design-draft/publish',
    request: (f) => ({ url: `/api/studies/${f.studyId}/design-draft/publish`, body: { revision: 1 } }),
    expected: { ...everyone(403), DM: 409, ADMIN: 409 },
  },
  {
    method: 'POST',
    route: '/api/studies/:studyId/design-draft/reviews',
    request: (f) => ({ url: `/api/studies/${f.studyId}/design-draft/reviews`, body: { revision: 1 } }),
    expected: { ...everyone(403), DM: 409, ADMIN: 409 },
  },
  {
    method: 'POST',
    route: '/api/studies/:studyId/design-draft/reviews/:reviewId/comments',
    request: (f) => ({
      url: `/api/studies/${f.studyId}/design-draft/reviews/1/comments`,
      body: { element: 'study', text: 'Looks right.' },
    }),
    expected: { ...everyone(403), DM: 409, ADMIN: 409 },
  },
  {
    method: 'POST',
    route: '/api/studies/:studyId/design-draft/reviews/:reviewId/approval',
    request: (f) => ({
      url: `/api/studies/${f.studyId}/design-draft/reviews/1/approval`,
      body: { revision: 1, password: 'x' },
    }),
    expected: { ...everyone(403), DM: 409, ADMIN: 409 },
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/amendments',
    request: (f) => ({ url: `/api/studies/${f.studyId}/amendments` }),
    expected: { ...everyone(403), DM: 200, ADMIN: 200 },
  },
  {
    // A site of no study: the designers pass authorization and are refused the site, nothing opened.
    method: 'POST',
    route: '/api/studies/:studyId/amendments',
    request: (f) => ({
      url: `/api/studies/${f.studyId}/amendments`,
      body: { number: 'AM-99', reason: 'Matrix', sites: [{ siteId: 2_000_000_000, effectiveOn: null }] },
    }),
    expected: { ...everyone(403), DM: 422, ADMIN: 422 },
  },
  {
    // The demo study has no amendment 999999: its designers are told so.
    method: 'GET',
    route: '/api/studies/:studyId/amendments/:amendmentId',
    request: (f) => ({ url: `/api/studies/${f.studyId}/amendments/999999` }),
    expected: { ...everyone(403), DM: 404, ADMIN: 404 },
  },
  {
    method: 'PUT',
    route: '/api/studies/:studyId/amendments/:amendmentId',
    request: (f) => ({
      url: `/api/studies/${f.studyId}/amendments/999999`,
      body: { number: 'AM-99', reason: 'Matrix', sites: [], declarations: {} },
    }),
    expected: { ...everyone(403), DM: 404, ADMIN: 404 },
  },
  {
    method: 'POST',
    route: '/api/studies/:studyId/amendments/:amendmentId/discard',
    request: (f) => ({
      url: `/api/studies/${f.studyId}/amendments/999999/discard`,
      body: { reason: 'Matrix' },
    }),
    expected: { ...everyone(403), DM: 404, ADMIN: 404 },
  },
  {
    method: 'POST',
    route: '/api/studies/:studyId/amendments/:amendmentId/impact',
    request: (f) => ({ url: `/api/studies/${f.studyId}/amendments/999999/impact` }),
    expected: { ...everyone(403), DM: 404, ADMIN: 404 },
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/amendments/:amendmentId/impact',
    request: (f) => ({ url: `/api/studies/${f.studyId}/amendments/999999/impact` }),
    expected: { ...everyone(403), DM: 404, ADMIN: 404 },
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/amendments/:amendmentId/impact/rows',
    request: (f) => ({ url: `/api/studies/${f.studyId}/amendments/999999/impact/rows?kind=valueRetired` }),
    expected: { ...everyone(403), DM: 404, ADMIN: 404 },
  },
  {
    method: 'POST',
    route: '/api/studies/:studyId/amendments/:amendmentId/publish',
    request: (f) => ({
      url: `/api/studies/${f.studyId}/amendments/999999/publish`,
      body: { password: 'not checked before the amendment is found' },
    }),
    expected: { ...everyone(403), DM: 404, ADMIN: 404 },
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/amendments/:amendmentId/migrations',
    request: (f) => ({ url: `/api/studies/${f.studyId}/amendments/999999/migrations` }),
    expected: { ...everyone(403), DM: 404, ADMIN: 404 },
  },
  {
    method: 'POST',
    route: '/api/studies/:studyId/amendments/:amendmentId/migrations',
    request: (f) => ({
      url: `/api/studies/${f.studyId}/amendments/999999/migrations`,
      body: { scope: 'study' },
    }),
    expected: { ...everyone(403), DM: 404, ADMIN: 404 },
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/amendments/:amendmentId/impact.pdf',
    request: (f) => ({ url: `/api/studies/${f.studyId}/amendments/999999/impact.pdf?lang=en` }),
    expected: { ...everyone(403), DM: 404, ADMIN: 404 },
  },
  {
    // Only the study's administrators decide whether a publish needs an approved review.
    method: 'PUT',
    route: '/api/studies/:studyId/design-settings',
    request: (f) => ({ url: `/api/studies/${f.studyId}/design-settings`, body: { approvalRequired: false } }),
    expected: { ...everyone(403), ADMIN: 200 },
  },
  {
    // The study is live: its designers pass authorization and are told it is not in design.
    method: 'POST',
    route: '/api/studies/:studyId/definition-imports',
    request: (f) => ({
      url: `/api/studies/${f.studyId}/definition-imports`,
      body: { format: 'redcapDictionary', file: 'x', language: 'en', contentHash: '0'.repeat(64) },
    }),
    expected: { ...everyone(403), DM: 409, ADMIN: 409 },
  },
  {
    method: 'POST',
    route: '/api/studies/:studyId/go-live',
    request: (f) => ({ url: `/api/studies/${f.studyId}/go-live`, body: { password: 'not-checked-here' } }),
    expected: adminOnly(409),
  },
  {
    method: 'GET',
    route: '/api/studies',
    request: () => ({ url: '/api/studies?status=active' }),
    expected: everyone(200),
  },
  {
    method: 'GET',
    route: '/api/studies/recent',
    request: () => ({ url: '/api/studies/recent' }),
    expected: everyone(200),
  },
  {
    method: 'POST',
    route: '/api/studies/:studyId/views',
    request: (f) => ({ url: `/api/studies/${f.studyId}/views` }),
    expected: everyone(204),
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/notices',
    request: (f) => ({ url: `/api/studies/${f.studyId}/notices` }),
    expected: everyone(200),
  },
  {
    method: 'POST',
    route: '/api/studies/:studyId/notices',
    request: (f) => ({
      url: `/api/studies/${f.studyId}/notices`,
      body: { title: 'Matrix', contentHtml: '<p>m</p>' },
    }),
    expected: noticeWriters(201),
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/notices/:noticeId',
    request: (f) => ({ url: `/api/studies/${f.studyId}/notices/${f.noticeId}` }),
    expected: everyone(200),
  },
  {
    method: 'PUT',
    route: '/api/studies/:studyId/notices/:noticeId',
    request: (f) => ({ url: `/api/studies/${f.studyId}/notices/${f.noticeId}`, body: { pinned: true } }),
    expected: noticeWriters(200),
  },
  {
    method: 'DELETE',
    route: '/api/studies/:studyId/notices/:noticeId',
    request: (f) => ({ url: `/api/studies/${f.studyId}/notices/NOTICE` }),
    expected: noticeWriters(204),
  },
  {
    method: 'POST',
    route: '/api/uploads/images',
    request: () => ({
      url: '/api/uploads/images',
      body: imageUpload,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    }),
    expected: noticeWriters(201),
  },
  {
    method: 'GET',
    route: '/api/uploads/images/:imageId',
    request: (f) => ({ url: `/api/uploads/images/${f.imageId}` }),
    expected: everyone(200),
  },
  // Issue 18: attachments, guidelines and task notices (written by notice writers, read by members).
  {
    method: 'POST',
    route: '/api/studies/:studyId/attachments',
    request: (f) => ({
      url: `/api/studies/${f.studyId}/attachments`,
      body: pdfUpload,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    }),
    expected: noticeWriters(201),
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/attachments/:attachmentId',
    request: (f) => ({ url: `/api/studies/${f.studyId}/attachments/GUIDELINE_FILE` }),
    expected: everyone(200),
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/guidelines',
    request: (f) => ({ url: `/api/studies/${f.studyId}/guidelines?state=published` }),
    expected: everyone(200),
  },
  {
    method: 'POST',
    route: '/api/studies/:studyId/guidelines',
    request: (f) => ({
      url: `/api/studies/${f.studyId}/guidelines`,
      body: {
        guideType: 'other',
        title: 'Matrix',
        contentHtml: '<p>m</p>',
        version: '1.0',
        effectiveDate: '2026-01-01',
      },
    }),
    expected: noticeWriters(201),
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/guidelines/:guidelineId',
    request: (f) => ({ url: `/api/studies/${f.studyId}/guidelines/GUIDELINE_PUBLISHED` }),
    expected: everyone(200),
  },
  {
    method: 'PUT',
    route: '/api/studies/:studyId/guidelines/:guidelineId',
    request: (f) => ({
      url: `/api/studies/${f.studyId}/guidelines/GUIDELINE_DRAFT`,
      body: { title: 'Edited' },
    }),
    expected: noticeWriters(200),
  },
  {
    method: 'DELETE',
    route: '/api/studies/:studyId/guidelines/:guidelineId',
    request: (f) => ({ url: `/api/studies/${f.studyId}/guidelines/GUIDELINE_DRAFT` }),
    expected: noticeWriters(204),
  },
  {
    method: 'POST',
    route: '/api/studies/:studyId/guidelines/:guidelineId/publish',
    request: (f) => ({ url: `/api/studies/${f.studyId}/guidelines/GUIDELINE_DRAFT/publish` }),
    expected: noticeWriters(200),
  },
  {
    method: 'POST',
    route: '/api/studies/:studyId/guidelines/:guidelineId/retire',
    request: (f) => ({ url: `/api/studies/${f.studyId}/guidelines/GUIDELINE_PUBLISHED/retire` }),
    expected: noticeWriters(200),
  },
  {
    method: 'POST',
    route: '/api/studies/:studyId/guidelines/:guidelineId/revisions',
    request: (f) => ({
      url: `/api/studies/${f.studyId}/guidelines/GUIDELINE_PUBLISHED/revisions`,
      body: { version: '9.0' },
    }),
    expected: noticeWriters(201),
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/task-notices',
    request: (f) => ({ url: `/api/studies/${f.studyId}/task-notices` }),
    expected: everyone(200),
  },
  {
    method: 'POST',
    route: '/api/studies/:studyId/task-notices',
    request: (f) => ({
      url: `/api/studies/${f.studyId}/task-notices`,
      body: {
        alarmType: 'general',
        title: 'Matrix',
        content: 'm',
        roles: ['DM'],
        periodStart: '2099-01-01',
        periodEnd: '2099-01-02',
        email: true,
        sms: false,
      },
    }),
    expected: noticeWriters(201),
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/subjects',
    request: (f) => ({ url: `/api/studies/${f.studyId}/subjects` }),
    expected: everyone(200),
  },
  {
    method: 'POST',
    route: '/api/studies/:studyId/subjects',
    // At site 01: its PI and SI may; the CRC (site 02), monitors and managers may not.
    request: (f) => ({
      url: `/api/studies/${f.studyId}/subjects`,
      body: { siteId: f.siteId, consentDate: '2025-03-03', initials: 'MTX' },
    }),
    expected: { ...everyone(403), PI: 201, SI: 201 },
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/subjects/export',
    request: (f) => ({ url: `/api/studies/${f.studyId}/subjects/export?format=csv` }),
    expected: { ...everyone(403), DM: 200, ADMIN: 200 },
  },
  {
    method: 'DELETE',
    route: '/api/studies/:studyId/subjects/:subjectId',
    // A fresh subject at site 01 without data: its PI may; the CRC (site 02) does not see it.
    request: (f) => ({ url: `/api/studies/${f.studyId}/subjects/SUBJECT`, body: { reason: 'matrix' } }),
    expected: { ...everyone(403), PI: 204, CRC: 404 },
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/subjects/:subjectId/overview',
    request: (f) => ({ url: `/api/studies/${f.studyId}/subjects/${f.subjectId}/overview` }),
    expected: subjectReaders(200),
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/subjects/:subjectId/forms/:visitKey/:formKey',
    request: (f) => ({ url: `/api/studies/${f.studyId}/subjects/${f.subjectId}/forms/v1/demographicInfo` }),
    expected: subjectReaders(200),
  },
  {
    method: 'PUT',
    route: '/api/studies/:studyId/subjects/:subjectId/forms/:visitKey/:formKey',
    request: (f) => ({
      url: `/api/studies/${f.studyId}/subjects/SUBJECT/forms/v1/demographicInfo`,
      body: { values: { gender: 'F' }, version: 0 },
    }),
    expected: subjectWriters(200),
  },
  // Issue 19: the eardrum photo of a form (uploaded by those who enter data, read by the subject's readers).
  {
    method: 'POST',
    route: '/api/studies/:studyId/subjects/:subjectId/forms/:visitKey/:formKey/photos',
    request: (f) => ({
      url: `/api/studies/${f.studyId}/subjects/SUBJECT/forms/v1/tympanicPhoto/photos`,
      body: photoUpload,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    }),
    expected: subjectWriters(201),
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/subjects/:subjectId/photos/:photoId',
    request: (f) => ({ url: `/api/studies/${f.studyId}/subjects/${f.subjectId}/photos/FORM_PHOTO` }),
    expected: subjectReaders(200),
  },
  {
    method: 'POST',
    route: '/api/studies/:studyId/subjects/:subjectId/forms/:visitKey/:formKey/reset',
    request: (f) => ({
      url: `/api/studies/${f.studyId}/subjects/SUBJECT/forms/v1/demographicInfo/reset`,
      body: { version: 0, reason: 'matrix' },
    }),
    expected: subjectWriters(200),
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/subjects/:subjectId/forms/:visitKey/:formKey/comments',
    request: (f) => ({
      url: `/api/studies/${f.studyId}/subjects/${f.subjectId}/forms/v1/demographicInfo/comments`,
    }),
    expected: subjectReaders(200),
  },
  {
    method: 'POST',
    route: '/api/studies/:studyId/subjects/:subjectId/forms/:visitKey/:formKey/comments',
    request: (f) => ({
      url: `/api/studies/${f.studyId}/subjects/${f.subjectId}/forms/v1/demographicInfo/comments`,
      body: { sectionKey: f.sectionKey, text: 'matrix' },
    }),
    expected: subjectWriters(201),
  },
  {
    method: 'POST',
    route: '/api/studies/:studyId/subjects/:subjectId/unscheduled-visits',
    request: (f) => ({
      url: `/api/studies/${f.studyId}/subjects/SUBJECT/unscheduled-visits`,
      body: { visitDate: '2025-03-10', reason: 'matrix' },
    }),
    expected: subjectWriters(201),
  },
  {
    method: 'DELETE',
    route: '/api/studies/:studyId/subjects/:subjectId/unscheduled-visits/:repeatKey',
    // A fresh subject at site 01 with one empty unscheduled visit.
    request: (f) => ({
      url: `/api/studies/${f.studyId}/subjects/UNSCHEDULED_SUBJECT/unscheduled-visits/1`,
      body: { reason: 'matrix' },
    }),
    expected: subjectWriters(204),
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/queries',
    request: (f) => ({ url: `/api/studies/${f.studyId}/queries?state=all` }),
    expected: everyone(200),
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/queries/export',
    request: (f) => ({ url: `/api/studies/${f.studyId}/queries/export?format=csv` }),
    expected: everyone(200),
  },
  {
    method: 'POST',
    route: '/api/studies/:studyId/queries',
    // On a subject at site 01: its monitor and the data manager may; the CRC (site 02) does not see it.
    request: (f) => ({
      url: `/api/studies/${f.studyId}/queries`,
      body: {
        subjectPk: f.subjectId,
        visitKey: 'v1',
        formKey: 'vitalSigns',
        itemPath: 'v1.vitalSigns.heartRate',
        text: 'matrix',
      },
    }),
    expected: queryManagers(201),
  },
  {
    method: 'POST',
    route: '/api/studies/:studyId/queries/bulk',
    request: (f) => ({
      url: `/api/studies/${f.studyId}/queries/bulk`,
      body: { action: 'close', queryIds: ['OPEN_QUERY_ID'], text: 'matrix' },
    }),
    expected: queryManagers(200),
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/queries/:queryId',
    request: (f) => ({ url: `/api/studies/${f.studyId}/queries/${f.queryId}` }),
    expected: subjectReaders(200),
  },
  {
    method: 'POST',
    route: '/api/studies/:studyId/queries/:queryId/answer',
    request: (f) => ({
      url: `/api/studies/${f.studyId}/queries/OPEN_QUERY/answer`,
      body: { text: 'matrix' },
    }),
    expected: { ...everyone(403), PI: 200, SI: 200, CRC: 404 },
  },
  {
    method: 'POST',
    route: '/api/studies/:studyId/queries/:queryId/comment',
    request: (f) => ({
      url: `/api/studies/${f.studyId}/queries/OPEN_QUERY/comment`,
      body: { text: 'matrix' },
    }),
    expected: { ...everyone(403), PI: 200, SI: 200, CRA: 200, DM: 200, CRC: 404 },
  },
  {
    method: 'POST',
    route: '/api/studies/:studyId/queries/:queryId/close',
    request: (f) => ({ url: `/api/studies/${f.studyId}/queries/OPEN_QUERY/close`, body: {} }),
    expected: queryManagers(200),
  },
  {
    method: 'POST',
    route: '/api/studies/:studyId/queries/:queryId/cancel',
    request: (f) => ({
      url: `/api/studies/${f.studyId}/queries/OPEN_QUERY/cancel`,
      body: { text: 'matrix' },
    }),
    expected: queryManagers(200),
  },
  {
    method: 'POST',
    route: '/api/studies/:studyId/queries/:queryId/reopen',
    request: (f) => ({
      url: `/api/studies/${f.studyId}/queries/ANSWERED_QUERY/reopen`,
      body: { text: 'matrix' },
    }),
    expected: queryManagers(200),
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/subjects/:subjectId/audit',
    request: (f) => ({ url: `/api/studies/${f.studyId}/subjects/${f.subjectId}/audit` }),
    expected: subjectReaders(200),
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/holds',
    request: (f) => ({ url: `/api/studies/${f.studyId}/holds?siteId=${f.siteId}` }),
    // Site 01: the CRC works at site 02.
    expected: { ...everyone(200), CRC: 404 },
  },
  {
    method: 'POST',
    route: '/api/studies/:studyId/holds',
    request: (f) => ({
      url: `/api/studies/${f.studyId}/holds`,
      body: { kind: 'frozen', target: { level: 'subject', subjectPk: 'FRESH_SUBJECT_ID' }, reason: 'matrix' },
    }),
    expected: freezers(201),
  },
  {
    method: 'POST',
    route: '/api/studies/:studyId/holds/lift',
    request: (f) => ({
      url: `/api/studies/${f.studyId}/holds/lift`,
      body: {
        kind: 'frozen',
        target: { level: 'subject', subjectPk: 'FROZEN_SUBJECT_ID' },
        reason: 'matrix',
      },
    }),
    expected: freezers(200),
  },
  {
    method: 'POST',
    route: '/api/studies/:studyId/holds/bulk',
    request: (f) => ({
      url: `/api/studies/${f.studyId}/holds/bulk`,
      body: { action: 'place', kind: 'frozen', subjectPks: ['FRESH_SUBJECT_ID'], reason: 'matrix' },
    }),
    expected: freezers(200),
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/readiness/sites',
    request: (f) => ({ url: `/api/studies/${f.studyId}/readiness/sites` }),
    expected: everyone(200),
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/readiness/subjects',
    request: (f) => ({ url: `/api/studies/${f.studyId}/readiness/subjects?state=notReady&size=50` }),
    expected: everyone(200),
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/sdv/plan',
    request: (f) => ({ url: `/api/studies/${f.studyId}/sdv/plan` }),
    expected: everyone(200),
  },
  {
    method: 'PUT',
    route: '/api/studies/:studyId/sdv/plan',
    // A different N each call (the same plan again is a 409); `all` keeps every item in the plan for
    // the SDV cases below.
    request: (f) => ({
      url: `/api/studies/${f.studyId}/sdv/plan`,
      body: { mode: 'all', firstSubjectsPerSite: 'FRESH_COUNT' },
    }),
    expected: { ...everyone(403), DM: 200, ADMIN: 200 },
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/sdv/sites',
    request: (f) => ({ url: `/api/studies/${f.studyId}/sdv/sites` }),
    expected: everyone(200),
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/sdv/subjects',
    request: (f) => ({ url: `/api/studies/${f.studyId}/sdv/subjects?state=incomplete` }),
    expected: everyone(200),
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/sdv/subjects/:subjectPk',
    request: (f) => ({ url: `/api/studies/${f.studyId}/sdv/subjects/${f.subjectId}` }),
    expected: subjectReaders(200),
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/subjects/:subjectId/casebook.pdf',
    // Whoever may read the subject at site 01; the CRC (site 02) does not see it.
    request: (f) => ({ url: `/api/studies/${f.studyId}/subjects/${f.subjectId}/casebook.pdf?lang=en` }),
    expected: subjectReaders(200),
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/sites/:siteId/casebooks.zip',
    request: (f) => ({ url: `/api/studies/${f.studyId}/sites/${f.siteId}/casebooks.zip?audit=1` }),
    expected: { ...everyone(403), DM: 200, ADMIN: 200 },
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/sdv/next',
    request: (f) => ({ url: `/api/studies/${f.studyId}/sdv/next?siteId=${f.siteId}` }),
    expected: { ...everyone(200), CRC: 404 },
  },
  {
    method: 'POST',
    route: '/api/studies/:studyId/sdv/verify',
    request: (f) => ({
      url: `/api/studies/${f.studyId}/sdv/verify`,
      body: { subjectPk: 'DATA_SUBJECT_ID', visitKey: 'v1', formKey: 'vitalSigns', itemKeys: ['heartRate'] },
    }),
    expected: verifiers(200),
  },
  {
    method: 'POST',
    route: '/api/studies/:studyId/sdv/verify-form',
    request: (f) => ({
      url: `/api/studies/${f.studyId}/sdv/verify-form`,
      body: { subjectPk: 'DATA_SUBJECT_ID', visitKey: 'v1', formKey: 'vitalSigns' },
    }),
    expected: verifiers(200),
  },
  {
    method: 'POST',
    route: '/api/studies/:studyId/sdv/verify-visit',
    request: (f) => ({
      url: `/api/studies/${f.studyId}/sdv/verify-visit`,
      body: { subjectPk: 'DATA_SUBJECT_ID', visitKey: 'v1' },
    }),
    expected: verifiers(200),
  },
  {
    method: 'POST',
    route: '/api/studies/:studyId/sdv/unverify',
    request: (f) => ({
      url: `/api/studies/${f.studyId}/sdv/unverify`,
      body: {
        subjectPk: 'VERIFIED_SUBJECT_ID',
        visitKey: 'v1',
        formKey: 'vitalSigns',
        itemKeys: ['heartRate'],
        reason: 'matrix',
      },
    }),
    expected: verifiers(200),
  },
  {
    method: 'POST',
    route: '/api/studies/:studyId/data-exports',
    request: (f) => ({
      url: `/api/studies/${f.studyId}/data-exports`,
      body: { format: 'odm-1.3.2', scope: { siteIds: [f.siteId] }, auditTrail: true },
    }),
    expected: { ...everyone(403), DM: 201, ADMIN: 201 },
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/data-exports',
    request: (f) => ({ url: `/api/studies/${f.studyId}/data-exports?page=1&size=10` }),
    expected: { ...everyone(403), DM: 200, ADMIN: 200 },
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/data-exports/:exportId',
    request: (f) => ({ url: `/api/studies/${f.studyId}/data-exports/${f.doneExportId}` }),
    expected: { ...everyone(403), DM: 200, ADMIN: 200 },
  },
  {
    method: 'POST',
    route: '/api/studies/:studyId/data-exports/:exportId/cancel',
    // A fresh queued export each call: a cancelled one cannot be cancelled again.
    request: (f) => ({ url: `/api/studies/${f.studyId}/data-exports/QUEUED_EXPORT/cancel` }),
    expected: { ...everyone(403), DM: 200, ADMIN: 200 },
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/data-exports/:exportId/download',
    request: (f) => ({ url: `/api/studies/${f.studyId}/data-exports/${f.doneExportId}/download` }),
    expected: { ...everyone(403), DM: 200, ADMIN: 200 },
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/audit',
    // The study's audit trail: its reviewers (the CRA on their sites, DM, ADMIN); site roles 403.
    request: (f) => ({ url: `/api/studies/${f.studyId}/audit?siteId=${f.siteId}` }),
    expected: auditReviewers(200),
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/audit.csv',
    request: (f) => ({ url: `/api/studies/${f.studyId}/audit.csv` }),
    expected: auditReviewers(200),
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/audit/chain',
    request: (f) => ({ url: `/api/studies/${f.studyId}/audit/chain` }),
    expected: auditReviewers(200),
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/dashboard',
    // The chart's institution filter on site 01: the CRC (site 02) may not name it.
    request: (f) => ({ url: `/api/studies/${f.studyId}/dashboard?site=${f.siteId}` }),
    expected: subjectReaders(200),
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/subject-info',
    request: (f) => ({ url: `/api/studies/${f.studyId}/subject-info` }),
    expected: everyone(200),
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/visit-alarms',
    request: (f) => ({ url: `/api/studies/${f.studyId}/visit-alarms?site=${f.siteId}` }),
    expected: subjectReaders(200),
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/reports/:report',
    // Every role reads reports over its own sites; naming site 01 is 404 for the CRC (site 02).
    request: (f) => ({ url: `/api/studies/${f.studyId}/reports/missingForms?siteId=${f.siteId}` }),
    expected: reportReaders(200),
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/reports/:report/download',
    request: (f) => ({
      url: `/api/studies/${f.studyId}/reports/enrollment/download?format=csv&siteId=${f.siteId}`,
    }),
    expected: reportReaders(200),
  },
  {
    method: 'PUT',
    route: '/api/studies/:studyId/sites/:siteId/enrollment-target',
    request: (f) => ({
      url: `/api/studies/${f.studyId}/sites/${f.siteId}/enrollment-target`,
      body: { target: 12 },
    }),
    expected: { ...everyone(403), DM: 200, ADMIN: 200 },
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/summary',
    // Who reads the reports reads the summary, over their own sites; site 01 is 404 for the CRC (site 02).
    request: (f) => ({ url: `/api/studies/${f.studyId}/summary?siteId=${f.siteId}` }),
    expected: reportReaders(200),
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/randomization',
    request: (f) => ({ url: `/api/studies/${f.studyId}/randomization` }),
    expected: { ...everyone(403), DM: 200, ADMIN: 200 },
  },
  {
    method: 'POST',
    route: '/api/studies/:studyId/randomization/generate',
    request: (f) => ({
      url: `/api/studies/${f.studyId}/randomization/generate`,
      body: { perSite: 4, seed: 'matrix', siteIds: ['FRESH_SITE_ID'] },
    }),
    expected: { ...everyone(403), DM: 201, ADMIN: 201 },
  },
  {
    method: 'POST',
    route: '/api/studies/:studyId/randomization/import',
    request: (f) => ({
      url: `/api/studies/${f.studyId}/randomization/import`,
      body: {
        csv: 'institution,sequence,group\nFRESH_SITE_NUMBER,1,treatment\nFRESH_SITE_NUMBER,2,control\n',
      },
    }),
    expected: { ...everyone(403), DM: 201, ADMIN: 201 },
  },
  {
    method: 'PUT',
    route: '/api/studies/:studyId/randomization/settings',
    // The list the study has (every reader): an unchanged setting, so each caller's call is alike.
    request: (f) => ({
      url: `/api/studies/${f.studyId}/randomization/settings`,
      body: { groupVisibleRoles: ['PI', 'SI', 'CRC', 'CRA', 'DM', 'ADMIN', 'CODER', 'SAFETY'] },
    }),
    expected: { ...everyone(403), DM: 200, ADMIN: 200 },
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/lab-ranges',
    request: (f) => ({ url: `/api/studies/${f.studyId}/lab-ranges?retired=true` }),
    expected: everyone(200),
  },
  {
    method: 'POST',
    route: '/api/studies/:studyId/lab-ranges',
    // Normal ranges are kept by DM and ADMIN (lab.manage); every member reads them.
    request: (f) => ({
      url: `/api/studies/${f.studyId}/lab-ranges`,
      body: {
        siteId: f.siteId,
        testKey: 'ast',
        unit: 'U/L',
        low: null,
        high: 40,
        sex: null,
        ageMin: null,
        ageMax: null,
        effectiveFrom: '2025-01-01',
      },
    }),
    expected: { ...everyone(403), DM: 201, ADMIN: 201 },
  },
  {
    method: 'PUT',
    route: '/api/studies/:studyId/lab-ranges/:rangeId',
    request: (f) => ({
      url: `/api/studies/${f.studyId}/lab-ranges/LAB_RANGE`,
      body: {
        siteId: f.siteId,
        testKey: 'alt',
        unit: 'U/L',
        low: 0,
        high: 41,
        sex: 'M',
        ageMin: 19,
        ageMax: null,
        effectiveFrom: '2025-01-01',
      },
    }),
    expected: { ...everyone(403), DM: 200, ADMIN: 200 },
  },
  {
    method: 'POST',
    route: '/api/studies/:studyId/lab-ranges/:rangeId/retire',
    request: (f) => ({ url: `/api/studies/${f.studyId}/lab-ranges/LAB_RANGE/retire` }),
    expected: { ...everyone(403), DM: 200, ADMIN: 200 },
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/training',
    request: (f) => ({ url: `/api/studies/${f.studyId}/training` }),
    expected: everyone(200),
  },
  {
    method: 'POST',
    route: '/api/studies/:studyId/training/modules',
    // Training modules are written by DM and ADMIN (training.manage); every member reads theirs.
    request: (f) => ({
      url: `/api/studies/${f.studyId}/training/modules`,
      body: { title: 'Matrix', contentHtml: '<p>m</p>', roles: ['CRA'], quiz: null, state: 'draft' },
    }),
    expected: { ...everyone(403), DM: 201, ADMIN: 201 },
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/training/modules/:moduleId',
    // Required for every role: each member reads it.
    request: (f) => ({ url: `/api/studies/${f.studyId}/training/modules/${f.trainingModuleId}` }),
    expected: everyone(200),
  },
  {
    method: 'PUT',
    route: '/api/studies/:studyId/training/modules/:moduleId',
    request: (f) => ({
      url: `/api/studies/${f.studyId}/training/modules/${f.trainingModuleId}`,
      body: {
        title: 'Everyone',
        contentHtml: '<p>e</p>',
        roles: [...roles],
        quiz: null,
        state: 'published',
      },
    }),
    expected: { ...everyone(403), DM: 200, ADMIN: 200 },
  },
  {
    method: 'POST',
    route: '/api/studies/:studyId/training/modules/:moduleId/complete',
    request: (f) => ({ url: `/api/studies/${f.studyId}/training/modules/${f.trainingModuleId}/complete` }),
    expected: everyone(200),
  },
  {
    method: 'POST',
    route: '/api/studies/:studyId/training/modules/:moduleId/quiz',
    request: (f) => ({
      url: `/api/studies/${f.studyId}/training/modules/${f.trainingQuizModuleId}/quiz`,
      body: { answers: [0] },
    }),
    expected: everyone(200),
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/training/modules/:moduleId/certificate.pdf',
    // Everyone completed it (the fixture): each gets their own certificate.
    request: (f) => ({
      url: `/api/studies/${f.studyId}/training/modules/${f.trainingQuizModuleId}/certificate.pdf`,
    }),
    expected: everyone(200),
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/training/certificate.pdf',
    // Issue 51: each one's own record; everyone passed the fixture's quiz module.
    request: (f) => ({ url: `/api/studies/${f.studyId}/training/certificate.pdf` }),
    expected: everyone(200),
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/training/members/:userId/certificate.pdf',
    request: (f) => ({ url: `/api/studies/${f.studyId}/training/members/${f.memberUserId}/certificate.pdf` }),
    expected: { ...everyone(403), DM: 200, ADMIN: 200 },
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/training/matrix',
    request: (f) => ({ url: `/api/studies/${f.studyId}/training/matrix?status=not_done` }),
    expected: { ...everyone(403), DM: 200, ADMIN: 200 },
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/training/matrix/download',
    request: (f) => ({ url: `/api/studies/${f.studyId}/training/matrix/download` }),
    expected: { ...everyone(403), DM: 200, ADMIN: 200 },
  },
  {
    method: 'PUT',
    route: '/api/studies/:studyId/training/settings',
    request: (f) => ({ url: `/api/studies/${f.studyId}/training/settings`, body: { gatesDataEntry: false } }),
    expected: { ...everyone(403), DM: 200, ADMIN: 200 },
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/lab-results',
    request: (f) => ({ url: `/api/studies/${f.studyId}/lab-results?flag=H&size=50` }),
    expected: everyone(200),
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/lab-results/download',
    request: (f) => ({ url: `/api/studies/${f.studyId}/lab-results/download?format=csv&flag=H` }),
    expected: everyone(200),
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/review-listings',
    request: (f) => ({ url: `/api/studies/${f.studyId}/review-listings` }),
    expected: everyone(200),
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/review-listings/:table',
    // Every role reads subject data over its own sites (site roles see their sites' rows).
    request: (f) => ({
      url: `/api/studies/${f.studyId}/review-listings/vitalSigns?size=20&review=not_reviewed`,
    }),
    expected: everyone(200),
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/review-listings/:table/export',
    request: (f) => ({
      url: `/api/studies/${f.studyId}/review-listings/vitalSigns/export?columns=heartRate`,
    }),
    expected: everyone(200),
  },
  {
    method: 'POST',
    route: '/api/studies/:studyId/review-listings/:table/review',
    // Marking rows reviewed (review.mark): the site-01 monitor and data management.
    request: (f) => ({
      url: `/api/studies/${f.studyId}/review-listings/vitalSigns/review`,
      body: { formInstanceIds: ['DATA_INSTANCE_ID'] },
    }),
    expected: { ...everyone(403), CRA: 200, DM: 200 },
  },
  {
    method: 'POST',
    route: '/api/studies/:studyId/review-listings/bulk-queries',
    // A fresh subject with data each call, so no item already has an open query.
    request: (f) => ({
      url: `/api/studies/${f.studyId}/review-listings/bulk-queries`,
      body: {
        targets: [
          { subjectPk: 'DATA_SUBJECT_ID', visitKey: 'v1', formKey: 'vitalSigns', itemPath: 'heartRate' },
        ],
        text: 'Please check against the source.',
      },
    }),
    expected: { ...everyone(403), CRA: 201, DM: 201 },
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/alarm-log',
    request: (f) => ({ url: `/api/studies/${f.studyId}/alarm-log?status=sent&size=50` }),
    expected: { ...everyone(403), CRA: 200, DM: 200, ADMIN: 200 },
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/alarm-log/download',
    request: (f) => ({ url: `/api/studies/${f.studyId}/alarm-log/download?format=csv&channel=email` }),
    expected: { ...everyone(403), CRA: 200, DM: 200, ADMIN: 200 },
  },
  // Issue 50: central monitoring. The page and the panel are every member's (site staff see their own
  // sites' indicators and no signals); signals, their actions and runs are the monitors' (CRA, DM,
  // ADMIN); the limits data management's. The demo study has no signal 999999: reviewers are told so.
  {
    method: 'GET',
    route: '/api/studies/:studyId/monitoring',
    request: (f) => ({ url: `/api/studies/${f.studyId}/monitoring` }),
    expected: everyone(200),
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/monitoring/panel',
    request: (f) => ({ url: `/api/studies/${f.studyId}/monitoring/panel` }),
    expected: everyone(200),
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/monitoring/signals',
    request: (f) => ({ url: `/api/studies/${f.studyId}/monitoring/signals?state=active&size=10` }),
    expected: { ...everyone(403), CRA: 200, DM: 200, ADMIN: 200 },
  },
  {
    method: 'POST',
    route: '/api/studies/:studyId/monitoring/signals/:signalId/queries',
    request: (f) => ({
      url: `/api/studies/${f.studyId}/monitoring/signals/999999/queries`,
      body: { text: 'Please check these values.' },
    }),
    expected: { ...everyone(403), CRA: 404, DM: 404, ADMIN: 404 },
  },
  {
    method: 'POST',
    route: '/api/studies/:studyId/monitoring/signals/:signalId/note',
    request: (f) => ({
      url: `/api/studies/${f.studyId}/monitoring/signals/999999/note`,
      body: { text: 'Look at the source documents.' },
    }),
    expected: { ...everyone(403), CRA: 404, DM: 404, ADMIN: 404 },
  },
  {
    method: 'POST',
    route: '/api/studies/:studyId/monitoring/signals/:signalId/dismiss',
    request: (f) => ({
      url: `/api/studies/${f.studyId}/monitoring/signals/999999/dismiss`,
      body: { reason: 'Explained by the site.' },
    }),
    expected: { ...everyone(403), CRA: 404, DM: 404, ADMIN: 404 },
  },
  {
    method: 'PUT',
    route: '/api/studies/:studyId/monitoring/tolerance-limits',
    request: (f) => ({
      url: `/api/studies/${f.studyId}/monitoring/tolerance-limits`,
      body: {
        limits: [{ key: 'queryRate', warning: 10, limit: 20, direction: 'high', minimumDenominator: 100 }],
        reason: 'Matrix',
      },
    }),
    expected: { ...everyone(403), DM: 200, ADMIN: 200 },
  },
  {
    method: 'POST',
    route: '/api/studies/:studyId/monitoring/runs',
    request: (f) => ({ url: `/api/studies/${f.studyId}/monitoring/runs` }),
    expected: { ...everyone(403), CRA: 202, DM: 202, ADMIN: 202 },
  },
  // Issue 51 item 2: medical coding. The queue, search, coding and queries back are the coder's; the
  // dictionaries the coder's and the administrator's. No assignment or dictionary 999999 exists.
  {
    method: 'GET',
    route: '/api/studies/:studyId/coding/queue',
    request: (f) => ({ url: `/api/studies/${f.studyId}/coding/queue?status=pending&size=20` }),
    expected: { ...everyone(403), CODER: 200 },
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/coding/search',
    request: (f) => ({ url: `/api/studies/${f.studyId}/coding/search?kind=meddra&q=ear` }),
    expected: { ...everyone(403), CODER: 200 },
  },
  {
    method: 'POST',
    route: '/api/studies/:studyId/coding/assignments/:assignmentId/code',
    request: (f) => ({
      url: `/api/studies/${f.studyId}/coding/assignments/999999/code`,
      body: { version: 1, code: '99000101' },
    }),
    expected: { ...everyone(403), CODER: 404 },
  },
  {
    method: 'POST',
    route: '/api/studies/:studyId/coding/assignments/:assignmentId/query',
    request: (f) => ({
      url: `/api/studies/${f.studyId}/coding/assignments/999999/query`,
      body: { version: 1, text: 'Which product?' },
    }),
    expected: { ...everyone(403), CODER: 404 },
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/coding/dictionaries',
    request: (f) => ({ url: `/api/studies/${f.studyId}/coding/dictionaries` }),
    expected: { ...everyone(403), CODER: 200, ADMIN: 200 },
  },
  {
    method: 'POST',
    route: '/api/studies/:studyId/coding/dictionaries',
    request: (f) => ({
      url: `/api/studies/${f.studyId}/coding/dictionaries?kind=synonyms`,
      body: synonymUpload,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    }),
    expected: { ...everyone(403), CODER: 201, ADMIN: 201 },
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/coding/dictionaries/:dictionaryId/upgrade',
    request: (f) => ({ url: `/api/studies/${f.studyId}/coding/dictionaries/999999/upgrade` }),
    expected: { ...everyone(403), CODER: 404, ADMIN: 404 },
  },
  {
    method: 'POST',
    route: '/api/studies/:studyId/coding/dictionaries/:dictionaryId/upgrade',
    request: (f) => ({ url: `/api/studies/${f.studyId}/coding/dictionaries/999999/upgrade` }),
    expected: { ...everyone(403), CODER: 404, ADMIN: 404 },
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/subjects/:subjectId/signature',
    request: (f) => ({ url: `/api/studies/${f.studyId}/subjects/${f.subjectId}/signature` }),
    expected: subjectReaders(200),
  },
  {
    method: 'POST',
    route: '/api/studies/:studyId/subjects/:subjectId/signature',
    // Only the PI of the subject's site signs (a fresh subject each call, with their own password).
    request: (f) => ({
      url: `/api/studies/${f.studyId}/subjects/SUBJECT/signature`,
      body: { password: DEMO_PASSWORD },
    }),
    expected: { ...everyone(403), PI: 201, CRC: 404 },
  },
  // Issue 51 item 1: SAE reports of a subject at site 01 (`SAE_DRAFT`, `SAE_SUBMITTED`: a fresh report in
  // that state per call). Reading: `sae.read` (not the coder nor the unblinded desk); writing: the site
  // (PI, SI); submitting: its PI; acknowledging: the safety desk. The CRC works at site 02: 404.
  {
    method: 'GET',
    route: '/api/studies/:studyId/sae-reports',
    request: (f) => ({ url: `/api/studies/${f.studyId}/sae-reports?status=draft&overdue=false` }),
    expected: { ...everyone(200), CODER: 403, UNBLINDED: 403 },
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/sae-reports/:reportId',
    request: (f) => ({ url: `/api/studies/${f.studyId}/sae-reports/SAE_DRAFT` }),
    expected: { ...everyone(200), CRC: 404, CODER: 403, UNBLINDED: 403 },
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/sae-reports/:reportId/cioms.pdf',
    request: (f) => ({ url: `/api/studies/${f.studyId}/sae-reports/SAE_SUBMITTED/cioms.pdf?lang=en` }),
    expected: { ...everyone(200), CRC: 404, CODER: 403, UNBLINDED: 403 },
  },
  {
    method: 'GET',
    route: '/api/studies/:studyId/sae-reports/:reportId/e2b.xml',
    request: (f) => ({ url: `/api/studies/${f.studyId}/sae-reports/SAE_SUBMITTED/e2b.xml` }),
    expected: { ...everyone(200), CRC: 404, CODER: 403, UNBLINDED: 403 },
  },
  {
    method: 'PUT',
    route: '/api/studies/:studyId/sae-reports/:reportId/draft',
    request: (f) => ({
      url: `/api/studies/${f.studyId}/sae-reports/SAE_DRAFT/draft`,
      body: {
        rowVersion: 1,
        content: {
          criteria: ['hospitalisation'],
          narrative: 'n',
          relevantHistory: '',
          suspectProducts: ['d'],
          outcome: '',
          reporter: '',
        },
      },
    }),
    expected: { ...everyone(403), PI: 200, SI: 200, CRC: 404 },
  },
  {
    method: 'PUT',
    route: '/api/studies/:studyId/sae-reports/:reportId/awareness',
    request: (f) => ({
      url: `/api/studies/${f.studyId}/sae-reports/SAE_DRAFT/awareness`,
      body: { rowVersion: 1, awarenessAt: '2026-03-01T23:30:00+09:00', reason: 'Learned by phone' },
    }),
    expected: { ...everyone(403), PI: 200, SI: 200, CRC: 404 },
  },
  {
    method: 'POST',
    route: '/api/studies/:studyId/sae-reports/:reportId/submission',
    request: (f) => ({
      url: `/api/studies/${f.studyId}/sae-reports/SAE_DRAFT/submission`,
      body: { rowVersion: 1, password: DEMO_PASSWORD },
    }),
    expected: { ...everyone(403), PI: 200, CRC: 404 },
  },
  {
    method: 'POST',
    route: '/api/studies/:studyId/sae-reports/:reportId/follow-ups',
    request: (f) => ({
      url: `/api/studies/${f.studyId}/sae-reports/SAE_SUBMITTED/follow-ups`,
      body: { rowVersion: 1 },
    }),
    expected: { ...everyone(403), PI: 201, SI: 201, CRC: 404 },
  },
  {
    method: 'POST',
    route: '/api/studies/:studyId/sae-reports/:reportId/acknowledgement',
    request: (f) => ({
      url: `/api/studies/${f.studyId}/sae-reports/SAE_SUBMITTED/acknowledgement`,
      body: { rowVersion: 1 },
    }),
    expected: { ...everyone(403), SAFETY: 200, CRC: 404 },
  },
  {
    method: 'POST',
    route: '/api/studies/:studyId/subjects/:subjectId/randomize',
    request: (f) => ({ url: `/api/studies/${f.studyId}/subjects/ELIGIBLE_SUBJECT/randomize` }),
    expected: subjectWriters(201),
  },
  {
    method: 'POST',
    route: '/api/studies/:studyId/subjects/:subjectId/unblind',
    // Emergency unblinding (issue 51): the PI of the subject's site only, a fresh randomized subject
    // each call; every other role is refused by the action before the subject is looked at.
    request: (f) => ({
      url: `/api/studies/${f.studyId}/subjects/RANDOMIZED_SUBJECT/unblind`,
      body: { reason: '응급실 내원, 투여 약물 확인 필요', password: DEMO_PASSWORD },
    }),
    expected: { ...everyone(403), PI: 201 },
  },
  {
    method: 'GET',
    route: '/api/admin/users',
    request: () => ({ url: '/api/admin/users' }),
    expected: adminOnly(200),
  },
  {
    method: 'POST',
    route: '/api/admin/users',
    request: (f) => ({
      url: '/api/admin/users',
      body: { email: `${f.unique()}@matrix.kr`, name: 'Matrix', password: 'matrix-password-1' },
    }),
    expected: adminOnly(201),
  },
  {
    method: 'PUT',
    route: '/api/admin/users/:userId',
    request: (f) => ({ url: `/api/admin/users/${f.userId}`, body: { contact: '010-0000-0000' } }),
    expected: adminOnly(200),
  },
  {
    method: 'POST',
    route: '/api/admin/users/:userId/reset-password',
    request: (f) => ({ url: `/api/admin/users/${f.userId}/reset-password` }),
    expected: adminOnly(200),
  },
  {
    method: 'POST',
    route: '/api/admin/users/:userId/second-factor/reset',
    request: (f) => ({ url: `/api/admin/users/${f.userId}/second-factor/reset` }),
    expected: adminOnly(204),
  },
  {
    method: 'GET',
    route: '/api/admin/settings/two-factor',
    request: () => ({ url: '/api/admin/settings/two-factor' }),
    expected: adminOnly(200),
  },
  {
    method: 'PUT',
    route: '/api/admin/settings/two-factor',
    // Off, as it is: the other callers must not be held to enrolment.
    request: () => ({ url: '/api/admin/settings/two-factor', body: { requiredForAdminAndDm: false } }),
    expected: adminOnly(200),
  },
  {
    method: 'GET',
    route: '/api/admin/studies',
    request: () => ({ url: '/api/admin/studies' }),
    expected: adminOnly(200),
  },
  {
    method: 'POST',
    route: '/api/admin/studies',
    request: (f) => ({
      url: '/api/admin/studies',
      body: {
        code: `M-${f.unique().slice(-8)}`,
        protocolNumber: '',
        titleKo: '권한 확인용 임상시험',
        titleEn: '',
        sponsor: '',
        kind: 'drug',
        content: '',
      },
    }),
    expected: adminOnly(201),
  },
  {
    method: 'POST',
    route: '/api/admin/studies/:studyId/sites',
    request: (f) => ({
      url: `/api/admin/studies/${f.studyId}/sites`,
      body: {
        code: `M${f.unique().slice(-6)}`,
        name: 'Matrix site',
        institutionNumber: 'NEXT_NUMBER',
      },
    }),
    expected: adminOnly(201),
  },
  {
    method: 'PUT',
    route: '/api/admin/studies/:studyId/sites/:siteId',
    request: (f) => ({
      url: `/api/admin/studies/${f.studyId}/sites/${f.siteId}`,
      body: { code: 'HBU-1Y', name: '한빛대학교병원', institutionNumber: '01' },
    }),
    expected: adminOnly(200),
  },
  {
    method: 'GET',
    route: '/api/admin/studies/:studyId/memberships',
    request: (f) => ({ url: `/api/admin/studies/${f.studyId}/memberships` }),
    expected: adminOnly(200),
  },
  {
    method: 'POST',
    route: '/api/admin/studies/:studyId/memberships',
    request: (f) => ({
      url: `/api/admin/studies/${f.studyId}/memberships`,
      body: { userId: f.userId, role: 'DM', siteIds: [] },
    }),
    // Admin: 201 the first time, 409 afterwards (the user already has the role) — see below.
    expected: adminOnly(201),
  },
  {
    method: 'PUT',
    route: '/api/admin/studies/:studyId/memberships/:membershipId',
    request: (f) => ({
      url: `/api/admin/studies/${f.studyId}/memberships/MEMBERSHIP`,
      body: { siteIds: [f.siteId] },
    }),
    expected: adminOnly(200),
  },
  {
    method: 'DELETE',
    route: '/api/admin/studies/:studyId/memberships/:membershipId',
    request: (f) => ({ url: `/api/admin/studies/${f.studyId}/memberships/MEMBERSHIP` }),
    expected: adminOnly(204),
  },
];

describeWithDatabase(
  'authorization matrix',
  (database) => {
    let app: App;
    let fixture: Fixture;
    let subjectFactory: () => Promise<number>;
    /** A fresh subject at site 01 with one empty unscheduled visit (repeat key 1). */
    let unscheduledVisitSubject: () => Promise<number>;
    let eligibleSubject: () => Promise<number>;
    let randomizedSubject: () => Promise<number>;
    let freshSite: () => Promise<{ id: number; institutionNumber: string }>;
    let nextInstitutionNumber: () => Promise<string>;
    let newQuery: (status: 'open' | 'answered') => Promise<number>;
    let newQueuedExport: () => Promise<number>;
    /** Replaces the issue-15 placeholders of a body (fresh subjects in the state each case needs). */
    let issue15Body: (body: unknown) => Promise<unknown>;

    beforeAll(async () => {
      // Export jobs stay queued: a runner finishing one would race the cancel case.
      app = await buildTestApp(database(), {}, { exportRunner: false });
      await app.ready();
      const db = database().db;
      const study = await db
        .selectFrom('studies')
        .select('id')
        .where('code', '=', 'TMP-2026')
        .executeTakeFirstOrThrow();
      const site = await db
        .selectFrom('sites')
        .select('id')
        .where('study_id', '=', study.id)
        .where('institution_number', '=', '01')
        .executeTakeFirstOrThrow();
      // The user the admin calls act on: not one of the callers, whose passwords must stay as they are.
      const target = await createUser(db, systemActor('test'), {
        email: 'target@matrix.kr',
        name: 'Target',
        contact: '',
        locale: 'ko',
        isAdmin: false,
        password: 'matrix-pass-2026',
      });
      const author = await db
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'cra@demo.cdms')
        .executeTakeFirstOrThrow();
      const notice = await db
        .insertInto('notices')
        .values({ study_id: study.id, title: 'Fixture', content_html: '<p>f</p>', author_user_id: author.id })
        .returning('id')
        .executeTakeFirstOrThrow();
      const image = await db
        .insertInto('uploaded_images')
        .values({ content_type: 'image/png', bytes: PNG_1X1, size: PNG_1X1.length, uploaded_by: author.id })
        .returning('id')
        .executeTakeFirstOrThrow();
      const pi = await db
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'pi@demo.cdms')
        .executeTakeFirstOrThrow();
      const newSubject = async () =>
        (
          await db
            .insertInto('subjects')
            .values({
              study_id: study.id,
              site_id: site.id,
              screening_number: `M-${crypto.randomUUID()}`,
              initials: 'MTX',
              consent_date: '2025-03-03',
              created_by: pi.id,
            })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
      subjectFactory = newSubject;
      unscheduledVisitSubject = async () => {
        const subjectId = await newSubject();
        await db
          .insertInto('unscheduled_visits')
          .values({
            study_id: study.id,
            subject_id: subjectId,
            repeat_key: 1,
            visit_date: '2025-03-10',
            reason: 'matrix',
            created_by: pi.id,
          })
          .execute();
        return subjectId;
      };
      const dm = await db
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'dm@demo.cdms')
        .executeTakeFirstOrThrow();
      const craSession = await signIn(app, 'cra@demo.cdms');
      let planCount = 0;
      issue15Body = async (body) => {
        // Only JSON bodies carry placeholders (an upload's bytes pass as they are).
        if (body === undefined || Buffer.isBuffer(body)) return body;
        let text = JSON.stringify(body);
        if (text.includes('"FRESH_SUBJECT_ID"'))
          text = text.replace('"FRESH_SUBJECT_ID"', String(await newSubject()));
        if (text.includes('"FRESH_COUNT"')) text = text.replace('"FRESH_COUNT"', String(++planCount));
        if (text.includes('"FROZEN_SUBJECT_ID"')) {
          const subjectId = await newSubject();
          await db
            .insertInto('holds')
            .values({
              study_id: study.id,
              kind: 'frozen',
              level: 'subject',
              site_id: site.id,
              subject_id: subjectId,
              target_key: `subject:${subjectId}`,
              placed_by: dm.id,
              placed_reason: 'matrix',
            })
            .execute();
          text = text.replace('"FROZEN_SUBJECT_ID"', String(subjectId));
        }
        for (const placeholder of ['DATA_SUBJECT_ID', 'VERIFIED_SUBJECT_ID', 'DATA_INSTANCE_ID']) {
          if (!text.includes(`"${placeholder}"`)) continue;
          // A subject at site 01 with vital signs saved by its PI (and, for un-verifying, verified by its CRA).
          const created = await app.inject({
            method: 'POST',
            url: `/api/studies/${study.id}/subjects`,
            payload: { siteId: site.id, consentDate: '2025-03-03', initials: 'SDV' },
            headers: piSession.headers,
          });
          const subjectId: number = created.json().id;
          await app.inject({
            method: 'PUT',
            url: `/api/studies/${study.id}/subjects/${subjectId}/forms/v1/vitalSigns`,
            payload: {
              values: { bloodPressureSystolic: 120, bloodPressureDiastolic: 80, heartRate: 70 },
              version: 0,
            },
            headers: piSession.headers,
          });
          if (placeholder === 'VERIFIED_SUBJECT_ID') {
            await app.inject({
              method: 'POST',
              url: `/api/studies/${study.id}/sdv/verify-form`,
              payload: { subjectPk: subjectId, visitKey: 'v1', formKey: 'vitalSigns' },
              headers: craSession.headers,
            });
          }
          if (placeholder === 'DATA_INSTANCE_ID') {
            // Issue 50: the saved vital signs' form instance, a row of the review listing.
            const instance = await db
              .selectFrom('form_instances')
              .select('id')
              .where('subject_id', '=', subjectId)
              .where('form_key', '=', 'vitalSigns')
              .executeTakeFirstOrThrow();
            text = text.replace(`"${placeholder}"`, String(instance.id));
            continue;
          }
          text = text.replace(`"${placeholder}"`, String(subjectId));
        }
        return JSON.parse(text);
      };
      await generateRandomizationLists(db, systemActor('test'), study.id, {
        perSite: 50,
        seed: 'matrix',
        siteIds: [site.id],
      });
      const piSession = await signIn(app, 'pi@demo.cdms');
      // A subject at site 01 saved as eligible at V2, through the API as its PI would.
      eligibleSubject = async () => {
        const created = await app.inject({
          method: 'POST',
          url: `/api/studies/${study.id}/subjects`,
          payload: { siteId: site.id, consentDate: '2025-03-03', initials: 'ELG' },
          headers: piSession.headers,
        });
        await app.inject({
          method: 'PUT',
          url: `/api/studies/${study.id}/subjects/${created.json().id}/forms/v2/inclusionExclusionEval`,
          payload: { values: { eligible: 'Y' }, version: 0 },
          headers: piSession.headers,
        });
        return created.json().id;
      };
      // A subject at site 01 randomized by its PI (issue 51: one whose blind can be broken).
      randomizedSubject = async () => {
        const subjectId = await eligibleSubject();
        const randomized = await app.inject({
          method: 'POST',
          url: `/api/studies/${study.id}/subjects/${subjectId}/randomize`,
          headers: piSession.headers,
        });
        expect(randomized.statusCode, randomized.body).toBe(201);
        return subjectId;
      };
      nextInstitutionNumber = async () => {
        const numbers = (
          await db.selectFrom('sites').select('institution_number').where('study_id', '=', study.id).execute()
        ).map((row) => Number(row.institution_number));
        return String(Math.max(...numbers) + 1).padStart(2, '0');
      };
      // A new site of the study, with the next free institution number, for list creation calls.
      freshSite = async () => {
        const institutionNumber = await nextInstitutionNumber();
        const created = await db
          .insertInto('sites')
          .values({
            study_id: study.id,
            code: `FRESH-${institutionNumber}`,
            name: 'Fresh',
            institution_number: institutionNumber,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        return { id: created.id, institutionNumber };
      };
      const querySubject = await newSubject();
      // A manual query on a subject at site 01, in the state the case needs (fresh per call: actions change it).
      newQuery = async (status) =>
        (
          await db
            .insertInto('queries')
            .values({
              study_id: study.id,
              site_id: site.id,
              subject_id: querySubject,
              visit_key: 'v1',
              form_key: 'vitalSigns',
              item_path: 'v1.vitalSigns.heartRate',
              kind: 'manual',
              status,
              message: JSON.stringify({ ko: 'matrix', en: 'matrix' }),
            })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
      const dmUser = await db
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'dm@demo.cdms')
        .executeTakeFirstOrThrow();
      const newExport = async (state: 'queued' | 'done') =>
        (
          await db
            .insertInto('data_exports')
            .values({
              study_id: study.id,
              requested_by: dmUser.id,
              format: 'odm-1.3.2',
              options: JSON.stringify({ scope: {}, auditTrail: false }),
              state,
              ...(state === 'done'
                ? { file_name: 'matrix.xml', content_type: 'application/xml', byte_size: 6, sha256: '-' }
                : {}),
            })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
      newQueuedExport = () => newExport('queued');
      const doneExportId = await newExport('done');
      await db
        .insertInto('data_export_chunks')
        .values({ export_id: doneExportId, seq: 0, bytes: Buffer.from('<?xml') })
        .execute();
      // Two published training modules required for every role; the quiz one passed by every account.
      const everyRole = roles;
      const trainingModule = async (quiz: string | null) =>
        (
          await db
            .insertInto('training_modules')
            .values({
              study_id: study.id,
              title: quiz ? 'Matrix quiz' : 'Matrix reading',
              content_html: '<p>m</p>',
              roles: [...everyRole],
              quiz,
              state: 'published',
              published_at: new Date(),
              created_by: dm.id,
              updated_by: dm.id,
              updated_at: new Date(),
            })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
      const trainingModuleId = await trainingModule(null);
      const trainingQuizModuleId = await trainingModule(
        JSON.stringify({ passMark: 100, questions: [{ text: 'q', options: ['right', 'wrong'], answer: 0 }] }),
      );
      for (const account of await db.selectFrom('users').select('id').execute())
        await db
          .insertInto('training_completions')
          .values({ module_id: trainingQuizModuleId, user_id: account.id, version: 1, score: 100 })
          .execute();
      let counter = 0;
      fixture = {
        doneExportId,
        trainingModuleId,
        trainingQuizModuleId,
        memberUserId: (
          await db
            .selectFrom('users')
            .select('id')
            .where('email', '=', 'crc@demo.cdms')
            .executeTakeFirstOrThrow()
        ).id,
        queryId: await newQuery('open'),
        subjectId: await newSubject(),
        sectionKey: getFormLayout(tmPerforationStudy, 'v1', 'demographicInfo')?.sections[0]?.key ?? '',
        noticeId: notice.id,
        imageId: image.id,
        studyId: study.id,
        siteId: site.id,
        userId: target.id,
        unique: () => `m${Date.now().toString(36)}${(counter++).toString().padStart(2, '0')}`,
        // A fresh CRA membership for the target user to edit or delete.
        membershipId: async () => {
          await db
            .deleteFrom('memberships')
            .where('user_id', '=', target.id)
            .where('role', '=', 'CRA')
            .execute();
          const created = await db
            .insertInto('memberships')
            .values({ user_id: target.id, study_id: study.id, role: 'CRA' })
            .returning('id')
            .executeTakeFirstOrThrow();
          await db
            .insertInto('membership_sites')
            .values({ membership_id: created.id, site_id: site.id })
            .execute();
          return created.id;
        },
      };
    });
    afterAll(async () => {
      await app.close();
    });

    // Issue 44 item 3: every route declares who may call it (the server refuses to start otherwise),
    // and where it declares a permission, this table agrees with the permission matrix.
    it('holds every route to its declared access and the permission matrix', () => {
      const problems: string[] = [];
      for (const route of app.apiRoutes) {
        const { access } = route;
        if (access === undefined) problems.push(`${route.method} ${route.url}: no declared access`);
        if (access === undefined || typeof access === 'string' || access.study === 'member') continue;
        const testCase = cases.find((c) => c.method === route.method && c.route === route.url);
        for (const caller of callers) {
          if (caller === 'anonymous' || !testCase) continue;
          const allowed = permissionMatrix[access.study].includes(caller);
          if (!allowed && expectedOf(testCase, caller) !== 403)
            problems.push(
              `${route.method} ${route.url}: ${caller} lacks ${access.study} but is expected ${expectedOf(testCase, caller)}`,
            );
        }
        if (testCase && testCase.expected.anonymous !== 401)
          problems.push(`${route.method} ${route.url}: anonymous is expected ${testCase.expected.anonymous}`);
      }
      expect(problems).toEqual([]);
    });

    /** A case's expected status for a caller; for a desk the case leaves out, see `Desk`. */
    /** A fresh SAE report of the fixture's subject (site 01), a draft or submitted, at row version 1. */
    let saeEvents = 1000;
    async function newSaeReport(submitted: boolean): Promise<number> {
      const db = database().db;
      const now = new Date();
      const report = await db
        .insertInto('sae_reports')
        .values({
          study_id: fixture.studyId,
          site_id: fixture.siteId,
          subject_id: fixture.subjectId,
          visit_key: 'matrix',
          form_key: 'matrix',
          event_number: ++saeEvents,
          awareness_at: now,
          due_at: new Date(now.getTime() + 86_400_000),
          ...(submitted ? { status: 'submitted' as const, first_submitted_at: now } : {}),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('sae_report_versions')
        .values({
          report_id: report.id,
          version: 1,
          content: JSON.stringify({
            criteria: [],
            narrative: '',
            relevantHistory: '',
            suspectProducts: [],
            outcome: '',
            reporter: '',
          }),
          saved_by: fixture.userId,
          saved_at: now,
          ...(submitted ? { submitted_by: fixture.userId, submitted_name: 'PI', submitted_at: now } : {}),
        })
        .execute();
      return report.id;
    }

    function expectedOf(testCase: Case, caller: Caller): number {
      if (!isDesk(caller)) return testCase.expected[caller];
      const stated = testCase.expected[caller];
      if (stated !== undefined) return stated;
      const access = app.apiRoutes.find(
        (route) => route.method === testCase.method && route.url === testCase.route,
      )?.access;
      const action = access !== undefined && typeof access !== 'string' ? access.study : 'member';
      if (action !== 'member' && !permissionMatrix[action].includes(caller)) return 403;
      return testCase.expected.DM;
    }

    it('covers every registered API route', () => {
      const covered = new Set(cases.map((c) => `${c.method} ${c.route}`));
      const missing = app.apiRoutes.map((r) => `${r.method} ${r.url}`).filter((route) => !covered.has(route));
      expect(missing).toEqual([]);
    });

    // Issue 43 item 11: the summary answers every reader (above), but its split of healing and hearing by
    // arm only data management, even while the study shows each subject's group to its sites.
    it("splits the summary by arm for data management and the unblinded desk only, whatever the study's group visibility", async () => {
      const shown = await database()
        .db.selectFrom('studies')
        .select('show_randomization_group')
        .where('id', '=', fixture.studyId)
        .executeTakeFirstOrThrow();
      expect(shown.show_randomization_group).toBe(true);
      const splitFor: Record<string, boolean> = {};
      for (const caller of callers) {
        if (caller === 'anonymous' || !permissionMatrix['report.read'].includes(caller)) continue;
        const account = demoAccounts.find((candidate) => candidate.role === caller)?.email as string;
        const session = await signIn(app, account);
        const response = await app.inject({
          method: 'GET',
          url: `/api/studies/${fixture.studyId}/summary`,
          headers: session.headers,
        });
        expect(response.statusCode, `${caller} ${response.body}`).toBe(200);
        splitFor[caller] = response.json().groups !== undefined;
      }
      expect(splitFor).toEqual({
        ADMIN: false,
        PI: false,
        SI: false,
        CRC: false,
        CRA: false,
        DM: true,
        SAFETY: false,
        UNBLINDED: true,
      });
    });

    // Issue 51 item 3: a user who may not know a group never receives one through any route. The study
    // is blinded (no role sees groups) before anyone is randomized, two subjects at site 01 are
    // randomized and one's blind is broken by its PI; then every GET route of the table, aimed at each
    // randomized subject, is called as each blinded role, and no answer may carry a group — as a code
    // or as a label of the group item's code list, in JSON or in a downloaded file. The study's code
    // lists themselves (the definition: what the arms are called, no subject) are the one place the
    // words may stand. The unblinded desk gets the groups. The study is opened again afterwards.
    it('never hands a group to a blinded reader through any GET route, and hands it to the unblinded desk', async () => {
      const db = database().db;
      const sessionOf = async (caller: Caller) =>
        signIn(app, demoAccounts.find((account) => account.role === caller)?.email as string);
      const dm = await sessionOf('DM');
      const pi = await sessionOf('PI');
      const setVisible = async (groupVisibleRoles: string[]) => {
        const response = await app.inject({
          method: 'PUT',
          url: `/api/studies/${fixture.studyId}/randomization/settings`,
          payload: { groupVisibleRoles },
          headers: dm.headers,
        });
        expect(response.statusCode, response.body).toBe(200);
      };
      await setVisible([]);
      const blindedSubject = await randomizedSubject();
      const unblindedSubject = await randomizedSubject();
      const broken = await app.inject({
        method: 'POST',
        url: `/api/studies/${fixture.studyId}/subjects/${unblindedSubject}/unblind`,
        payload: { reason: '아나필락시스 의심으로 응급 처치 중 투여군 확인 필요', password: DEMO_PASSWORD },
        headers: pi.headers,
      });
      expect(broken.statusCode, broken.body).toBe(201);
      // A randomization record as they were written before issue 51, naming the group: the audit trail's
      // read-outs must leave it out for a blinded reader.
      const subjectRow = await db
        .selectFrom('subjects')
        .select(['id', 'site_id'])
        .where('id', '=', blindedSubject)
        .executeTakeFirstOrThrow();
      await recordAudit(db, systemActor('test'), {
        type: 'subject.randomized',
        entityType: 'subject',
        entityId: subjectRow.id,
        studyId: fixture.studyId,
        siteId: subjectRow.site_id,
        subjectId: subjectRow.id,
        after: { randomizationNumber: 'R01999', assignmentDate: '2025-03-03', group: 'control' },
      });

      // The words a group could be said with: its codes and its labels in both languages.
      const definition = tmPerforationStudy;
      const role = definition.roles?.randomization;
      const groupItem = role
        ? definition.forms
            .find((form) => form.key === role.form)
            ?.sections.flatMap((section) => section.items)
            .find((item) => item.key === role.group)
        : undefined;
      const codeList = definition.codeLists.find((list) => list.key === groupItem?.codeList);
      expect(codeList?.codes.length).toBeGreaterThan(0);
      const words = new Set<string>(
        (codeList?.codes ?? []).flatMap((code) => [code.code, code.label.ko, code.label.en]),
      );
      const leaks = (value: unknown, path: string): string[] => {
        if (typeof value === 'string') return words.has(value.trim()) ? [`${path} = ${value}`] : [];
        if (Array.isArray(value)) return value.flatMap((entry, index) => leaks(entry, `${path}[${index}]`));
        if (value && typeof value === 'object')
          return Object.entries(value).flatMap(([key, entry]) =>
            key === 'codeLists' ? [] : leaks(entry, `${path}.${key}`),
          );
        return [];
      };
      const fileWords = [...words].filter((word) => /^[a-z]+$/.test(word));
      const bodyLeaks = (body: string, contentType: string): string[] => {
        if (contentType.includes('json')) return leaks(JSON.parse(body), '$');
        // A file (CSV, XLSX's text, PDF): the codes as cells or words.
        return fileWords.filter((word) => new RegExp(`(^|[,;\t"s])${word}([,;\t"s]|$)`, 'm').test(body));
      };

      // The study's definition and its versions (JSON, ODM metadata, comparisons) describe forms and
      // code lists — an item may be called "treatment" — and hold no subject: not a route of a group.
      const metadataRoute = (route: string) => route.startsWith('/api/studies/:studyId/definition');
      const getCases = cases.filter(
        (testCase) =>
          testCase.method === 'GET' &&
          !metadataRoute(testCase.route) &&
          !/[A-Z_]{5,}/.test(testCase.request(fixture).url),
      );
      expect(getCases.length).toBeGreaterThan(50);
      const found: string[] = [];
      const unblindedDeskSaw: string[] = [];
      for (const subjectId of [blindedSubject, unblindedSubject]) {
        const aimed = { ...fixture, subjectId };
        for (const caller of ['CRC', 'CRA', 'DM', 'ADMIN', 'CODER', 'SAFETY', 'UNBLINDED'] as const) {
          const session = await sessionOf(caller);
          for (const testCase of getCases) {
            const { url, headers } = testCase.request(aimed);
            const response = await app.inject({
              method: 'GET',
              url,
              headers: { ...session.headers, ...(headers ?? {}) },
            });
            const contentType = String(response.headers['content-type'] ?? '');
            const seen = bodyLeaks(response.body, contentType);
            if (caller === 'UNBLINDED') {
              if (seen.length > 0) unblindedDeskSaw.push(testCase.route);
            } else found.push(...seen.map((leak) => `${caller} ${url}: ${leak}`));
          }
        }
      }
      // The ODM exports (with their audit trails) as data management downloads them: the clinical data
      // never holds a group (its metadata names the arms, as the definition does).
      for (const format of ['odm-1.3.2', 'odm-2.0'] as const) {
        const started = await app.inject({
          method: 'POST',
          url: `/api/studies/${fixture.studyId}/data-exports`,
          payload: { format, scope: {}, auditTrail: true, maskPersonalData: false },
          headers: dm.headers,
        });
        expect(started.statusCode, started.body).toBe(201);
        const job = await claimExport(db);
        if (!job) throw new Error('the export was not queued');
        expect(await runExport(db, job)).toBe('done');
        const file = await app.inject({
          method: 'GET',
          url: `/api/studies/${fixture.studyId}/data-exports/${started.json().id}/download`,
          headers: dm.headers,
        });
        expect(file.statusCode).toBe(200);
        const clinical = file.body.slice(file.body.indexOf('<ClinicalData'));
        expect(clinical.length).toBeGreaterThan(100);
        for (const word of fileWords)
          if (new RegExp(`Value="${word}"|>${word}<`).test(clinical)) found.push(`DM ${format}: ${word}`);
      }
      expect(found).toEqual([]);
      // The unblinded desk reads each subject's group and the results by arm.
      expect(unblindedDeskSaw).toEqual(
        expect.arrayContaining([
          '/api/studies/:studyId/subjects/:subjectId/overview',
          '/api/studies/:studyId/summary',
        ]),
      );

      // The PI (and site staff) see the group of the subject whose blind was broken, not the other's.
      const overview = async (subjectId: number, session: SignedIn) =>
        (
          await app.inject({
            method: 'GET',
            url: `/api/studies/${fixture.studyId}/subjects/${subjectId}/overview`,
            headers: session.headers,
          })
        ).json().blinding;
      expect(await overview(unblindedSubject, pi)).toMatchObject({
        unblinded: true,
        group: broken.json().group,
        mayBreak: false,
      });
      expect(await overview(blindedSubject, pi)).toMatchObject({
        unblinded: false,
        group: null,
        mayBreak: true,
      });
      expect(await overview(unblindedSubject, await sessionOf('SI'))).toMatchObject({
        group: broken.json().group,
      });
      expect(await overview(unblindedSubject, await sessionOf('CRA'))).toMatchObject({
        unblinded: true,
        group: null,
      });

      // Open-label again (widening is allowed), as the rest of this file expects.
      await setVisible(['PI', 'SI', 'CRC', 'CRA', 'DM', 'ADMIN', 'CODER', 'SAFETY']);
      // Every GET route × seven roles × two subjects: minutes on a busy machine.
    }, 600_000);

    // Every route × every role: far more than the default 30 s on a busy machine, and it grows with
    // every route.
    it('gives each role the status the permission matrix says', async () => {
      const accountOf = (caller: Caller) =>
        demoAccounts.find((account) => account.role === caller)?.email as string;
      // One session per role, reused: a login costs an argon2 hash (~50 ms of CPU), and a fresh one
      // per call was most of this test's time. A call that may end or change the session (any
      // /api/auth/ route), or any write after which the session no longer answers, makes the next
      // call log in again, so logout and password calls still cannot spoil the next case.
      const sessions = new Map<Caller, SignedIn>();
      const sessionOf = async (caller: Caller) => {
        const known = sessions.get(caller);
        if (known) return known;
        const fresh = await signIn(app, accountOf(caller));
        sessions.set(caller, fresh);
        return fresh;
      };
      const failures: string[] = [];
      // Issue 43 item 15: every status seen must be among the route's answers in the OpenAPI document.
      const undocumented = new Set<string>();
      const operations = operationsOf(app.swagger());
      const documented = (method: string, route: string): string[] =>
        operations.find(
          (operation) => operation.method === method && operation.path === route.replace(/:(\w+)/g, '{$1}'),
        )?.responses ?? [];
      for (const testCase of cases) {
        for (const caller of callers) {
          const session: SignedIn | undefined = caller === 'anonymous' ? undefined : await sessionOf(caller);
          const { url: pattern, body, headers } = testCase.request(fixture);
          let url = pattern.includes('MEMBERSHIP')
            ? pattern.replace('MEMBERSHIP', String(await fixture.membershipId()))
            : pattern;
          if (url.includes('ELIGIBLE_SUBJECT'))
            url = url.replace('ELIGIBLE_SUBJECT', String(await eligibleSubject()));
          if (url.includes('RANDOMIZED_SUBJECT'))
            url = url.replace('RANDOMIZED_SUBJECT', String(await randomizedSubject()));
          if (url.includes('QUEUED_EXPORT'))
            url = url.replace('QUEUED_EXPORT', String(await newQueuedExport()));
          if (url.includes('OPEN_QUERY')) url = url.replace('OPEN_QUERY', String(await newQuery('open')));
          if (url.includes('ANSWERED_QUERY'))
            url = url.replace('ANSWERED_QUERY', String(await newQuery('answered')));
          if (url.includes('UNSCHEDULED_SUBJECT'))
            url = url.replace('UNSCHEDULED_SUBJECT', String(await unscheduledVisitSubject()));
          if (url.includes('SUBJECT')) url = url.replace('SUBJECT', String(await subjectFactory()));
          if (url.includes('SAE_DRAFT') || url.includes('SAE_SUBMITTED'))
            url = url.replace(
              /SAE_(DRAFT|SUBMITTED)/,
              String(await newSaeReport(url.includes('SAE_SUBMITTED'))),
            );
          if (url.includes('LAB_RANGE')) {
            // A fresh range per call: a retired range cannot be changed or retired again.
            const range = await database()
              .db.insertInto('lab_ranges')
              .values({
                study_id: fixture.studyId,
                site_id: fixture.siteId,
                test_key: 'alt',
                unit: 'U/L',
                low: null,
                high: 40,
                effective_from: '2025-01-01',
                created_by: fixture.userId,
                updated_by: fixture.userId,
                updated_at: new Date(),
              })
              .returning('id')
              .executeTakeFirstOrThrow();
            url = url.replace('LAB_RANGE', String(range.id));
          }
          let payload = await issue15Body(body);
          if (JSON.stringify(body ?? null).includes('NEXT_NUMBER')) {
            payload = JSON.parse(JSON.stringify(body).replace('NEXT_NUMBER', await nextInstitutionNumber()));
          }
          if (JSON.stringify(body ?? null).includes('OPEN_QUERY_ID')) {
            payload = JSON.parse(
              JSON.stringify(body).replace('"OPEN_QUERY_ID"', String(await newQuery('open'))),
            );
          }
          if (JSON.stringify(body ?? null).includes('FRESH_SITE')) {
            const site = await freshSite();
            payload = JSON.parse(
              JSON.stringify(body)
                .replace('"FRESH_SITE_ID"', String(site.id))
                .replaceAll('FRESH_SITE_NUMBER', site.institutionNumber),
            );
          }
          if (url.includes('GUIDELINE_')) url = await guidelineFixture(database().db, fixture, url);
          if (url.includes('FORM_PHOTO')) {
            const photo = await database()
              .db.insertInto('form_photos')
              .values({
                study_id: fixture.studyId,
                subject_id: fixture.subjectId,
                visit_key: 'v1',
                form_key: 'tympanicPhoto',
                content_type: 'image/jpeg',
                width: 1,
                height: 1,
                size: PNG_1X1.length,
                sha256: '0'.repeat(64),
                bytes: PNG_1X1,
                source_type: 'png',
                uploaded_by: fixture.userId,
              })
              .returning('id')
              .executeTakeFirstOrThrow();
            url = url.replace('FORM_PHOTO', String(photo.id));
          }
          if (url.includes('NOTICE')) {
            // A fresh notice per call: a successful delete must not spoil the next caller's case.
            const fresh = await database()
              .db.insertInto('notices')
              .values({
                study_id: fixture.studyId,
                title: 'To delete',
                content_html: '<p>d</p>',
                author_user_id: fixture.userId,
              })
              .returning('id')
              .executeTakeFirstOrThrow();
            url = url.replace('NOTICE', String(fresh.id));
          }
          if (testCase.route === '/api/admin/studies/:studyId/memberships' && testCase.method === 'POST') {
            await database()
              .db.deleteFrom('memberships')
              .where('user_id', '=', fixture.userId)
              .where('role', '=', 'DM')
              .execute();
          }
          const response = await app.inject({
            method: testCase.method as 'GET',
            url,
            ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
            headers: { ...(session?.headers ?? {}), ...(headers ?? {}) },
          });
          if (session && caller !== 'anonymous') {
            const mayHaveEnded =
              testCase.route.startsWith('/api/auth/') ||
              (testCase.method !== 'GET' && (await sessionUser(app, session.cookie)) === null);
            if (mayHaveEnded) sessions.delete(caller);
          }
          const expected = expectedOf(testCase, caller);
          if (response.statusCode !== expected) {
            failures.push(
              `${testCase.method} ${url} as ${caller}: expected ${expected}, got ${response.statusCode} ${response.body.slice(0, 120)}`,
            );
          }
          if (!documented(testCase.method, testCase.route).includes(String(response.statusCode)))
            undocumented.add(
              `${testCase.method} ${testCase.route} answered ${response.statusCode} (${response.body.slice(0, 80)}), not in its documented answers`,
            );
        }
      }
      expect(failures).toEqual([]);
      expect([...undocumented].sort()).toEqual([]);
    }, 180_000);
  },
  { seed: 'demo' },
);

/**
 * Issue 18: a fresh guideline per call in the state the case needs (a publish, retire or new version
 * spoils it for the next caller); `GUIDELINE_FILE`: the attachment of a published one.
 */
async function guidelineFixture(db: Kysely<Database>, f: Fixture, url: string): Promise<string> {
  const state = url.includes('GUIDELINE_DRAFT') ? 'draft' : 'published';
  const guideline = await db
    .insertInto('guidelines')
    .values({
      study_id: f.studyId,
      guide_type: 'protocol',
      title: 'Matrix guideline',
      content_html: '<p>g</p>',
      version: '1.0',
      effective_date: '2026-01-01',
      alarm_start: null,
      alarm_end: null,
      state,
      supersedes_id: null,
      author_user_id: f.userId,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (url.includes('GUIDELINE_FILE')) {
    const file = await db
      .insertInto('attachments')
      .values({
        study_id: f.studyId,
        owner_kind: 'guideline',
        owner_id: guideline.id,
        file_name: 'g.pdf',
        content_type: 'application/pdf',
        size: 9,
        sha256: '0'.repeat(64),
        uploaded_by: f.userId,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // Its bytes (issue 43: chunks by content hash).
    await db
      .insertInto('attachment_chunks')
      .values({ sha256: '0'.repeat(64), seq: 0, bytes: Buffer.from('%PDF-1.4\n') })
      .onConflict((conflict) => conflict.doNothing())
      .execute();
    return url.replace('GUIDELINE_FILE', file.id);
  }
  return url.replace(/GUIDELINE_(DRAFT|PUBLISHED)/, String(guideline.id));
}
