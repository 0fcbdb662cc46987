import {
  type FormValues,
  getFormLayout,
  getStudyIndex,
  isSigningForm,
  sampleSubject,
  tmPerforationStudy,
} from '@cdms/study';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, demoStudyIds, type SignedIn, signIn } from '../../test/test-app.ts';
import { describeWithDatabase } from '../../test/test-database.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { verifyAuditChain } from '../audit/verify-audit-chain.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { App } from '../http/types.ts';

describeWithDatabase(
  'data capture API',
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
    const formUrl = (subjectId: number, visit: string, form: string) =>
      `/api/studies/${studyId}/subjects/${subjectId}/forms/${visit}/${form}`;

    beforeAll(async () => {
      app = await buildTestApp(database());
      await app.ready();
      for (const who of ['pi', 'si', 'crc', 'cra', 'dm'])
        session[who] = await signIn(app, `${who}@demo.cdms`);
      const db = database().db;
      const demo = await demoStudyIds(db);
      studyId = demo.studyId;
      site1 = demo.siteId('01');
      site2 = demo.siteId('02');
    });
    afterAll(async () => {
      await app.close();
    });

    it('registers subjects with consecutive screening numbers per site, for site staff at their own sites only', async () => {
      const created = await as('pi', 'POST', `/api/studies/${studyId}/subjects`, {
        siteId: site1,
        consentDate: '2025-03-03',
        initials: 'hgd',
      });
      expect(created.statusCode).toBe(201);
      expect(created.json()).toMatchObject({
        subjectId: 'S01-001',
        initials: 'HGD',
        status: 'screening',
        siteCode: 'HBU-1Y',
      });
      expect(
        (
          await as('pi', 'POST', `/api/studies/${studyId}/subjects`, {
            siteId: site2,
            consentDate: '2025-03-03',
            initials: 'AB',
          })
        ).statusCode,
      ).toBe(403);
      expect(
        (
          await as('cra', 'POST', `/api/studies/${studyId}/subjects`, {
            siteId: site1,
            consentDate: '2025-03-03',
            initials: 'AB',
          })
        ).statusCode,
      ).toBe(403);
      const future = await as('crc', 'POST', `/api/studies/${studyId}/subjects`, {
        siteId: site2,
        consentDate: '2099-01-01',
        initials: 'AB',
      });
      expect(future.statusCode).toBe(422);
      expect(future.json().error.code).toBe('consent_date_in_future');
      for (const initials of ['A', 'ABCDE', '김철수', 'A1']) {
        expect(
          (
            await as('crc', 'POST', `/api/studies/${studyId}/subjects`, {
              siteId: site2,
              consentDate: '2025-03-03',
              initials,
            })
          ).statusCode,
        ).toBe(400);
      }
      // The consent form is filled from the registration.
      const consent = (
        await as('pi', 'GET', formUrl(created.json().id, 'consentScreening', 'consentScreening'))
      ).json();
      expect(consent.values).toEqual({
        consentDate: '2025-03-03',
        initials: 'HGD',
        screeningNumber: 'S01-001',
      });
      expect(consent.version).toBe(1);
    });

    it('never gives two concurrent registrations the same screening number', async () => {
      const responses = await Promise.all(
        Array.from({ length: 12 }, () =>
          as('crc', 'POST', `/api/studies/${studyId}/subjects`, {
            siteId: site2,
            consentDate: '2025-04-01',
            initials: 'KJ',
          }),
        ),
      );
      expect(responses.map((r) => r.statusCode)).toEqual(Array(12).fill(201));
      const numbers = responses.map((r) => r.json().subjectId).sort();
      expect(new Set(numbers).size).toBe(12);
      expect(numbers[0]).toBe('S02-001');
      expect(numbers[11]).toBe('S02-012');
    });

    it('saves and loads every form of every visit of the sample subject, with derived values from the server', async () => {
      const subject = (
        await as('si', 'POST', `/api/studies/${studyId}/subjects`, {
          siteId: site1,
          consentDate: '2025-03-03',
          initials: 'HGD',
        })
      ).json();
      const sample = sampleSubject();
      const index = getStudyIndex(tmPerforationStudy);
      let saved = 0;
      for (const layout of index.schedule) {
        const values = sample[layout.visitKey]?.[layout.form.key] as FormValues | undefined;
        if (!values || layout.visitKey === 'consentScreening') continue;
        // The signing form is filled only by the PI's signature (src/signatures), never by a save.
        if (isSigningForm(tmPerforationStudy, layout.visitKey, layout.form.key)) continue;
        const response = await as('si', 'PUT', formUrl(subject.id, layout.visitKey, layout.form.key), {
          values,
          version: 0,
        });
        expect(
          response.statusCode,
          `${layout.visitKey}.${layout.form.key}: ${response.body.slice(0, 300)}`,
        ).toBe(200);
        const body = response.json();
        expect(body.version).toBe(1);
        // The answer comes from what the save wrote and read in its own transaction (the form's row
        // and what surrounds the form are sent with its commit, unanswered): a read gives it back.
        const read = await as('si', 'GET', formUrl(subject.id, layout.visitKey, layout.form.key));
        expect(body, `${layout.visitKey}.${layout.form.key}`).toEqual(read.json());
        // Read-only items (randomization number, date, group…) are the server's to fill: a client's value is ignored.
        const readOnly = new Set(
          layout.sections.flatMap((section) =>
            section.items.filter((item) => item.readOnly && !item.derive).map((item) => item.key),
          ),
        );
        for (const [key, value] of Object.entries(values)) {
          if (value === null || value === '' || (Array.isArray(value) && value.length === 0)) continue;
          if (readOnly.has(key))
            expect(body.values[key], `${layout.visitKey}.${layout.form.key}.${key}`).toBeUndefined();
          else expect(body.values[key], `${layout.visitKey}.${layout.form.key}.${key}`).toEqual(value);
        }
        saved += 1;
      }
      expect(saved).toBeGreaterThan(40);
      const demographics = (await as('pi', 'GET', formUrl(subject.id, 'v1', 'demographicInfo'))).json();
      expect(demographics.values.age).toBe(44);
      const body = (await as('pi', 'GET', formUrl(subject.id, 'v1', 'bodyMeasurement'))).json();
      expect(body.values.bmi).toBe(22);
      const overview = (
        await as('cra', 'GET', `/api/studies/${studyId}/subjects/${subject.id}/overview`)
      ).json();
      expect(overview.matrix.v1.demographicInfo).toBe('check');
      expect(overview.matrix.v1.randomizationNumber).toBe('empty');
    });

    it('refuses a change without a reason, keeps the history with one, and detects a stale version', async () => {
      const subject = (
        await as('crc', 'POST', `/api/studies/${studyId}/subjects`, {
          siteId: site2,
          consentDate: '2025-03-03',
          initials: 'LEE',
        })
      ).json();
      const url = formUrl(subject.id, 'v1', 'demographicInfo');
      const first = await as('crc', 'PUT', url, {
        values: { birthDate: '1990-01-01', gender: 'M' },
        version: 0,
      });
      expect(first.json()).toMatchObject({ version: 1, status: 'check' });
      expect(first.json().values.age).toBe(35);

      const noReason = await as('crc', 'PUT', url, {
        values: { birthDate: '1991-01-01', gender: 'M' },
        version: 1,
      });
      expect(noReason.statusCode).toBe(422);
      expect(noReason.json().error).toMatchObject({
        code: 'reason_required',
        details: { items: ['demographicInfo.birthDate'] },
      });

      const withReason = await as('crc', 'PUT', url, {
        values: { birthDate: '1991-01-01', gender: 'M' },
        version: 1,
        reasons: { birthDate: 'Transcription error, checked against ID' },
      });
      expect(withReason.statusCode).toBe(200);
      expect(withReason.json().values.age).toBe(34);

      const stale = await as('crc', 'PUT', url, {
        values: { birthDate: '1992-01-01', gender: 'M' },
        version: 1,
        reasons: { birthDate: 'x' },
      });
      expect(stale.statusCode).toBe(409);
      expect(stale.json().error.details).toMatchObject({
        currentVersion: 2,
        values: { birthDate: '1991-01-01' },
      });

      const history = (
        await as(
          'cra',
          'GET',
          `/api/studies/${studyId}/subjects/${subject.id}/audit?visit=v1&form=demographicInfo&item=birthDate`,
        )
      ).json().entries;
      expect(
        history.map((e: { before: { value: unknown }; after: { value: unknown }; reason: string | null }) => [
          e.before.value,
          e.after.value,
          e.reason,
        ]),
      ).toEqual([
        ['1990-01-01', '1991-01-01', 'Transcription error, checked against ID'],
        [null, '1990-01-01', null],
      ]);
      // Each change names the person and the role they acted in — never the account's e-mail.
      expect(
        history.map((e: { actorName: string; actorRole: string }) => [e.actorName, e.actorRole]),
      ).toEqual([
        ['박코디', 'CRC'],
        ['박코디', 'CRC'],
      ]);
      expect(JSON.stringify(history)).not.toContain('@demo.cdms');
      const stored = await database()
        .db.selectFrom('audit_events')
        .select('actor_role')
        .where('subject_id', '=', subject.id)
        .where('event_type', '=', 'data.item_changed')
        .execute();
      expect(new Set(stored.map((row) => row.actor_role))).toEqual(new Set(['CRC']));

      // A record written before roles were stored takes the role from the person's memberships.
      await inTransaction(database().db, (trx) =>
        recordAudit(
          trx,
          { userId: session.crc?.userId ?? null, label: 'crc@demo.cdms', ip: '', requestId: 'older' },
          {
            type: 'data.item_changed',
            entityType: 'item',
            entityId: 'v1.demographicInfo.gender',
            studyId,
            siteId: site2,
            subjectId: subject.id,
            before: { value: null },
            after: { value: 'M' },
          },
        ),
      );
      const older = (
        await as(
          'cra',
          'GET',
          `/api/studies/${studyId}/subjects/${subject.id}/audit?visit=v1&form=demographicInfo&item=gender`,
        )
      ).json().entries;
      expect(older[0]).toMatchObject({ actorName: '박코디', actorRole: 'CRC', itemPath: 'gender' });
    });

    it('lets exactly one of several concurrent saves of the same version win (the others get 409)', async () => {
      const subject = (
        await as('crc', 'POST', `/api/studies/${studyId}/subjects`, {
          siteId: site2,
          consentDate: '2025-03-03',
          initials: 'PAR',
        })
      ).json();
      const url = formUrl(subject.id, 'v1', 'vitalSigns');
      const responses = await Promise.all(
        [120, 125, 130, 135, 140, 145].map((systolic) =>
          as('crc', 'PUT', url, {
            values: { bloodPressureSystolic: systolic, bloodPressureDiastolic: 80 },
            version: 0,
          }),
        ),
      );
      expect(responses.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409, 409, 409]);
      const winner = responses.find((r) => r.statusCode === 200)?.json();
      const current = (await as('crc', 'GET', url)).json();
      expect(current.version).toBe(1);
      expect(current.values.bloodPressureSystolic).toBe(winner.values.bloodPressureSystolic);
      // A second round from version 1 behaves the same.
      const again = await Promise.all([
        as('crc', 'PUT', url, {
          values: { bloodPressureSystolic: 150, bloodPressureDiastolic: 80 },
          version: 1,
          reasons: { bloodPressureSystolic: 'a' },
        }),
        as('crc', 'PUT', url, {
          values: { bloodPressureSystolic: 155, bloodPressureDiastolic: 80 },
          version: 1,
          reasons: { bloodPressureSystolic: 'b' },
        }),
      ]);
      expect(again.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    });

    it('refuses bad values and hard check failures with 422 and changes nothing', async () => {
      const subject = (
        await as('crc', 'POST', `/api/studies/${studyId}/subjects`, {
          siteId: site2,
          consentDate: '2025-03-03',
          initials: 'KIM',
        })
      ).json();
      const url = formUrl(subject.id, 'v1', 'demographicInfo');
      const bad = await as('crc', 'PUT', url, {
        values: { birthDate: '1990-02-30', gender: 'X', shoeSize: 42 },
        version: 0,
      });
      expect(bad.statusCode).toBe(422);
      expect(bad.json().error.code).toBe('invalid_values');
      expect(
        bad
          .json()
          .error.details.items.map((i: { path: string }) => i.path)
          .sort(),
      ).toEqual(['demographicInfo.birthDate', 'demographicInfo.gender', 'demographicInfo.shoeSize']);
      expect(typeof bad.json().error.details.items[0].message).toBe('string');
      const hard = await as('crc', 'PUT', url, {
        values: { birthDate: '2025-05-01', gender: 'F' },
        version: 0,
      });
      expect(hard.statusCode).toBe(422);
      expect(hard.json().error.code).toBe('hard_check_failed');
      expect(hard.json().error.details.items[0].message).toBe(
        'The date of birth is later than the consent date.',
      );
      expect((await as('crc', 'GET', url)).json()).toMatchObject({ version: 0, values: {}, status: 'none' });
      for (const payload of [
        {},
        { values: [], version: 0 },
        { values: {}, version: -1 },
        { values: {}, version: 'x' },
      ]) {
        expect((await as('crc', 'PUT', url, payload)).statusCode).toBe(400);
      }
    });

    it('opens a system query for a failing query check and closes it when the data pass', async () => {
      const subject = (
        await as('crc', 'POST', `/api/studies/${studyId}/subjects`, {
          siteId: site2,
          consentDate: '2025-03-03',
          initials: 'QRY',
        })
      ).json();
      const url = formUrl(subject.id, 'v1', 'vitalSigns');
      const failing = await as('crc', 'PUT', url, {
        values: { bloodPressureSystolic: 95, bloodPressureDiastolic: 96 },
        version: 0,
      });
      expect(failing.json().status).toBe('alert');
      expect(failing.json().queries).toHaveLength(1);
      expect(failing.json().queries[0]).toMatchObject({
        kind: 'system',
        status: 'open',
        checkId: 'vitalSigns.systolicNotAboveDiastolic',
      });
      // Saving again while it still fails does not open a second one.
      const again = await as('crc', 'PUT', url, {
        values: { bloodPressureSystolic: 95, bloodPressureDiastolic: 96, heartRate: 70 },
        version: 1,
      });
      expect(again.json().queries).toHaveLength(1);
      const fixed = await as('crc', 'PUT', url, {
        values: { bloodPressureSystolic: 120, bloodPressureDiastolic: 96, heartRate: 70 },
        version: 2,
        reasons: { bloodPressureSystolic: 'Re-measured' },
      });
      // The form lists its queries in every state (issue 14): this one closed by the check, its thread
      // holding the opening message, the value change and the closure.
      expect(fixed.json().queries).toEqual([
        expect.objectContaining({ kind: 'system', status: 'closed', messageCount: 3 }),
      ]);
      expect(fixed.json().status).not.toBe('alert');
      const types = (
        await database()
          .db.selectFrom('audit_events')
          .select('event_type')
          .where('subject_id', '=', subject.id)
          .execute()
      ).map((r) => r.event_type);
      expect(types).toEqual(expect.arrayContaining(['query.opened', 'query.closed']));
    });

    it('keeps read-only items, resets with a reason, and takes comments up to 3500 characters', async () => {
      const subject = (
        await as('crc', 'POST', `/api/studies/${studyId}/subjects`, {
          siteId: site2,
          consentDate: '2025-03-03',
          initials: 'RST',
        })
      ).json();
      const consent = await as('crc', 'PUT', formUrl(subject.id, 'consentScreening', 'consentScreening'), {
        values: { consentDate: '2025-03-03', initials: 'ZZ', screeningNumber: 'S99-999' },
        version: 1,
      });
      expect(consent.json().values).toMatchObject({ initials: 'RST', screeningNumber: subject.subjectId });

      const url = formUrl(subject.id, 'v1', 'demographicInfo');
      await as('crc', 'PUT', url, { values: { birthDate: '1990-01-01', gender: 'M' }, version: 0 });
      expect((await as('crc', 'POST', `${url}/reset`, { version: 1 })).statusCode).toBe(400);
      const reset = await as('crc', 'POST', `${url}/reset`, {
        version: 1,
        reason: 'Entered for the wrong subject',
      });
      expect(reset.json()).toMatchObject({ values: {}, status: 'none', version: 2 });

      const sectionKey = getFormLayout(tmPerforationStudy, 'v1', 'demographicInfo')?.sections[0]
        ?.key as string;
      expect(
        (await as('crc', 'POST', `${url}/comments`, { sectionKey, text: '주민등록증으로 확인함' }))
          .statusCode,
      ).toBe(201);
      expect(
        (await as('crc', 'POST', `${url}/comments`, { sectionKey: 'noSuchSection', text: 'x' })).statusCode,
      ).toBe(404);
      expect(
        (await as('crc', 'POST', `${url}/comments`, { sectionKey: 'x', text: 'a'.repeat(3501) })).statusCode,
      ).toBe(400);
      expect((await as('crc', 'GET', url)).json().comments).toHaveLength(1);
    });

    it('lets CRA and DM read but not edit, and hides other sites (404)', async () => {
      const subject = (
        await as('crc', 'POST', `/api/studies/${studyId}/subjects`, {
          siteId: site2,
          consentDate: '2025-03-03',
          initials: 'SCP',
        })
      ).json();
      const url = formUrl(subject.id, 'v1', 'demographicInfo');
      const craView = await as('cra', 'GET', url);
      expect(craView.statusCode).toBe(200);
      expect(craView.json().abilities).toEqual({
        edit: false,
        randomize: false,
        openQuery: true,
        // The CRA monitors site 02: verifies and freezes there; only a DM locks.
        verify: true,
        freeze: true,
        lock: false,
      });
      expect((await as('cra', 'PUT', url, { values: {}, version: 0 })).statusCode).toBe(403);
      expect((await as('dm', 'PUT', url, { values: {}, version: 0 })).statusCode).toBe(403);
      expect((await as('pi', 'GET', url)).statusCode).toBe(404);
      expect(
        (await as('pi', 'GET', `/api/studies/${studyId}/subjects/${subject.id}/overview`)).statusCode,
      ).toBe(404);
      expect((await as('crc', 'GET', formUrl(subject.id, 'v1', 'randomizationNumber'))).statusCode).toBe(404);
      const piList = (await as('pi', 'GET', `/api/studies/${studyId}/subjects`)).json().subjects;
      expect(piList.every((s: { siteId: number }) => s.siteId === site1)).toBe(true);
      const dmList = (await as('dm', 'GET', `/api/studies/${studyId}/subjects`)).json().subjects;
      expect(dmList.some((s: { siteId: number }) => s.siteId === site2)).toBe(true);
    });

    it('derives the subject status from the data after every save, and audits the cause', async () => {
      const subject = (
        await as('crc', 'POST', `/api/studies/${studyId}/subjects`, {
          siteId: site2,
          consentDate: '2025-03-03',
          initials: 'STA',
        })
      ).json();
      const url = formUrl(subject.id, 'v1', 'inclusionExclusionEval');
      await as('crc', 'PUT', url, { values: { eligible: 'N' }, version: 0 });
      const failed = (
        await as('crc', 'GET', `/api/studies/${studyId}/subjects/${subject.id}/overview`)
      ).json();
      expect(failed.subject.status).toBe('screening_failure');
      await as('crc', 'PUT', url, {
        values: { eligible: 'Y' },
        version: 1,
        reasons: { eligible: 'Re-evaluated with the PI' },
      });
      const back = (await as('crc', 'GET', `/api/studies/${studyId}/subjects/${subject.id}/overview`)).json();
      expect(back.subject.status).toBe('screening');
      const changes = await database()
        .db.selectFrom('audit_events')
        .select(['before', 'after'])
        .where('subject_id', '=', subject.id)
        .where('event_type', '=', 'subject.status_changed')
        .orderBy('id')
        .execute();
      expect(changes.map((c) => [c.before, c.after])).toEqual([
        [{ status: 'screening' }, { status: 'screening_failure', cause: 'screeningFailure' }],
        [{ status: 'screening_failure' }, { status: 'screening', cause: 'no_rule_holds' }],
      ]);
    });

    it('leaves an intact audit chain behind', async () => {
      expect((await verifyAuditChain(database().db)).ok).toBe(true);
    });
  },
  { seed: 'demo' },
);
