import { tmPerforationStudy } from '@cdms/study';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { changedTables, databaseFingerprint } from '../../test/fuzz/database-fingerprint.ts';
import { type Operation, operationsOf } from '../../test/fuzz/openapi-operations.ts';
import { valueMatching } from '../../test/fuzz/schema-arbitraries.ts';
import { buildTestApp, demoStudyIds, type SignedIn, signIn } from '../../test/test-app.ts';
import { describeWithDatabase } from '../../test/test-database.ts';
import { permissionMatrix } from '../auth/permissions.ts';
import type { App } from '../http/types.ts';
import { trainingGatedActions } from './training-gate.ts';

/**
 * Issue 51 item 4, over every write route there is: with the study's gate on and a required module
 * not completed, each non-GET /api route a site user can call either answers 403 `training_required`
 * or is named below as not a write to subject data, with the reason. Routes come from
 * `app.apiRoutes` and their bodies from the OpenAPI document's schemas, so a route added later (the SAE
 * reports, coding) is walked without anyone listing it here: a new route that a site user reaches
 * untrained fails this test until it is gated or named below.
 */

/** Writes that are not entering or changing subject data: they stay open to an untrained user. */
const notDataEntry: Record<string, string> = {
  'POST /api/auth/login': 'signing in',
  'POST /api/auth/logout': 'signing out',
  'POST /api/auth/renew': 'keeping the session alive',
  'PUT /api/auth/password': 'the user’s own password',
  'PUT /api/auth/locale': 'the user’s language',
  'PUT /api/auth/contact': 'the user’s own contact details',
  'PUT /api/auth/notification-preferences': 'which notices the user receives',
  'POST /api/auth/second-factor/enrolment': 'the user’s own second factor',
  'POST /api/auth/second-factor/enrolment/confirm': 'the user’s own second factor',
  'POST /api/auth/second-factor/recovery-codes': 'the user’s own second factor',
  'POST /api/auth/second-factor/turn-off': 'the user’s own second factor',
  'POST /api/studies/:studyId/views': 'the "recently opened" strip remembers the study',
  'POST /api/studies/:studyId/training/modules/:moduleId/complete': 'completing the training itself',
  'POST /api/studies/:studyId/training/modules/:moduleId/quiz': 'passing the training’s quiz',
  'PUT /api/studies/:studyId/notices/:noticeId': 'announcements: monitors’ and data managers’ (notices/)',
  'DELETE /api/studies/:studyId/notices/:noticeId': 'announcements: monitors’ and data managers’ (notices/)',
  'POST /api/studies/:studyId/holds/bulk': 'freezes and locks: monitors’ and data managers’ (holds/)',
  'POST /api/studies/:studyId/guidelines': 'study guidelines: written by the sponsor’s staff (guidelines/)',
  'PUT /api/studies/:studyId/guidelines/:guidelineId': 'study guidelines: written by the sponsor’s staff',
  'POST /api/studies/:studyId/task-notices': 'task notices: written by the guidelines’ writers',
  'POST /api/studies/:studyId/review-listings/:table/review': 'review marks: monitors’ and data managers’',
};

/** Actions whose routes are never gated, whatever they write. */
const ungatedActions: Record<string, string> = {
  'blind.break': 'emergency unblinding protects the subject: it must never wait for training',
};

type Caller = 'crc' | 'pi';
const callers: Record<Caller, { email: string; role: 'CRC' | 'PI'; site: string }> = {
  crc: { email: 'crc@demo.cdms', role: 'CRC', site: '02' },
  pi: { email: 'pi@demo.cdms', role: 'PI', site: '01' },
};

const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const boundary = '----gate-boundary';
const multipart = (field: string) =>
  Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="p.png"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    PNG_1X1,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);

