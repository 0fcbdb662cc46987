import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, demoStudyIds, type SignedIn, signIn } from '../../test/test-app.ts';
import { describeWithDatabase } from '../../test/test-database.ts';
import { systemActor } from '../audit/audit-events.ts';
import type { App } from '../http/types.ts';
import { generateRandomizationLists } from '../randomization/randomization.ts';
import { DEMO_PASSWORD } from '../seed/demo-seed.ts';

describeWithDatabase(
  'eTraining',
  (database) => {
    let app: App;
    let studyId: number;
    let site1: number;
    const session: Record<string, SignedIn> = {};
    const as = (who: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
      app.inject({
        method,
        url,
        headers: { ...(session[who]?.headers ?? {}), 'accept-language': 'en' },
        ...(payload ? { payload } : {}),
      });
    const base = () => `/api/studies/${studyId}/training`;
    const quiz = {
      passMark: 60,
      questions: [
        { text: 'Change a saved value with?', options: ['a reason', 'nothing'], answer: 0 },
        { text: 'Source of a value?', options: ['memory', 'the source document', 'a guess'], answer: 1 },
      ],
    };
    const module = (overrides: Record<string, unknown> = {}) => ({
      title: 'eCRF entry',
      contentHtml: '<p>Enter what the source says.</p><script>alert(1)</script>',
      roles: ['PI', 'SI', 'CRC'],
      quiz,
      state: 'published',
      ...overrides,
    });

    beforeAll(async () => {
      const db = database().db;
      app = await buildTestApp(database());
      await app.ready();
      for (const who of ['pi', 'si', 'crc', 'cra', 'dm', 'admin'])
        session[who] = await signIn(app, `${who}@demo.cdms`);
      const demo = await demoStudyIds(db);
      studyId = demo.studyId;
      site1 = demo.siteId('01');
    });
    afterAll(async () => {
      await app.close();
    });

    describe('modules', () => {
      it('are written by DM and ADMIN only, sanitized and audited; a right answer must be an option', async () => {
        expect((await as('pi', 'POST', `${base()}/modules`, module())).statusCode).toBe(403);
        expect((await as('cra', 'POST', `${base()}/modules`, module())).statusCode).toBe(403);
        const bad = await as(
          'dm',
          'POST',
          `${base()}/modules`,
          module({ quiz: { ...quiz, questions: [{ text: 'q', options: ['a', 'b'], answer: 3 }] } }),
        );
        expect(bad.statusCode, bad.body).toBe(422);
        expect(bad.json().error.code).toBe('training_quiz_invalid');
        const blank = await as(
          'dm',
          'POST',
          `${base()}/modules`,
          module({ contentHtml: '<script>x</script>' }),
        );
        expect(blank.json().error.code).toBe('content_required');
        const created = await as('dm', 'POST', `${base()}/modules`, module({ state: 'draft' }));
        expect(created.statusCode, created.body).toBe(201);
        expect(created.json().contentHtml).not.toContain('<script');
        expect(created.json().editableQuiz).toEqual(quiz);
        const audit = await database()
          .db.selectFrom('audit_events')
          .select('event_type as type')
          .where('entity_type', '=', 'training_module')
          .where('entity_id', '=', String(created.json().id))
          .execute();
        expect(audit.map((row) => row.type)).toEqual(['training_module.created']);
        // A draft is not shown to the site staff, and cannot be completed.
        expect((await as('pi', 'GET', `${base()}/modules/${created.json().id}`)).statusCode).toBe(404);
        const list = await as('pi', 'GET', base());
        expect(list.json().modules.map((m: { id: number }) => m.id)).not.toContain(created.json().id);
      });

      it('never sends the right answers to a taker; the server checks the quiz; passing completes it (audited)', async () => {
        const created = (
          await as('dm', 'POST', `${base()}/modules`, module({ title: 'Quiz module' }))
        ).json();
        const read = await as('si', 'GET', `${base()}/modules/${created.id}`);
        expect(read.statusCode).toBe(200);
        expect(read.json().editableQuiz).toBeNull();
        expect(JSON.stringify(read.json().quiz)).not.toContain('answer');
        expect((await as('si', 'POST', `${base()}/modules/${created.id}/complete`)).json().error.code).toBe(
          'training_quiz_required',
        );
        const wrongCount = await as('si', 'POST', `${base()}/modules/${created.id}/quiz`, { answers: [0] });
        expect(wrongCount.json().error.code).toBe('training_quiz_answers');
        const failed = await as('si', 'POST', `${base()}/modules/${created.id}/quiz`, { answers: [1, 0] });
        expect(failed.statusCode, failed.body).toBe(200);
        expect(failed.json()).toMatchObject({ passed: false, score: 0, completedAt: null });
        expect(failed.json().results).toEqual([
          { correct: false, answer: 0 },
          { correct: false, answer: 1 },
        ]);
        const passed = await as('si', 'POST', `${base()}/modules/${created.id}/quiz`, { answers: [0, 2] });
        expect(passed.json()).toMatchObject({ passed: false, score: 50 });
        const full = await as('si', 'POST', `${base()}/modules/${created.id}/quiz`, { answers: [0, 1] });
        expect(full.json()).toMatchObject({ passed: true, score: 100, version: 1 });
        const mine = (await as('si', 'GET', base()))
          .json()
          .modules.find((m: { id: number }) => m.id === created.id);
        expect(mine).toMatchObject({ myStatus: 'completed', completedVersion: 1, required: true });
        const audit = await database()
          .db.selectFrom('audit_events')
          .select('event_type as type')
          .where('entity_type', '=', 'training_module')
          .where('entity_id', '=', String(created.id))
          .orderBy('id')
          .execute();
        expect(audit.map((row) => row.type)).toEqual([
          'training_module.created',
          'training.quiz_failed',
          'training.quiz_failed',
          'training.completed',
        ]);
      });

      it('bumps the version when a published module’s content changes, so older completions are outdated', async () => {
        const created = (
          await as('dm', 'POST', `${base()}/modules`, module({ title: 'Versioned', quiz: null }))
        ).json();
        expect((await as('pi', 'POST', `${base()}/modules/${created.id}/complete`)).statusCode).toBe(200);
        const rolesOnly = await as(
          'dm',
          'PUT',
          `${base()}/modules/${created.id}`,
          module({ title: 'Versioned', quiz: null, roles: ['PI', 'SI', 'CRC', 'CRA'] }),
        );
        expect(rolesOnly.json().version).toBe(1);
        const changed = await as(
          'admin',
          'PUT',
          `${base()}/modules/${created.id}`,
          module({ title: 'Versioned', quiz: null, contentHtml: '<p>New rule.</p>' }),
        );
        expect(changed.statusCode, changed.body).toBe(200);
        expect(changed.json().version).toBe(2);
        const mine = (await as('pi', 'GET', base()))
          .json()
          .modules.find((m: { id: number }) => m.id === created.id);
        expect(mine).toMatchObject({ myStatus: 'outdated', completedVersion: 1, version: 2 });
        expect((await as('pi', 'GET', `${base()}/modules/${created.id}/certificate.pdf`)).statusCode).toBe(
          409,
        );
      });

      it('holds files from the attachment store: members download them (audited), a change is a new version', async () => {
        const pdf = Buffer.from('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');
        const boundary = '----cdms-training-boundary';
        const upload = (who: string) =>
          app.inject({
            method: 'POST',
            url: `/api/studies/${studyId}/attachments`,
            payload: Buffer.concat([
              Buffer.from(
                `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="handout.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
              ),
              pdf,
              Buffer.from(`\r\n--${boundary}--\r\n`),
            ]),
            headers: {
              ...(session[who]?.headers ?? {}),
              'content-type': `multipart/form-data; boundary=${boundary}`,
            },
          });
        const uploaded = await upload('dm');
        expect(uploaded.statusCode, uploaded.body).toBe(201);
        const fileId = uploaded.json().id as string;
        const created = await as(
          'dm',
          'POST',
          `${base()}/modules`,
          module({ title: 'With a handout', attachmentIds: [fileId] }),
        );
        expect(created.statusCode, created.body).toBe(201);
        const detail = created.json();
        expect(detail.attachments).toEqual([
          expect.objectContaining({ id: fileId, fileName: 'handout.pdf' }),
        ]);
        // A required reader sees it and downloads the same bytes, audited.
        const read = await as('crc', 'GET', `${base()}/modules/${detail.id}`);
        expect(read.json().attachments.map((file: { id: string }) => file.id)).toEqual([fileId]);
        const download = await as('crc', 'GET', `/api/studies/${studyId}/attachments/${fileId}`);
        expect(download.statusCode).toBe(200);
        expect(download.rawPayload.equals(pdf)).toBe(true);
        // Someone else's upload cannot be taken: 422, nothing changes.
        const others = (await upload('admin')).json().id as string;
        const refused = await as(
          'dm',
          'PUT',
          `${base()}/modules/${detail.id}`,
          module({ title: 'With a handout', attachmentIds: [fileId, others] }),
        );
        expect(refused.statusCode).toBe(422);
        // Taking the file off a published module is a change of content: a new version.
        const changed = await as(
          'dm',
          'PUT',
          `${base()}/modules/${detail.id}`,
          module({ title: 'With a handout', attachmentIds: [] }),
        );
        expect(changed.statusCode, changed.body).toBe(200);
        expect(changed.json()).toMatchObject({ version: detail.version + 1, attachments: [] });
        // Retired for the tests below (it is required for the site roles).
        await as(
          'dm',
          'PUT',
          `${base()}/modules/${detail.id}`,
          module({ title: 'With a handout', state: 'draft' }),
        );
      });

      it('gives a certificate PDF with the Korean font, the name, module, version and time in UTC+9', async () => {
        const created = (
          await as(
            'dm',
            'POST',
            `${base()}/modules`,
            module({ title: '모니터링 교육', roles: ['CRA'], quiz: null }),
          )
        ).json();
        const done = await as('cra', 'POST', `${base()}/modules/${created.id}/complete`);
        const response = await as('cra', 'GET', `${base()}/modules/${created.id}/certificate.pdf?lang=ko`);
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-type']).toBe('application/pdf');
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cert-'));
        const file = path.join(dir, 'c.pdf');
        fs.writeFileSync(file, response.rawPayload);
        const text = execFileSync('pdftotext', [file, '-']).toString();
        const fonts = execFileSync('pdffonts', [file]).toString();
        fs.rmSync(dir, { recursive: true });
        expect(fonts).toContain('NotoSansKR');
        expect(text).toContain('교육 이수증');
        expect(text).toContain('최모니');
        expect(text).toContain('모니터링 교육');
        expect(text).toContain('v1');
        const kst = new Date(new Date(done.json().completedAt).getTime() + 9 * 3600_000).toISOString();
        expect(text).toContain(`${kst.slice(0, 10)} ${kst.slice(11, 16)} KST`);
        // Someone else's certificate does not exist for them: a DM who did not complete it gets 409.
        expect((await as('dm', 'GET', `${base()}/modules/${created.id}/certificate.pdf`)).statusCode).toBe(
          409,
        );
      });
    });

    describe('a person’s training record', () => {
      const pdfText = (payload: Buffer) => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'record-'));
        const file = path.join(dir, 'r.pdf');
        fs.writeFileSync(file, payload);
        const text = execFileSync('pdftotext', [file, '-']).toString();
        fs.rmSync(dir, { recursive: true });
        return text;
      };

      it('lists every module completed at its current version, for the person and for DM/ADMIN only', async () => {
        const own = await as('cra', 'GET', `${base()}/certificate.pdf?lang=en`);
        expect(own.statusCode, own.body.slice(0, 200)).toBe(200);
        expect(own.headers['content-type']).toBe('application/pdf');
        const text = pdfText(own.rawPayload);
        expect(text).toContain('Training record');
        expect(text).toContain('최모니');
        expect(text).toContain('모니터링 교육');
        expect(text).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2} KST/);
        const cra = (await as('cra', 'GET', '/api/auth/me')).json().user.id as number;
        const forManager = await as('dm', 'GET', `${base()}/members/${cra}/certificate.pdf?lang=ko`);
        expect(forManager.statusCode).toBe(200);
        expect(pdfText(forManager.rawPayload)).toContain('교육 이수 증명서');
        // Someone else's record is the managers' alone; nobody's outside the study; nothing completed: 409.
        expect((await as('pi', 'GET', `${base()}/members/${cra}/certificate.pdf`)).statusCode).toBe(403);
        expect((await as('dm', 'GET', `${base()}/members/999999/certificate.pdf`)).statusCode).toBe(404);
        expect((await as('dm', 'GET', `${base()}/certificate.pdf`)).statusCode).toBe(409);
        const audit = await database()
          .db.selectFrom('audit_events')
          .select(['entity_id', 'after'])
          .where('event_type', '=', 'training.record_exported')
          .orderBy('id')
          .execute();
        expect(audit.map((row) => row.entity_id)).toEqual([String(cra), String(cra)]);
      });
    });

    describe('completion matrix', () => {
      it('shows each member’s standing per published module, for DM and ADMIN only, filtered and paged in SQL', async () => {
        expect((await as('pi', 'GET', `${base()}/matrix`)).statusCode).toBe(403);
        const all = await as('dm', 'GET', `${base()}/matrix?size=50`);
        expect(all.statusCode, all.body).toBe(200);
        const matrix = all.json();
        const siRow = matrix.rows.find((row: { name: string }) => row.name === '이부연');
        const quizModule = matrix.modules.findIndex((m: { title: string }) => m.title === 'Quiz module');
        expect(siRow.cells[quizModule]).toMatchObject({ status: 'completed', version: 1 });
        const craRow = matrix.rows.find((row: { name: string }) => row.name === '최모니');
        expect(craRow.cells[quizModule].status).toBeNull();
        const outdated = await as('dm', 'GET', `${base()}/matrix?status=outdated`);
        expect(outdated.json().rows.map((row: { name: string }) => row.name)).toEqual(['김연구']);
        const paged = await as(
          'dm',
          'GET',
          `${base()}/matrix?size=10&page=1&search=${encodeURIComponent('코디')}`,
        );
        expect(paged.json().total).toBe(2);
        const csv = await as('admin', 'GET', `${base()}/matrix/download?status=outdated`);
        expect(csv.statusCode).toBe(200);
        expect(csv.body).toContain('김연구');
        expect(csv.body).toContain('Outdated');
      });
    });

    describe('the data-entry gate', () => {
      let subjectId: number;
      let eligibleId: number;
      let gateModule: number;
      const openQuery = async () => {
        const created = await as('cra', 'POST', `/api/studies/${studyId}/queries`, {
          subjectPk: subjectId,
          visitKey: 'v1',
          formKey: 'vitalSigns',
          itemPath: 'v1.vitalSigns.heartRate',
          text: 'please check',
        });
        expect(created.statusCode, created.body).toBe(201);
        return created.json().id as number;
      };
      const newSubject = async (initials: string) => {
        const created = await as('pi', 'POST', `/api/studies/${studyId}/subjects`, {
          siteId: site1,
          consentDate: '2025-03-03',
          initials,
        });
        expect(created.statusCode, created.body).toBe(201);
        return created.json().id as number;
      };

      // Every write to subject data a site user makes, with the role that may make it.
      const writes: {
        name: string;
        who: string;
        call: () => Promise<{ url: string; method: 'POST' | 'PUT' | 'DELETE'; body?: object }>;
      }[] = [
        {
          name: 'create subject',
          who: 'si',
          call: async () => ({
            method: 'POST',
            url: `/api/studies/${studyId}/subjects`,
            body: { siteId: site1, consentDate: '2025-03-03', initials: 'GAT' },
          }),
        },
        {
          name: 'save form',
          who: 'si',
          call: async () => ({
            method: 'PUT',
            url: `/api/studies/${studyId}/subjects/${subjectId}/forms/v1/vitalSigns`,
            body: { values: { heartRate: 70 }, version: 0 },
          }),
        },
        {
          name: 'reset form',
          who: 'pi',
          call: async () => ({
            method: 'POST',
            url: `/api/studies/${studyId}/subjects/${subjectId}/forms/v1/demographicInfo/reset`,
            body: { version: 0, reason: 'gate' },
          }),
        },
        {
          name: 'comment on a form',
          who: 'si',
          call: async () => ({
            method: 'POST',
            url: `/api/studies/${studyId}/subjects/${subjectId}/forms/v1/demographicInfo/comments`,
            body: { sectionKey: 'demographics', text: 'gate' },
          }),
        },
        {
          name: 'randomize',
          who: 'pi',
          call: async () => ({
            method: 'POST',
            url: `/api/studies/${studyId}/subjects/${eligibleId}/randomize`,
          }),
        },
        {
          name: 'sign the casebook',
          who: 'pi',
          call: async () => ({
            method: 'POST',
            url: `/api/studies/${studyId}/subjects/${subjectId}/signature`,
            body: { password: DEMO_PASSWORD },
          }),
        },
        {
          name: 'answer a query',
          who: 'si',
          call: async () => ({
            method: 'POST',
            url: `/api/studies/${studyId}/queries/${await openQuery()}/answer`,
            body: { text: 'checked' },
          }),
        },
        {
          name: 'comment on a query as the site',
          who: 'si',
          call: async () => ({
            method: 'POST',
            url: `/api/studies/${studyId}/queries/${await openQuery()}/comment`,
            body: { text: 'site note' },
          }),
        },
        {
          name: 'delete a subject',
          who: 'pi',
          call: async () => ({
            method: 'DELETE',
            url: `/api/studies/${studyId}/subjects/${await newSubjectWhileOpen()}`,
            body: { reason: 'registered in error' },
          }),
        },
      ];
      let newSubjectWhileOpen: () => Promise<number>;

      beforeAll(async () => {
        const db = database().db;
        await generateRandomizationLists(db, systemActor('test'), studyId, {
          perSite: 20,
          seed: 'gate',
          siteIds: [site1],
        });
        subjectId = await newSubject('GTE');
        eligibleId = await newSubject('ELG');
        const eligible = await as(
          'pi',
          'PUT',
          `/api/studies/${studyId}/subjects/${eligibleId}/forms/v2/inclusionExclusionEval`,
          { values: { eligible: 'Y' }, version: 0 },
        );
        expect(eligible.statusCode, eligible.body).toBe(200);
        // Subjects to delete are registered before the gate closes (the gate refuses registering too).
        const spare = [await newSubject('DLA'), await newSubject('DLB')];
        newSubjectWhileOpen = async () => spare.shift() as number;
        const created = await as(
          'dm',
          'POST',
          `${base()}/modules`,
          module({ title: 'Gate module', quiz: null, roles: ['PI', 'SI'] }),
        );
        gateModule = created.json().id;
        expect((await as('pi', 'PUT', `${base()}/settings`, { gatesDataEntry: true })).statusCode).toBe(403);
        const on = await as('dm', 'PUT', `${base()}/settings`, { gatesDataEntry: true });
        expect(on.json()).toEqual({ gatesDataEntry: true });
      });

      it('refuses every site data write with 403 training_required and the training page’s path until trained', async () => {
        const refusals: string[] = [];
        for (const write of writes) {
          const request = await write.call();
          const response = await as(write.who, request.method, request.url, request.body);
          const body = response.json();
          if (response.statusCode !== 403 || body.error?.code !== 'training_required')
            refusals.push(`${write.name}: ${response.statusCode} ${response.body.slice(0, 160)}`);
          else expect(body.error.details.trainingPath).toBe(`/system-e-training/${studyId}`);
        }
        expect(refusals).toEqual([]);
        const korean = await app.inject({
          method: 'POST',
          url: `/api/studies/${studyId}/subjects`,
          headers: { ...(session.si?.headers ?? {}), 'accept-language': 'ko' },
          payload: { siteId: site1, consentDate: '2025-03-03', initials: 'KOR' },
        });
        expect(korean.json().error.message).toContain('교육');
      });

      it('lets monitoring and data management go on: they do not enter data', async () => {
        expect((await openQuery()) > 0).toBe(true);
        const list = await as('si', 'GET', base());
        expect(list.json()).toMatchObject({ gatesDataEntry: true, pendingRequired: 2 });
      });

      it('lets every write through once the required modules are completed at their current version', async () => {
        for (const who of ['pi', 'si']) {
          const modules = (await as(who, 'GET', base())).json().modules as {
            id: number;
            questionCount: number;
            required: boolean;
            myStatus: string;
          }[];
          for (const m of modules.filter((entry) => entry.required && entry.myStatus !== 'completed')) {
            const answer =
              m.questionCount > 0
                ? await as(who, 'POST', `${base()}/modules/${m.id}/quiz`, { answers: [0, 1] })
                : await as(who, 'POST', `${base()}/modules/${m.id}/complete`);
            expect(answer.statusCode, answer.body).toBe(200);
          }
        }
        const still: string[] = [];
        for (const write of writes) {
          const request = await write.call();
          const response = await as(write.who, request.method, request.url, request.body);
          if (response.statusCode >= 400)
            still.push(`${write.name}: ${response.statusCode} ${response.body.slice(0, 160)}`);
        }
        expect(still).toEqual([]);
      });

      it('closes again when a required module’s content changes, and opens when the setting is off', async () => {
        await as(
          'dm',
          'PUT',
          `${base()}/modules/${gateModule}`,
          module({ title: 'Gate module', quiz: null, roles: ['PI', 'SI'], contentHtml: '<p>v2</p>' }),
        );
        const refused = await as(
          'si',
          'PUT',
          `/api/studies/${studyId}/subjects/${subjectId}/forms/v1/vitalSigns`,
          { values: { heartRate: 70, bloodPressureSystolic: 120 }, version: 1 },
        );
        expect(refused.json().error?.code).toBe('training_required');
        await as('dm', 'PUT', `${base()}/settings`, { gatesDataEntry: false });
        const allowed = await as(
          'si',
          'PUT',
          `/api/studies/${studyId}/subjects/${subjectId}/forms/v1/vitalSigns`,
          { values: { heartRate: 70, bloodPressureSystolic: 120 }, version: 1 },
        );
        expect(allowed.statusCode, allowed.body).toBe(200);
        const audit = await database()
          .db.selectFrom('audit_events')
          .select(['event_type as type', 'after'])
          .where('event_type', '=', 'training.settings_changed')
          .orderBy('id')
          .execute();
        expect(audit.map((row) => row.after)).toEqual([{ gatesDataEntry: true }, { gatesDataEntry: false }]);
      });
    });
  },
  { seed: 'demo' },
);
