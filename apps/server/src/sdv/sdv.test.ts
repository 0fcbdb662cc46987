import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { buildTestApp, demoStudyIds, type SignedIn, signIn } from '../../test/test-app.ts';
import { describeWithDatabase } from '../../test/test-database.ts';
import type { App } from '../http/types.ts';

/**
 * Issue 15's SDV through the API: marks and their roll-ups, the plan's denominator, the reset of a
 * verified item when its value changes, refused transitions (409), bad input (4xx, nothing written)
 * and who may verify.
 */
describeWithDatabase(
  'SDV API',
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
        headers: { ...(session[who]?.headers ?? {}), 'accept-language': 'en' },
        ...(payload ? { payload } : {}),
      });
    const sdvUrl = (path: string) => `/api/studies/${studyId}/sdv${path}`;
    const formUrl = (subjectPk: number, visit: string, form: string) =>
      `/api/studies/${studyId}/subjects/${subjectPk}/forms/${visit}/${form}`;
    const vitals = { bloodPressureSystolic: 120, bloodPressureDiastolic: 80, heartRate: 70 };

    async function newSubject(siteId: number, who = 'pi'): Promise<number> {
      const created = await as(who, 'POST', `/api/studies/${studyId}/subjects`, {
        siteId,
        consentDate: '2025-03-03',
        initials: 'SDV',
      });
      expect(created.statusCode).toBe(201);
      const subjectPk: number = created.json().id;
      expect(
        (await as(who, 'PUT', formUrl(subjectPk, 'v1', 'vitalSigns'), { values: vitals, version: 0 }))
          .statusCode,
      ).toBe(200);
      const eligibility = await as(who, 'PUT', formUrl(subjectPk, 'v2', 'inclusionExclusionEval'), {
        values: { eligible: 'Y' },
        version: 0,
      });
      expect(eligibility.statusCode).toBe(200);
      return subjectPk;
    }

    async function formSdv(subjectPk: number, visit: string, form: string) {
      const read = await as('cra', 'GET', formUrl(subjectPk, visit, form));
      expect(read.statusCode).toBe(200);
      return read.json().sdv;
    }

    async function markCount(): Promise<number> {
      const row = await database()
        .db.selectFrom('sdv_marks')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow();
      return Number(row.count);
    }

    /** Sets the plan (an unchanged plan is a 409, so the same plan is left as it is). */
    async function setPlan(mode: 'all' | 'critical', firstSubjectsPerSite: number) {
      const current = (await as('dm', 'GET', sdvUrl('/plan'))).json();
      if (current.mode === mode && current.firstSubjectsPerSite === firstSubjectsPerSite) return current;
      const response = await as('dm', 'PUT', sdvUrl('/plan'), { mode, firstSubjectsPerSite });
      expect(response.statusCode).toBe(200);
      return response.json();
    }

    beforeAll(async () => {
      app = await buildTestApp(database());
      await app.ready();
      for (const who of ['pi', 'crc', 'cra', 'dm', 'admin'])
        session[who] = await signIn(app, `${who}@demo.cdms`);
      const demo = await demoStudyIds(database().db);
      studyId = demo.studyId;
      site1 = demo.siteId('01');
      site2 = demo.siteId('02');
    });
    afterAll(async () => {
      await app.close();
    });
    // Every test starts from the default plan (the plan test changes it).
    beforeEach(async () => {
      await setPlan('all', 0);
    });

    it('verifies items and a form, rolls them up to visit, subject and site, and the SQL agrees with the form read', async () => {
      const subject = await newSubject(site1);
      const before = await formSdv(subject, 'v1', 'vitalSigns');
      expect(before.state).toBe('notStarted');
      expect(Object.keys(before.items).sort()).toEqual([
        'bloodPressureDiastolic',
        'bloodPressureSystolic',
        'heartRate',
      ]);
      expect(before.counts).toMatchObject({ plannedItems: 3, verifiedItems: 0, percent: 0 });

      const one = await as('cra', 'POST', sdvUrl('/verify'), {
        subjectPk: subject,
        visitKey: 'v1',
        formKey: 'vitalSigns',
        itemKeys: ['heartRate'],
      });
      expect(one.statusCode).toBe(200);
      expect(one.json().state).toBe('partial');
      expect(one.json().items.heartRate).toMatchObject({
        state: 'verified',
        verifiedBy: { name: expect.any(String) },
      });
      expect(one.json().counts).toMatchObject({ plannedItems: 3, verifiedItems: 1, percent: 33 });

      const rest = await as('cra', 'POST', sdvUrl('/verify-form'), {
        subjectPk: subject,
        visitKey: 'v1',
        formKey: 'vitalSigns',
      });
      expect(rest.statusCode).toBe(200);
      expect(rest.json()).toMatchObject({
        state: 'complete',
        counts: { plannedItems: 3, verifiedItems: 3, percent: 100 },
      });

      const detail = (await as('cra', 'GET', sdvUrl(`/subjects/${subject}`))).json();
      const v1 = detail.visits.find((visit: { visitKey: string }) => visit.visitKey === 'v1');
      const vitalsRow = v1.forms.find((form: { formKey: string }) => form.formKey === 'vitalSigns');
      expect(vitalsRow).toMatchObject({ state: 'complete', counts: { plannedItems: 3, verifiedItems: 3 } });
      // The subject's counts are the sum of its forms' as the form read reports them (TS and SQL agree).
      let planned = 0;
      let verified = 0;
      for (const visit of detail.visits) {
        for (const form of visit.forms) {
          const read = await formSdv(subject, visit.visitKey, form.formKey);
          expect(form.counts, `${visit.visitKey}.${form.formKey}`).toEqual(read.counts);
          planned += read.counts.plannedItems;
          verified += read.counts.verifiedItems;
        }
      }
      expect(detail.subject.counts).toMatchObject({ plannedItems: planned, verifiedItems: verified });
      expect(detail.nextForm).not.toBeNull();
      expect(`${detail.nextForm.visitKey}.${detail.nextForm.formKey}`).not.toBe('v1.vitalSigns');

      const visit = await as('cra', 'POST', sdvUrl('/verify-visit'), { subjectPk: subject, visitKey: 'v2' });
      expect(visit.statusCode).toBe(200);
      expect(visit.json().verified).toBeGreaterThan(0);
      expect((await formSdv(subject, 'v2', 'inclusionExclusionEval')).state).toBe('complete');

      // The site's row sums its subjects' rows.
      const subjects = (await as('cra', 'GET', sdvUrl(`/subjects?siteId=${site1}&size=100`))).json().subjects;
      const sites = (await as('cra', 'GET', sdvUrl('/sites'))).json();
      const siteRow = sites.sites.find((row: { siteId: number }) => row.siteId === site1);
      const sum = (key: string) =>
        subjects.reduce(
          (total: number, row: { counts: Record<string, number> }) => total + (row.counts[key] ?? 0),
          0,
        );
      expect(siteRow.counts.plannedItems).toBe(sum('plannedItems'));
      expect(siteRow.counts.verifiedItems).toBe(sum('verifiedItems'));
      expect(siteRow.subjects).toBe(subjects.length);
    });

    it('measures progress against the plan: critical items only, every item of the first N subjects per site', async () => {
      await setPlan('all', 0);
      // A new site keeps the ranks of this test to itself.
      const site = await database()
        .db.insertInto('sites')
        .values({ study_id: studyId, code: 'PLAN-77', name: 'Plan site', institution_number: '77' })
        .returning('id')
        .executeTakeFirstOrThrow();
      await database()
        .db.insertInto('membership_sites')
        .columns(['membership_id', 'site_id'])
        .expression((eb) =>
          eb
            .selectFrom('memberships')
            .innerJoin('users', 'users.id', 'memberships.user_id')
            .select(['memberships.id', eb.val(site.id).as('site_id')])
            .where('users.email', 'in', ['pi@demo.cdms', 'cra@demo.cdms'])
            .where('memberships.study_id', '=', studyId),
        )
        .execute();
      for (const who of ['pi', 'cra']) session[who] = await signIn(app, `${who}@demo.cdms`);
      const first = await newSubject(site.id);
      const second = await newSubject(site.id);
      expect((await formSdv(second, 'v1', 'vitalSigns')).counts.plannedItems).toBe(3);

      const plan = await setPlan('critical', 1);
      expect(
        plan.criticalItems.map(
          (item: { formKey: string; itemKey: string }) => `${item.formKey}.${item.itemKey}`,
        ),
      ).toEqual(
        expect.arrayContaining([
          'inclusionExclusionEval.eligible',
          'tympanicPhoto.perforationDiameter',
          'otoscopyEndoscopy.perforationSize',
          'tympanicPhoto.evaluation',
          'adverseEvent.events',
        ]),
      );
      // The first subject of the site: every item still counts.
      expect((await formSdv(first, 'v1', 'vitalSigns')).counts.plannedItems).toBe(3);
      // The second: vital signs are not critical, eligibility is.
      const vitalsOfSecond = await formSdv(second, 'v1', 'vitalSigns');
      expect(vitalsOfSecond.state).toBe('notRequired');
      expect(vitalsOfSecond.items.heartRate.inPlan).toBe(false);
      expect((await formSdv(second, 'v2', 'inclusionExclusionEval')).items.eligible.inPlan).toBe(true);

      const rows = (await as('cra', 'GET', sdvUrl(`/subjects?siteId=${site.id}`))).json().subjects;
      const byPk = new Map(rows.map((row: { subjectPk: number }) => [row.subjectPk, row]));
      expect(byPk.get(first)).toMatchObject({ planScope: 'all' });
      expect(byPk.get(second)).toMatchObject({ planScope: 'critical' });
      // The second subject's denominator is its critical entered items: eligibility, and the
      // inclusion/exclusion answers (none entered here).
      const secondCounts = (byPk.get(second) as { counts: { plannedItems: number } }).counts;
      expect(secondCounts.plannedItems).toBe(1);

      // Verifying the one critical item completes the subject under this plan.
      const verified = await as('cra', 'POST', sdvUrl('/verify-form'), {
        subjectPk: second,
        visitKey: 'v2',
        formKey: 'inclusionExclusionEval',
      });
      expect(verified.statusCode).toBe(200);
      const complete = (await as('cra', 'GET', sdvUrl(`/subjects?siteId=${site.id}&state=complete`))).json();
      expect(complete.subjects.map((row: { subjectPk: number }) => row.subjectPk)).toEqual([second]);
      await setPlan('all', 0);
    });

    it('resets a verified item when its value changes, in the same transaction, audited; re-verifying is allowed', async () => {
      const subject = await newSubject(site1);
      await as('cra', 'POST', sdvUrl('/verify-form'), {
        subjectPk: subject,
        visitKey: 'v1',
        formKey: 'vitalSigns',
      });
      const form = (await as('pi', 'GET', formUrl(subject, 'v1', 'vitalSigns'))).json();
      const changed = await as('pi', 'PUT', formUrl(subject, 'v1', 'vitalSigns'), {
        values: { ...vitals, heartRate: 72 },
        version: form.version,
        reasons: { heartRate: 'Source says 72' },
      });
      expect(changed.statusCode).toBe(200);
      const after = changed.json().sdv;
      expect(after.items.heartRate).toMatchObject({ state: 'changed', changedAt: expect.any(String) });
      expect(after.items.bloodPressureSystolic.state).toBe('verified');
      expect(after.counts).toMatchObject({ plannedItems: 3, verifiedItems: 2, changedItems: 1 });
      expect(after.state).toBe('partial');
      const resets = await database()
        .db.selectFrom('audit_events')
        .select(['entity_id', 'after'])
        .where('event_type', '=', 'sdv.reset')
        .where('subject_id', '=', subject)
        .execute();
      expect(resets.map((row) => row.entity_id)).toEqual(['v1.vitalSigns.heartRate']);
      const overview = (
        await as('cra', 'GET', `/api/studies/${studyId}/subjects/${subject}/overview`)
      ).json();
      expect(overview.marks.v1.vitalSigns).toEqual({ sdv: 'partial', hold: null });
      const again = await as('cra', 'POST', sdvUrl('/verify'), {
        subjectPk: subject,
        visitKey: 'v1',
        formKey: 'vitalSigns',
        itemKeys: ['heartRate'],
      });
      expect(again.statusCode).toBe(200);
      expect(again.json().state).toBe('complete');
    });

    it('un-verifies with a reason, and refuses transitions that make no sense with 409', async () => {
      const subject = await newSubject(site1);
      const target = { subjectPk: subject, visitKey: 'v1', formKey: 'vitalSigns' };
      expect(
        (await as('cra', 'POST', sdvUrl('/verify'), { ...target, itemKeys: ['heartRate'] })).statusCode,
      ).toBe(200);
      const twice = await as('cra', 'POST', sdvUrl('/verify'), { ...target, itemKeys: ['heartRate'] });
      expect(twice.statusCode).toBe(409);
      expect(twice.json().error).toMatchObject({
        code: 'sdv_already_verified',
        details: { itemKeys: ['heartRate'] },
      });
      const notEntered = await as('cra', 'POST', sdvUrl('/verify'), {
        ...target,
        itemKeys: ['bodyTemperature'],
      });
      expect(notEntered.statusCode).toBe(409);
      expect(notEntered.json().error.code).toBe('sdv_item_not_entered');
      const notVerified = await as('cra', 'POST', sdvUrl('/unverify'), {
        ...target,
        itemKeys: ['heartRate', 'bloodPressureSystolic'],
        reason: 'Marked in error',
      });
      expect(notVerified.statusCode).toBe(409);
      expect(notVerified.json().error).toMatchObject({
        code: 'sdv_not_verified',
        details: { itemKeys: ['bloodPressureSystolic'] },
      });
      // The refused call withdrew nothing.
      expect((await formSdv(subject, 'v1', 'vitalSigns')).items.heartRate.state).toBe('verified');
      const withdrawn = await as('cra', 'POST', sdvUrl('/unverify'), {
        ...target,
        itemKeys: ['heartRate'],
        reason: 'Marked in error',
      });
      expect(withdrawn.statusCode).toBe(200);
      expect(withdrawn.json().items.heartRate.state).toBe('unverified');
      const audit = await database()
        .db.selectFrom('audit_events')
        .select(['reason'])
        .where('event_type', '=', 'sdv.unverified')
        .where('subject_id', '=', subject)
        .execute();
      expect(audit).toEqual([{ reason: 'Marked in error' }]);
      expect((await as('cra', 'POST', sdvUrl('/verify-form'), target)).statusCode).toBe(200);
      const nothing = await as('cra', 'POST', sdvUrl('/verify-form'), target);
      expect(nothing.statusCode).toBe(409);
      expect(nothing.json().error.code).toBe('sdv_nothing_to_verify');
      await setPlan('all', 0);
      const unchanged = await as('dm', 'PUT', sdvUrl('/plan'), { mode: 'all', firstSubjectsPerSite: 0 });
      expect(unchanged.statusCode).toBe(409);
      expect(unchanged.json().error.code).toBe('sdv_plan_unchanged');
    });

    it('refuses bad input with 4xx and writes nothing', async () => {
      const subject = await newSubject(site1);
      const marks = await markCount();
      const target = { subjectPk: subject, visitKey: 'v1', formKey: 'vitalSigns' };
      const cases: [object, number][] = [
        [{ ...target, itemKeys: ['noSuchItem'] }, 422],
        [{ ...target, itemKeys: ['heartRate', 'noSuchItem'] }, 422],
        [{ ...target, itemKeys: [] }, 400],
        [{ ...target, itemKeys: ['heartRate'], extra: true }, 400],
        [{ ...target, subjectPk: 'x', itemKeys: ['heartRate'] }, 400],
        [{ ...target, formKey: 'noSuchForm', itemKeys: ['heartRate'] }, 404],
        [{ ...target, subjectPk: 2_147_483_647, itemKeys: ['heartRate'] }, 404],
      ];
      for (const [body, status] of cases) {
        const response = await as('cra', 'POST', sdvUrl('/verify'), body);
        expect(response.statusCode, JSON.stringify(body)).toBe(status);
        expect(response.json().error.code).toEqual(expect.any(String));
      }
      for (const body of [
        { mode: 'some', firstSubjectsPerSite: 1 },
        { mode: 'critical', firstSubjectsPerSite: -1 },
        { mode: 'critical', firstSubjectsPerSite: 1001 },
        { mode: 'critical' },
      ]) {
        expect((await as('dm', 'PUT', sdvUrl('/plan'), body)).statusCode).toBe(400);
      }
      expect(await markCount()).toBe(marks);
      expect((await as('cra', 'GET', sdvUrl('/subjects?state=bogus'))).statusCode).toBe(400);
      expect((await as('cra', 'GET', sdvUrl('/subjects?siteId=0'))).statusCode).toBe(400);
    });

    it('lets only a CRA verify, on the sites they monitor; the plan is DM and ADMIN', async () => {
      const atSite2 = await newSubject(site2, 'crc');
      const target = { subjectPk: atSite2, visitKey: 'v1', formKey: 'vitalSigns', itemKeys: ['heartRate'] };
      for (const who of ['dm', 'admin'])
        expect((await as(who, 'POST', sdvUrl('/verify'), target)).statusCode).toBe(403);
      expect((await as('crc', 'POST', sdvUrl('/verify'), target)).statusCode).toBe(403);
      expect((await as('pi', 'POST', sdvUrl('/verify'), target)).statusCode).toBe(404);
      expect((await as('cra', 'POST', sdvUrl('/verify'), target)).statusCode).toBe(200);
      expect(
        (await as('cra', 'PUT', sdvUrl('/plan'), { mode: 'critical', firstSubjectsPerSite: 2 })).statusCode,
      ).toBe(403);
      expect(
        (await as('admin', 'PUT', sdvUrl('/plan'), { mode: 'critical', firstSubjectsPerSite: 2 })).statusCode,
      ).toBe(200);
      expect((await as('pi', 'GET', sdvUrl('/plan'))).json()).toMatchObject({
        mode: 'critical',
        canEdit: false,
      });
      await setPlan('all', 0);
    });

    it("counts the subject-info popup's pages not SDV-complete from the marks", async () => {
      const info = async () => (await as('dm', 'GET', `/api/studies/${studyId}/subject-info`)).json();
      const before = await info();
      expect(before.pagesNotSdvComplete).toBeLessThanOrEqual(before.ecrfPages);
      const subject = await newSubject(site1);
      const added = await info();
      // Consent/screening, vital signs and eligibility: three saved pages with entered items.
      expect(added.pagesNotSdvComplete - before.pagesNotSdvComplete).toBe(3);
      await as('cra', 'POST', sdvUrl('/verify-visit'), { subjectPk: subject, visitKey: 'v1' });
      expect((await info()).pagesNotSdvComplete - before.pagesNotSdvComplete).toBe(2);
    });
  },
  { seed: 'demo' },
);