describeWithDatabase(
  'the training gate on every write route',
  (database) => {
    let app: App;
    let studyId: number;
    let moduleId: number;
    const sessions: Record<string, SignedIn> = {};
    const fixtures: Record<Caller, { siteId: number; subjectId: number }> = {
      crc: { siteId: 0, subjectId: 0 },
      pi: { siteId: 0, subjectId: 0 },
    };
    const definition = tmPerforationStudy;
    const visit = definition.visits.find((candidate) => candidate.forms.length > 0);
    const visitKey = visit?.key ?? '';
    const formKey = visit?.forms[0] ?? '';
    const as = (who: string, method: string, url: string, payload?: unknown) =>
      app.inject({
        method: method as 'GET',
        url,
        headers: { ...(sessions[who]?.headers ?? {}), 'accept-language': 'en' },
        ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
      });
    const newQuery = async (caller: Caller) =>
      (
        await database()
          .db.insertInto('queries')
          .values({
            study_id: studyId,
            site_id: fixtures[caller].siteId,
            subject_id: fixtures[caller].subjectId,
            visit_key: visitKey,
            form_key: formKey,
            item_path: `${visitKey}.${formKey}.item`,
            kind: 'manual',
            status: 'open',
            message: JSON.stringify({ ko: 'gate', en: 'gate' }),
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const modulePayload = (contentHtml: string) => ({
      title: 'Protocol training',
      contentHtml,
      roles: ['PI', 'SI', 'CRC'],
      quiz: null,
      state: 'published',
    });

    beforeAll(async () => {
      app = await buildTestApp(database());
      await app.ready();
      for (const who of ['crc', 'pi', 'dm', 'cra']) sessions[who] = await signIn(app, `${who}@demo.cdms`);
      const demo = await demoStudyIds(database().db);
      studyId = demo.studyId;
      for (const caller of Object.keys(callers) as Caller[]) {
        fixtures[caller].siteId = demo.siteId(callers[caller].site);
        const created = await as(caller, 'POST', `/api/studies/${studyId}/subjects`, {
          siteId: fixtures[caller].siteId,
          consentDate: '2025-03-03',
          initials: 'GTE',
        });
        expect(created.statusCode, created.body).toBe(201);
        fixtures[caller].subjectId = created.json().id;
      }
      const created = await as(
        'dm',
        'POST',
        `/api/studies/${studyId}/training/modules`,
        modulePayload('<p>v1</p>'),
      );
      expect(created.statusCode, created.body).toBe(201);
      moduleId = created.json().id;
      const on = await as('dm', 'PUT', `/api/studies/${studyId}/training/settings`, { gatesDataEntry: true });
      expect(on.statusCode, on.body).toBe(200);
    });
    afterAll(async () => {
      await app.close();
    });

    /** A concrete URL for a route pattern, with the caller's own subject, query and site. */
    async function urlFor(caller: Caller, route: string): Promise<string> {
      let url = route;
      const values: Record<string, () => Promise<string> | string> = {
        studyId: () => String(studyId),
        subjectId: () => String(fixtures[caller].subjectId),
        subjectPk: () => String(fixtures[caller].subjectId),
        siteId: () => String(fixtures[caller].siteId),
        queryId: () => String(queryIds[caller]),
        visitKey: () => visitKey,
        formKey: () => formKey,
        moduleId: () => String(moduleId),
        reportId: () => String(saeReportIds[caller]),
      };
      for (const [, name] of route.matchAll(/:(\w+)/g)) {
        const value = values[name as string];
        url = url.replace(`:${name}`, value ? await value() : '1');
      }
      return url;
    }

    /** Bodies the route's schema accepts, the caller's own ids in fields that name a site or subject. */
    function bodiesFor(caller: Caller, operation: Operation | undefined): unknown[] {
      if (!operation || operation.body.kind === 'none') return [undefined];
      if (operation.body.kind === 'multipart') return [undefined];
      const own = (value: unknown): unknown => {
        if (Array.isArray(value)) return value.map(own);
        if (value === null || typeof value !== 'object') return value;
        const entries = Object.entries(value as Record<string, unknown>).map(([key, inner]) => {
          if (key === 'siteId') return [key, fixtures[caller].siteId];
          if (key === 'subjectPk' || key === 'subjectId') return [key, fixtures[caller].subjectId];
          if (key === 'visitKey') return [key, visitKey];
          if (key === 'formKey') return [key, formKey];
          if (key === 'queryIds') return [key, [queryIds[caller]]];
          return [key, own(inner)];
        });
        return Object.fromEntries(entries);
      };
      return fc.sample(valueMatching(operation.body.schema), { numRuns: 8, seed: 51 }).map(own);
    }

    const queryIds: Record<Caller, number> = { crc: 0, pi: 0 };
    const saeReportIds: Record<Caller, number> = { crc: 0, pi: 0 };
    /** An SAE report (draft) on the caller's subject, as a save that marks an event serious starts it. */
    const newSaeReport = async (caller: Caller) => {
      const now = new Date();
      const report = await database()
        .db.insertInto('sae_reports')
        .values({
          study_id: studyId,
          site_id: fixtures[caller].siteId,
          subject_id: fixtures[caller].subjectId,
          visit_key: visitKey,
          form_key: formKey,
          event_number: 1,
          awareness_at: now,
          due_at: new Date(now.getTime() + 24 * 3600_000),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await database()
        .db.insertInto('sae_report_versions')
        .values({
          report_id: report.id,
          version: 1,
          content: JSON.stringify({}),
          saved_at: now,
          saved_by: null,
        })
        .execute();
      return report.id;
    };
    async function walk(caller: Caller) {
      const operations = operationsOf(app.swagger());
      const answers: { route: string; status: number; code: string | undefined }[] = [];
      for (const route of app.apiRoutes) {
        if (route.method === 'GET') continue;
        const key = `${route.method} ${route.url}`;
        if (notDataEntry[key]) continue;
        const action = typeof route.access === 'object' ? route.access.study : undefined;
        if (action && ungatedActions[action]) continue;
        // Routes the caller's role may not call at all (system administration, actions it lacks).
        const role = callers[caller].role;
        if (route.access === 'system-admin') continue;
        if (action && action !== 'member' && !permissionMatrix[action].includes(role)) continue;
        const operation = operations.find(
          (candidate) =>
            candidate.method === route.method && candidate.path === route.url.replace(/:(\w+)/g, '{$1}'),
        );
        let answer: { status: number; code: string | undefined } = { status: 0, code: undefined };
        for (const body of bodiesFor(caller, operation)) {
          const url = await urlFor(caller, route.url);
          const field = url.includes('/photos') ? 'photo' : url.includes('/uploads/') ? 'upload' : 'file';
          const response =
            operation?.body.kind === 'multipart'
              ? await app.inject({
                  method: route.method as 'POST',
                  url,
                  payload: multipart(field),
                  headers: {
                    ...(sessions[caller]?.headers ?? {}),
                    'content-type': `multipart/form-data; boundary=${boundary}`,
                  },
                })
              : await as(caller, route.method, url, body);
          answer = {
            status: response.statusCode,
            code: response.body.startsWith('{') ? response.json().error?.code : undefined,
          };
          if (response.statusCode !== 400) break;
        }
        answers.push({ route: key, ...answer });
      }
      return answers;
    }

    for (const caller of Object.keys(callers) as Caller[]) {
      it(`refuses every data write of an untrained ${callers[caller].role} with 403 training_required, and changes nothing`, async () => {
        // An open query on the caller's subject, to answer (refused) in the walk.
        queryIds[caller] = await newQuery(caller);
        saeReportIds[caller] = await newSaeReport(caller);
        const before = await databaseFingerprint(database().db);
        const answers = await walk(caller);
        const reached = answers.filter(
          (answer) =>
            !(
              answer.status === 403 &&
              (answer.code === 'training_required' || answer.code === 'forbidden')
            ) && answer.status !== 401,
        );
        expect(reached.map((answer) => `${answer.route} → ${answer.status} ${answer.code ?? ''}`)).toEqual(
          [],
        );
        const gated = answers.filter((answer) => answer.code === 'training_required').map((a) => a.route);
        expect(gated).toContain('POST /api/studies/:studyId/subjects');
        const after = await databaseFingerprint(database().db);
        // The rate limiter counts every request, refused ones too: not data.
        expect(changedTables(before, after).filter((table) => table !== 'rate_limit_counters')).toEqual([]);
      }, 300_000);
    }

    const pendingOf = async (who: string) =>
      (await as(who, 'GET', '/api/auth/me'))
        .json()
        .memberships.find((membership: { studyId: number }) => membership.studyId === studyId)
        .trainingPending;
    const registerSubject = (who: Caller) =>
      as(who, 'POST', `/api/studies/${studyId}/subjects`, {
        siteId: fixtures[who].siteId,
        consentDate: '2025-03-04',
        initials: 'TRD',
      });

    it('lets the same writes through once the training is completed, and holds them again at a new version', async () => {
      expect(await pendingOf('crc')).toBe(true);
      // The monitor and the data manager owe nothing: the gate holds site staff's writes only.
      expect(await pendingOf('cra')).toBe(false);
      expect(await pendingOf('dm')).toBe(false);
      const refused = await registerSubject('crc');
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error.details.trainingPath).toBe(`/system-e-training/${studyId}`);
      const done = await as('crc', 'POST', `/api/studies/${studyId}/training/modules/${moduleId}/complete`);
      expect(done.statusCode, done.body).toBe(200);
      expect(await pendingOf('crc')).toBe(false);
      expect((await registerSubject('crc')).statusCode).toBe(201);
      const answered = await as('crc', 'POST', `/api/studies/${studyId}/queries/${queryIds.crc}/answer`, {
        text: 'checked against the source',
      });
      expect(answered.statusCode, answered.body).toBe(200);
      // The PI has not completed it: still held.
      expect((await registerSubject('pi')).json().error?.code).toBe('training_required');
      // A new version of the module (its content changed) holds the CRC back again.
      const changed = await as(
        'dm',
        'PUT',
        `/api/studies/${studyId}/training/modules/${moduleId}`,
        modulePayload('<p>v2: the amended protocol</p>'),
      );
      expect(changed.statusCode, changed.body).toBe(200);
      expect(changed.json().version).toBe(2);
      expect(await pendingOf('crc')).toBe(true);
      expect((await registerSubject('crc')).json().error?.code).toBe('training_required');
    });

    it('every action the gate holds is held by site staff only', () => {
      for (const action of trainingGatedActions)
        expect(
          permissionMatrix[action].every((role) => ['PI', 'SI', 'CRC'].includes(role)),
          action,
        ).toBe(true);
    });
  },
  { seed: 'demo' },
);
