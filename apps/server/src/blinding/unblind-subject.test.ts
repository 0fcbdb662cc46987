import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, demoStudyIds, type SignedIn, signIn } from '../../test/test-app.ts';
import { describeWithDatabase } from '../../test/test-database.ts';
import { createUser } from '../admin/users.ts';
import { systemActor } from '../audit/audit-events.ts';
import { verifyAuditChain } from '../audit/verify-audit-chain.ts';
import type { App } from '../http/types.ts';
import { generateRandomizationLists } from '../randomization/randomization.ts';
import { DEMO_PASSWORD } from '../seed/demo-seed.ts';

describeWithDatabase(
  'emergency unblinding',
  (database) => {
    let app: App;
    let studyId: number;
    let site1: number;
    let site2: number;
    const session: Record<string, SignedIn> = {};
    const as = (who: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
      app.inject({
        method,
        url,
        headers: { ...(session[who]?.headers ?? {}), 'accept-language': who === 'crc' ? 'ko' : 'en' },
        ...(payload ? { payload } : {}),
      });
    const unblind = (who: string, subjectId: number, body: object) =>
      as(who, 'POST', `/api/studies/${studyId}/subjects/${subjectId}/unblind`, body);
    const reason = '중증 알레르기 반응으로 응급실 내원, 치료 결정을 위해 배정군 확인 필요';

    async function eligibleSubject(who: string, siteId: number): Promise<number> {
      const subject = (
        await as(who, 'POST', `/api/studies/${studyId}/subjects`, {
          siteId,
          consentDate: '2025-03-03',
          initials: 'UNB',
        })
      ).json();
      // The demo study's eligibility evaluation, saved as eligible (as randomization/settings.test.ts does).
      const saved = await as(
        who,
        'PUT',
        `/api/studies/${studyId}/subjects/${subject.id}/forms/v2/inclusionExclusionEval`,
        { values: { eligible: 'Y' }, version: 0 },
      );
      expect(saved.statusCode, saved.body).toBe(200);
      return subject.id;
    }
    async function randomizedSubject(who = 'pi', siteId = site1): Promise<number> {
      const subjectId = await eligibleSubject(who, siteId);
      const randomized = await as(who, 'POST', `/api/studies/${studyId}/subjects/${subjectId}/randomize`);
      expect(randomized.statusCode, randomized.body).toBe(201);
      // Blinded: the site is not told the group.
      expect(randomized.json().group).toBeNull();
      return subjectId;
    }

    beforeAll(async () => {
      const db = database().db;
      app = await buildTestApp(database());
      await app.ready();
      const demo = await demoStudyIds(db);
      studyId = demo.studyId;
      site1 = demo.siteId('01');
      site2 = demo.siteId('02');
      // A PI at site 02, to be refused site 01's subjects.
      const pi2 = await createUser(db, systemActor('test'), {
        email: 'pi2@unblind.kr',
        name: '다른기관',
        contact: '',
        locale: 'ko',
        isAdmin: false,
        password: 'unblind-pass-2026',
      });
      const membership = await db
        .insertInto('memberships')
        .values({ user_id: pi2.id, study_id: studyId, role: 'PI' })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('membership_sites')
        .values({ membership_id: membership.id, site_id: site2 })
        .execute();
      for (const who of ['pi', 'si', 'crc', 'cra', 'dm', 'safety', 'stat'])
        session[who] = await signIn(app, `${who}@demo.cdms`);
      session.pi2 = await signIn(app, 'pi2@unblind.kr', 'unblind-pass-2026');
      await generateRandomizationLists(db, systemActor('test'), studyId, {
        perSite: 8,
        seed: 'unblind',
        siteIds: [site1, site2],
      });
      // A blinded study: no role sees groups (set before anyone is randomized).
      const blinded = await as('dm', 'PUT', `/api/studies/${studyId}/randomization/settings`, {
        groupVisibleRoles: [],
      });
      expect(blinded.statusCode, blinded.body).toBe(200);
    });
    afterAll(async () => {
      await app.close();
    });

    it('lets the PI of the site break the blind of one subject: the group answered, audited, the sponsor told; twice is 409', async () => {
      const db = database().db;
      const subjectId = await randomizedSubject();
      const before = (await as('pi', 'GET', `/api/studies/${studyId}/subjects/${subjectId}/overview`)).json();
      expect(before.blinding).toEqual({ unblinded: false, unblindedAt: null, group: null, mayBreak: true });

      const broken = await unblind('pi', subjectId, { reason, password: DEMO_PASSWORD });
      expect(broken.statusCode, broken.body).toBe(201);
      const answer = broken.json();
      const slot = await db
        .selectFrom('randomization_slots')
        .select('treatment_group')
        .where('subject_id', '=', subjectId)
        .executeTakeFirstOrThrow();
      expect(answer.group).toBe(slot.treatment_group);
      expect(answer.randomizationNumber).toMatch(/^R01\d{3}$/);

      // Marked everywhere: the subject page for everyone, the group only for its site's staff.
      for (const who of ['pi', 'si']) {
        const blinding = (
          await as(who, 'GET', `/api/studies/${studyId}/subjects/${subjectId}/overview`)
        ).json().blinding;
        expect(blinding).toMatchObject({ unblinded: true, group: slot.treatment_group, mayBreak: false });
      }
      for (const who of ['cra', 'dm', 'safety']) {
        const blinding = (
          await as(who, 'GET', `/api/studies/${studyId}/subjects/${subjectId}/overview`)
        ).json().blinding;
        expect(blinding).toMatchObject({ unblinded: true, group: null, mayBreak: false });
      }
      const list = (await as('cra', 'GET', `/api/studies/${studyId}/subjects?size=100`)).json();
      const row = list.subjects.find((entry: { pk: number }) => entry.pk === subjectId);
      expect(row.unblinded).toBe(true);
      expect(JSON.stringify(row)).not.toContain(slot.treatment_group);

      // One audit record with the reason, never the group; the chain holds.
      const audit = await db
        .selectFrom('audit_events')
        .select(['event_type', 'reason', 'after', 'subject_id'])
        .where('event_type', '=', 'subject.unblinded')
        .execute();
      expect(audit).toEqual([
        {
          event_type: 'subject.unblinded',
          reason,
          after: { unblindedAt: answer.unblindedAt },
          subject_id: subjectId,
        },
      ]);
      expect(JSON.stringify(audit)).not.toContain(slot.treatment_group);
      expect((await verifyAuditChain(db)).ok).toBe(true);

      // The outbox: the safety desk, data management, the unblinded desk and site 01's monitor.
      const notices = await db
        .selectFrom('notifications')
        .innerJoin('users', 'users.id', 'notifications.recipient_user_id')
        .select(['users.email', 'notifications.body'])
        .where('notifications.event_type', '=', 'blind_broken')
        .orderBy('users.email')
        .execute();
      expect(notices.map((notice) => notice.email)).toEqual([
        'cra@demo.cdms',
        'dm@demo.cdms',
        'safety@demo.cdms',
        'stat@demo.cdms',
      ]);
      for (const notice of notices) {
        expect(notice.body).toContain(reason);
        expect(notice.body).not.toContain(slot.treatment_group);
      }

      const again = await unblind('pi', subjectId, { reason, password: DEMO_PASSWORD });
      expect(again.statusCode).toBe(409);
      expect(again.json().error.code).toBe('already_unblinded');
    });

    it("refuses everyone but the PI of the subject's site, a wrong password and bad input — changing nothing", async () => {
      const db = database().db;
      const subjectId = await randomizedSubject();
      const ok = { reason, password: DEMO_PASSWORD };
      for (const who of ['si', 'cra', 'dm', 'safety', 'stat']) {
        const refused = await unblind(who, subjectId, ok);
        expect(refused.statusCode, who).toBe(403);
      }
      // A PI elsewhere does not see the subject at all.
      const elsewhere = await unblind('pi2', subjectId, { reason, password: 'unblind-pass-2026' });
      expect(elsewhere.statusCode).toBe(404);
      const wrong = await unblind('pi', subjectId, { reason, password: 'not-my-password-1' });
      expect(wrong.statusCode).toBe(422);
      expect(wrong.json().error.code).toBe('signature_password_incorrect');
      for (const bad of [
        { password: DEMO_PASSWORD },
        { reason: '   ', password: DEMO_PASSWORD },
        { reason },
        { reason, password: DEMO_PASSWORD, group: 'treatment' },
      ]) {
        const refused = await unblind('pi', subjectId, bad);
        expect(refused.statusCode, JSON.stringify(bad)).toBe(400);
        expect(refused.json().error.code).toBe('validation_failed');
      }
      const notRandomized = await eligibleSubject('pi', site1);
      const none = await unblind('pi', notRandomized, ok);
      expect(none.statusCode).toBe(409);
      expect(none.json().error.code).toBe('not_randomized');
      expect((await unblind('pi', 99999, ok)).statusCode).toBe(404);

      const rows = await db.selectFrom('subject_unblindings').select('subject_id').execute();
      expect(rows.map((row) => row.subject_id)).not.toContain(subjectId);
      const failed = await db
        .selectFrom('audit_events')
        .select('subject_id')
        .where('event_type', '=', 'subject.unblinding_failed')
        .execute();
      expect(failed).toEqual([{ subject_id: subjectId }]);
      // The refusal in the reader's language (the CRC reads Korean).
      const korean = await unblind('crc', subjectId, ok);
      expect(korean.statusCode).toBe(403);
    });

    it('is held back by no training: a PI owing required training still breaks the blind', async () => {
      const db = database().db;
      const subjectId = await randomizedSubject('pi');
      const waiting = await eligibleSubject('pi', site1);
      await db
        .updateTable('studies')
        .set({ training_gates_data_entry: true })
        .where('id', '=', studyId)
        .execute();
      const module = await as('dm', 'POST', `/api/studies/${studyId}/training/modules`, {
        title: '눈가림 유지 교육',
        contentHtml: '<p>눈가림</p>',
        roles: ['PI'],
        quiz: null,
        state: 'published',
      });
      expect(module.statusCode, module.body).toBe(201);
      // The gate holds the PI's data writes back …
      const gated = await as('pi', 'POST', `/api/studies/${studyId}/subjects/${waiting}/randomize`);
      expect(gated.statusCode).toBe(403);
      expect(gated.json().error.code).toBe('training_required');
      // … never an emergency.
      const broken = await unblind('pi', subjectId, { reason, password: DEMO_PASSWORD });
      expect(broken.statusCode, broken.body).toBe(201);
    });
  },
  { seed: 'demo' },
);
