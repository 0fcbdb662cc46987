import { notificationEventTypes } from '@cdms/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, demoStudyIds, type SignedIn, signIn } from '../../test/test-app.ts';
import { describeWithDatabase } from '../../test/test-database.ts';
import type { App } from '../http/types.ts';
import { DEMO_PASSWORD } from '../seed/demo-seed.ts';

/**
 * Issue 18: a query opened by the monitor reaches the site's staff, its answer the site's monitors, a site lock its people —
 * written to the outbox in the query's transaction, in each recipient's language, without the query's
 * text. The worker is off: this test reads the outbox itself.
 */
describeWithDatabase(
  'event notifications',
  (database) => {
    let app: App;
    let studyId: number;
    const session: Record<string, SignedIn> = {};
    const as = (who: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
      app.inject({ method, url, headers: session[who]?.headers ?? {}, ...(payload ? { payload } : {}) });
    const outbox = () =>
      database()
        .db.selectFrom('notifications')
        .innerJoin('users', 'users.id', 'notifications.recipient_user_id')
        .select(['users.email', 'event_type', 'channel', 'subject', 'body', 'status', 'site_id'])
        .orderBy('notifications.id')
        .execute();

    beforeAll(async () => {
      app = await buildTestApp(database(), {}, { notificationWorker: false });
      await app.ready();
      for (const who of ['pi', 'si', 'crc', 'cra', 'dm'])
        session[who] = await signIn(app, `${who}@demo.cdms`);
      studyId = (await demoStudyIds(database().db)).studyId;
    });
    afterAll(async () => {
      await app?.close();
    });

    it("keeps each user's own e-mail choices (audited), and leaves out the e-mails turned off", async () => {
      const url = '/api/auth/notification-preferences';
      const initial = (await as('crc', 'GET', url)).json();
      // Every event type once (issue 51 added emergency unblinding's and the SAE reports').
      expect(initial.preferences).toHaveLength(notificationEventTypes.length);
      expect(initial.preferences.every((entry: { email: boolean }) => entry.email)).toBe(true);
      const off = await as('crc', 'PUT', url, { preferences: [{ eventType: 'site_hold', email: false }] });
      expect(off.statusCode, off.body).toBe(200);
      expect(off.json().preferences).toContainEqual({ eventType: 'site_hold', email: false });
      // Another user's choices are their own.
      expect((await as('cra', 'GET', url)).json().preferences).toContainEqual({
        eventType: 'site_hold',
        email: true,
      });
      for (const body of [
        { preferences: [] },
        { preferences: [{ eventType: 'everything', email: false }] },
        { preferences: [{ eventType: 'site_hold', email: 'no' }] },
        {
          preferences: [
            { eventType: 'site_hold', email: false },
            { eventType: 'site_hold', email: true },
          ],
        },
      ])
        expect((await as('crc', 'PUT', url, body)).statusCode).toBe(400);
      const audited = await database()
        .db.selectFrom('audit_events')
        .select(['before', 'after'])
        .where('event_type', '=', 'user.notification_preferences_changed')
        .execute();
      expect(audited).toEqual([{ before: { site_hold: true }, after: { site_hold: false } }]);
      // The same choice again changes nothing and writes no record.
      await as('crc', 'PUT', url, { preferences: [{ eventType: 'site_hold', email: false }] });
      expect(
        await database()
          .db.selectFrom('audit_events')
          .select('id')
          .where('event_type', '=', 'user.notification_preferences_changed')
          .execute(),
      ).toHaveLength(1);
      // Back on, for the tests below.
      await as('crc', 'PUT', url, { preferences: [{ eventType: 'site_hold', email: true }] });
    });

    it("tells site 02's coordinator of a query, and the monitor of the answer", async () => {
      const demo = await demoStudyIds(database().db);
      const created = await as('crc', 'POST', `/api/studies/${studyId}/subjects`, {
        siteId: demo.siteId('02'),
        consentDate: '2025-03-03',
        initials: 'NTF',
      });
      const subject = created.json() as { id: number; subjectId: string };
      const text = 'Sex differs from the source document';
      const opened = await as('cra', 'POST', `/api/studies/${studyId}/queries`, {
        subjectPk: subject.id,
        visitKey: 'v1',
        formKey: 'demographicInfo',
        itemPath: 'v1.demographicInfo.gender',
        text,
      });
      expect(opened.statusCode, opened.body).toBe(201);
      const queryId = opened.json().id as number;
      expect(await outbox()).toEqual([
        expect.objectContaining({
          email: 'crc@demo.cdms',
          event_type: 'query_opened',
          channel: 'email',
          status: 'queued',
          site_id: demo.siteId('02'),
        }),
      ]);
      const [mail] = await outbox();
      expect(mail?.subject).toContain(subject.subjectId);
      expect(mail?.subject).toContain('쿼리 발행');
      expect(mail?.body).not.toContain(text);

      const answered = await as('crc', 'POST', `/api/studies/${studyId}/queries/${queryId}/answer`, {
        text: 'Corrected after checking the source.',
      });
      expect(answered.statusCode, answered.body).toBe(200);
      const afterAnswer = (await outbox()).filter((row) => row.event_type === 'query_answered');
      // The monitor of sites 01 and 02, who also opened it: one message.
      expect(afterAnswer.map((row) => row.email)).toEqual(['cra@demo.cdms']);
      expect(afterAnswer[0]?.body).not.toContain('Corrected');
    });

    it("tells a site's staff and monitor of its lock, with the reason; a subject's freeze sends nothing", async () => {
      const demo = await demoStudyIds(database().db);
      await database().db.deleteFrom('notifications').execute();
      const placed = await as('dm', 'POST', `/api/studies/${studyId}/holds`, {
        kind: 'locked',
        target: { level: 'site', siteId: demo.siteId('02') },
        reason: 'Interim analysis data cut',
      });
      expect(placed.statusCode, placed.body).toBe(201);
      const rows = await outbox();
      expect(rows.map((row) => row.email).sort()).toEqual(['cra@demo.cdms', 'crc@demo.cdms']);
      expect(rows.every((row) => row.event_type === 'site_hold' && row.site_id === demo.siteId('02'))).toBe(
        true,
      );
      expect(rows[0]?.subject).toContain('잠금');
      expect(rows[0]?.body).toContain('Interim analysis data cut');

      await database().db.deleteFrom('notifications').execute();
      const subject =
        // At site 01: site 02 is locked now.
        (
          await as('pi', 'POST', `/api/studies/${studyId}/subjects`, {
            siteId: demo.siteId('01'),
            consentDate: '2025-03-03',
            initials: 'NTH',
          })
        ).json() as { id: number };
      const frozen = await as('cra', 'POST', `/api/studies/${studyId}/holds`, {
        kind: 'frozen',
        target: { level: 'subject', subjectPk: subject.id },
        reason: 'Source review',
      });
      expect(frozen.statusCode, frozen.body).toBe(201);
      expect(await outbox()).toEqual([]);
    });

    it('asks the principal investigator to sign again when signed data changes, once', async () => {
      const demo = await demoStudyIds(database().db);
      const subject = (
        await as('pi', 'POST', `/api/studies/${studyId}/subjects`, {
          siteId: demo.siteId('01'),
          consentDate: '2025-03-03',
          initials: 'NTS',
        })
      ).json() as { id: number; subjectId: string };
      const formUrl = `/api/studies/${studyId}/subjects/${subject.id}/forms/v1/demographicInfo`;
      const first = await as('si', 'PUT', formUrl, { values: { gender: 'F' }, version: 0 });
      expect(first.statusCode, first.body).toBe(200);
      const signed = await as('pi', 'POST', `/api/studies/${studyId}/subjects/${subject.id}/signature`, {
        password: DEMO_PASSWORD,
      });
      expect(signed.statusCode, signed.body).toBe(201);
      await database().db.deleteFrom('notifications').execute();
      const changed = await as('si', 'PUT', formUrl, {
        values: { gender: 'M' },
        version: first.json().version,
        reasons: { gender: 'Entered wrongly' },
      });
      expect(changed.statusCode, changed.body).toBe(200);
      const rows = await outbox();
      expect(rows).toEqual([
        expect.objectContaining({ email: 'pi@demo.cdms', event_type: 'casebook_to_sign' }),
      ]);
      expect(rows[0]?.subject).toContain(subject.subjectId);
      // A second change finds no signature in force: nothing more to ask.
      const again = await as('si', 'PUT', formUrl, {
        values: { gender: 'F' },
        version: changed.json().version,
        reasons: { gender: 'Back to the source' },
      });
      expect(again.statusCode, again.body).toBe(200);
      expect(await outbox()).toHaveLength(1);
    });

    it('asks the principal investigator for the first signature once the casebook is whole', async () => {
      const demo = await demoStudyIds(database().db);
      const created = await as('si', 'POST', `/api/studies/${studyId}/subjects`, {
        siteId: demo.siteId('01'),
        consentDate: '2025-03-03',
        initials: 'RTS',
      });
      expect(created.statusCode, created.body).toBe(201);
      const subject = created.json() as { id: number; subjectId: string };
      const endUrl = `/api/studies/${studyId}/subjects/${subject.id}/forms/all/endExamination`;
      await database().db.deleteFrom('notifications').execute();
      // Dropped out: the investigators of site 01 (site 02 was locked above), as the memberships say.
      const investigators02 = await database()
        .db.selectFrom('memberships as m')
        .innerJoin('membership_sites as ms', 'ms.membership_id', 'm.id')
        .innerJoin('users as u', 'u.id', 'm.user_id')
        .select('u.email')
        .where('m.role', '=', 'PI')
        .where('ms.site_id', '=', demo.siteId('01'))
        .where('m.study_id', '=', studyId)
        .execute();
      expect(investigators02.length).toBeGreaterThan(0);
      const first = await as('si', 'PUT', endUrl, { values: { completed: 'N' }, version: 0 });
      expect(first.statusCode, first.body).toBe(200);
      const rows = await outbox();
      expect(rows.map((row) => row.email).sort()).toEqual(investigators02.map((row) => row.email).sort());
      expect(
        rows.every((row) => row.event_type === 'casebook_to_sign' && row.subject.includes(subject.subjectId)),
      ).toBe(true);
      // More of the same form, then completed after all: the subject was asked for once.
      const more = await as('si', 'PUT', endUrl, {
        values: { completed: 'Y' },
        version: first.json().version,
        reasons: { completed: 'Entered wrongly' },
      });
      expect(more.statusCode, more.body).toBe(200);
      expect(await outbox()).toHaveLength(rows.length);
    });
  },
  { seed: 'demo' },
);
