import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, demoStudyIds, type SignedIn, signIn } from '../../test/test-app.ts';
import { describeWithDatabase } from '../../test/test-database.ts';
import { verifyAuditChain } from '../audit/verify-audit-chain.ts';
import type { App } from '../http/types.ts';

const VITALS = {
  measurementDate: '2026-03-10',
  bloodPressureSystolic: 122,
  bloodPressureDiastolic: 78,
  heartRate: 70,
  bodyTemperature: 36.6,
  result: 'normal',
};

describeWithDatabase(
  'unscheduled visits',
  (database) => {
    let app: App;
    let studyId: number;
    let site2: number;
    let subjectId: number;
    const session: Record<string, SignedIn> = {};
    const as = (who: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
      app.inject({
        method,
        url,
        headers: { ...(session[who]?.headers ?? {}), 'accept-language': 'en' },
        ...(payload ? { payload } : {}),
      });
    const visitsUrl = () => `/api/studies/${studyId}/subjects/${subjectId}/unscheduled-visits`;
    const formUrl = (visit: string, form: string) =>
      `/api/studies/${studyId}/subjects/${subjectId}/forms/${visit}/${form}`;
    const overview = async () => {
      const response = await as('crc', 'GET', `/api/studies/${studyId}/subjects/${subjectId}/overview`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json();
    };

    beforeAll(async () => {
      app = await buildTestApp(database());
      await app.ready();
      for (const who of ['pi', 'si', 'crc', 'cra', 'dm'])
        session[who] = await signIn(app, `${who}@demo.cdms`);
      const demo = await demoStudyIds(database().db);
      studyId = demo.studyId;
      site2 = demo.siteId('02');
      const created = await as('crc', 'POST', `/api/studies/${studyId}/subjects`, {
        siteId: site2,
        consentDate: '2026-03-02',
        initials: 'UV',
      });
      expect(created.statusCode, created.body).toBe(201);
      subjectId = created.json().id;
    });
    afterAll(async () => {
      await app.close();
    });

    it('adds visits with increasing repeat keys, shows them by date and audits them', async () => {
      const first = await as('crc', 'POST', visitsUrl(), { visitDate: '2026-03-10', reason: 'Otalgia' });
      expect(first.statusCode, first.body).toBe(201);
      expect(first.json()).toMatchObject({ visitKey: 'unscheduled-1', repeatKey: 1, hasData: false });
      const second = await as('crc', 'POST', visitsUrl(), { visitDate: '2026-03-05', reason: ' Discharge ' });
      expect(second.json()).toMatchObject({ visitKey: 'unscheduled-2', reason: 'Discharge' });
      const view = await overview();
      expect(view.unscheduledVisits.map((v: { visitKey: string }) => v.visitKey)).toEqual([
        'unscheduled-2',
        'unscheduled-1',
      ]);
      expect(view.matrix['unscheduled-1'].vitalSigns).toBe('none');
      expect(view.matrix['unscheduled-1'].visitDay).toBe('empty');
      expect(view.marks['unscheduled-1'].vitalSigns).toBeDefined();
      const audit = await database()
        .db.selectFrom('audit_events')
        .select(['event_type', 'entity_id', 'reason'])
        .where('subject_id', '=', subjectId)
        .where('event_type', '=', 'visit.unscheduled_added')
        .orderBy('id')
        .execute();
      expect(audit).toEqual([
        { event_type: 'visit.unscheduled_added', entity_id: 'unscheduled-1', reason: 'Otalgia' },
        { event_type: 'visit.unscheduled_added', entity_id: 'unscheduled-2', reason: 'Discharge' },
      ]);
    });

    it('refuses bad input with clear 4xx and changes nothing', async () => {
      const before = (await overview()).unscheduledVisits.length;
      const cases: [object, number, string][] = [
        [{ visitDate: '2099-01-01', reason: 'x' }, 422, 'unscheduled_visit_date_in_future'],
        [{ visitDate: '2026-03-01', reason: 'x' }, 422, 'unscheduled_visit_before_consent'],
        [{ visitDate: '2026-02-30', reason: 'x' }, 400, 'validation_failed'],
        [{ visitDate: '2026-03-10', reason: '   ' }, 400, 'validation_failed'],
        [{ visitDate: '2026-03-10' }, 400, 'validation_failed'],
      ];
      for (const [body, status, code] of cases) {
        const response = await as('crc', 'POST', visitsUrl(), body);
        expect(response.statusCode, JSON.stringify(body)).toBe(status);
        expect(response.json().error.code).toBe(code);
      }
      const beforeConsent = await as('crc', 'POST', visitsUrl(), { visitDate: '2026-03-01', reason: 'x' });
      expect(beforeConsent.json().error.message).toContain('2026-03-02');
      expect((await overview()).unscheduledVisits.length).toBe(before);
    });

    it('lets only site staff who enter data add and delete', async () => {
      // Site 01's investigators do not see a subject of site 02.
      for (const who of ['pi', 'si']) {
        expect(
          (await as(who, 'POST', visitsUrl(), { visitDate: '2026-03-10', reason: 'x' })).statusCode,
        ).toBe(404);
      }
      for (const who of ['cra', 'dm']) {
        expect(
          (await as(who, 'POST', visitsUrl(), { visitDate: '2026-03-10', reason: 'x' })).statusCode,
        ).toBe(403);
        expect((await as(who, 'DELETE', `${visitsUrl()}/2`, { reason: 'x' })).statusCode).toBe(403);
      }
    });

    it('holds forms, queries and SDV like any visit; a visit with data cannot be deleted', async () => {
      const saved = await as('crc', 'PUT', formUrl('unscheduled-1', 'vitalSigns'), {
        values: VITALS,
        version: 0,
      });
      expect(saved.statusCode).toBe(200);
      expect(saved.json().status).toBe('check');
      // A form the declaration does not list, and a visit the subject does not have: 404.
      expect(
        (await as('crc', 'PUT', formUrl('unscheduled-1', 'visitDay'), { values: {}, version: 0 })).statusCode,
      ).toBe(404);
      expect(
        (await as('crc', 'PUT', formUrl('unscheduled-9', 'vitalSigns'), { values: VITALS, version: 0 }))
          .statusCode,
      ).toBe(404);
      const query = await as('cra', 'POST', `/api/studies/${studyId}/queries`, {
        subjectPk: subjectId,
        visitKey: 'unscheduled-1',
        formKey: 'vitalSigns',
        itemPath: 'heartRate',
        text: 'Please confirm the pulse.',
      });
      expect(query.statusCode).toBe(201);
      const verified = await as('cra', 'POST', `/api/studies/${studyId}/sdv/verify-form`, {
        subjectPk: subjectId,
        visitKey: 'unscheduled-1',
        formKey: 'vitalSigns',
      });
      expect(verified.statusCode).toBe(200);
      // The monitor's SDV page lists the visit among the subject's visits, its form verified.
      const sdv = (await as('cra', 'GET', `/api/studies/${studyId}/sdv/subjects/${subjectId}`)).json();
      const sdvVisit = sdv.visits.find((visit: { visitKey: string }) => visit.visitKey === 'unscheduled-1');
      expect(sdvVisit.label.en).toBe('Unscheduled visit 1');
      expect(sdvVisit.forms.find((form: { formKey: string }) => form.formKey === 'vitalSigns').state).toBe(
        'complete',
      );
      const view = await overview();
      expect(view.matrix['unscheduled-1'].vitalSigns).toBe('alert');
      expect(view.marks['unscheduled-1'].vitalSigns.sdv).toBe('complete');
      expect(view.unscheduledVisits.find((v: { repeatKey: number }) => v.repeatKey === 1).hasData).toBe(true);

      const refused = await as('crc', 'DELETE', `${visitsUrl()}/1`, { reason: 'Entered in error' });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error.code).toBe('unscheduled_visit_has_data');
      expect((await overview()).unscheduledVisits).toHaveLength(2);
    });

    it('deletes an empty visit with a reason, audited, and never reuses its repeat key', async () => {
      expect((await as('crc', 'DELETE', `${visitsUrl()}/2`, {})).statusCode).toBe(400);
      const deleted = await as('crc', 'DELETE', `${visitsUrl()}/2`, { reason: 'Added to the wrong subject' });
      expect(deleted.statusCode).toBe(204);
      expect((await as('crc', 'DELETE', `${visitsUrl()}/2`, { reason: 'again' })).statusCode).toBe(404);
      expect(
        (await as('crc', 'GET', formUrl('unscheduled-2', 'vitalSigns'))).statusCode,
        'the deleted visit has no forms',
      ).toBe(404);
      const record = await database()
        .db.selectFrom('audit_events')
        .select(['entity_id', 'reason'])
        .where('subject_id', '=', subjectId)
        .where('event_type', '=', 'visit.unscheduled_deleted')
        .executeTakeFirstOrThrow();
      expect(record).toEqual({ entity_id: 'unscheduled-2', reason: 'Added to the wrong subject' });
      const next = await as('crc', 'POST', visitsUrl(), {
        visitDate: '2026-03-12',
        reason: 'Follow-up of otalgia',
      });
      expect(next.json().visitKey).toBe('unscheduled-3');
      expect((await overview()).unscheduledVisits.map((v: { repeatKey: number }) => v.repeatKey)).toEqual([
        1, 3,
      ]);
      expect((await verifyAuditChain(database().db)).breaks).toEqual([]);
    });

    it('is refused under a freeze or lock of the subject, site or study, like any data write', async () => {
      for (const [who, kind, target] of [
        ['cra', 'frozen', { level: 'subject', subjectPk: subjectId }],
        ['dm', 'locked', { level: 'site', siteId: site2 }],
        ['dm', 'frozen', { level: 'study' }],
      ] as const) {
        const placed = await as(who, 'POST', `/api/studies/${studyId}/holds`, {
          kind,
          target,
          reason: 'Review',
        });
        expect(placed.statusCode).toBe(201);
        const add = await as('crc', 'POST', visitsUrl(), { visitDate: '2026-03-12', reason: 'x' });
        expect(add.statusCode).toBe(423);
        expect(add.json().error.code).toBe(kind);
        const remove = await as('crc', 'DELETE', `${visitsUrl()}/3`, { reason: 'x' });
        expect(remove.statusCode).toBe(423);
        const lifted = await as(who, 'POST', `/api/studies/${studyId}/holds/lift`, {
          kind,
          target,
          reason: 'Done',
        });
        expect(lifted.statusCode).toBe(200);
      }
      expect((await overview()).unscheduledVisits.map((v: { repeatKey: number }) => v.repeatKey)).toEqual([
        1, 3,
      ]);
    });

    it('never moves the protocol windows', async () => {
      const db = database().db;
      const windowsOf = () =>
        db
          .selectFrom('subject_visit_windows')
          .selectAll()
          .where('subject_id', '=', subjectId)
          .orderBy('visit_key')
          .execute();
      await as('crc', 'PUT', formUrl('v2', 'visitDay'), { values: { visitDate: '2026-03-04' }, version: 0 });
      const before = await windowsOf();
      await as('crc', 'POST', visitsUrl(), { visitDate: '2026-03-13', reason: 'Dizziness' });
      await as('crc', 'PUT', formUrl('unscheduled-4', 'vitalSigns'), { values: VITALS, version: 0 });
      expect(await windowsOf()).toEqual(before);
      expect(before.length).toBeGreaterThan(0);
      const visitRows = await db
        .selectFrom('subject_visits')
        .select('visit_key')
        .where('subject_id', '=', subjectId)
        .execute();
      expect(visitRows.length).toBeGreaterThan(0);
      expect(visitRows.filter((row) => row.visit_key.startsWith('unscheduled-'))).toEqual([]);
    });
  },
  { seed: 'demo' },
);
