import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { getFormLayout, type StudyDefinition } from '@cdms/study';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, demoStudyIds, type SignedIn, signIn } from '../../test/test-app.ts';
import { describeWithDatabase } from '../../test/test-database.ts';
import type { App } from '../http/types.ts';
import { DEMO_PASSWORD } from '../seed/demo-seed.ts';
import { signingMeaning } from '../signature-state/signature-data.ts';
import { currentStudyDefinition } from '../studies/study-definitions.ts';
import { loadCasebooks } from './load-casebooks.ts';

const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdms-casebook-'));
afterAll(() => {
  fs.rmSync(workDir, { recursive: true, force: true });
});

let fileNumber = 0;
/**
 * The PDF's text as poppler's pdftotext reads it: -layout keeps a table row on one line; -raw keeps
 * each cell's text in one piece even when a neighbouring cell wraps.
 */
function pdfText(pdf: Buffer, mode: '-layout' | '-raw' = '-layout'): string {
  fileNumber += 1;
  const file = path.join(workDir, `casebook-${fileNumber}.pdf`);
  fs.writeFileSync(file, pdf);
  if (process.env.CASEBOOK_KEEP_PDFS)
    fs.copyFileSync(file, path.join(process.env.CASEBOOK_KEEP_PDFS, path.basename(file)));
  const result = spawnSync('pdftotext', [mode, '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`pdftotext failed: ${result.stderr}`);
  return result.stdout;
}

/** Text without any white space: a long sentence may wrap anywhere on the page. */
const compact = (text: string) => text.replace(/\s+/g, '');

/**
 * The casebook PDF through the API (issue 16 item 4): a subject built through the domain commands —
 * saves with a reason for change, a repeating group, a query with an answer, SDV, a freeze, a
 * signature — printed and read back with pdftotext, in Korean and English; unsigned and invalidated
 * signatures; the site's ZIP; who may download what.
 */
describeWithDatabase(
  'casebook PDF',
  (database) => {
    let app: App;
    let studyId: number;
    let site1: number;
    let site2: number;
    let definition: StudyDefinition;
    const session: Record<string, SignedIn> = {};
    const subjects = {
      full: { id: 0, key: '' },
      unsigned: { id: 0, key: '' },
      invalidated: { id: 0, key: '' },
      otherSite: { id: 0, key: '' },
    };
    const as = (
      who: string,
      method: 'GET' | 'POST' | 'PUT',
      url: string,
      payload?: object,
      language = 'ko',
    ) =>
      app.inject({
        method,
        url,
        headers: { ...(session[who]?.headers ?? {}), 'accept-language': language },
        ...(payload ? { payload } : {}),
      });
    const formUrl = (subjectId: number, visit: string, form: string) =>
      `/api/studies/${studyId}/subjects/${subjectId}/forms/${visit}/${form}`;
    const casebookUrl = (subjectId: number, query = '') =>
      `/api/studies/${studyId}/subjects/${subjectId}/casebook.pdf${query}`;
    const label = (visit: string, form: string, item?: string) => {
      const layout = getFormLayout(definition, visit, form);
      if (!layout) throw new Error(`no form ${visit}.${form}`);
      return item === undefined
        ? layout.form.label
        : (layout.items.get(item)?.item.label ?? { ko: item, en: item });
    };

    async function newSubject(who: string, siteId: number, initials: string) {
      const created = await as(who, 'POST', `/api/studies/${studyId}/subjects`, {
        siteId,
        consentDate: '2025-03-03',
        initials,
      });
      expect(created.statusCode, created.body).toBe(201);
      return { id: created.json().id as number, key: created.json().subjectId as string };
    }

    async function save(
      who: string,
      subjectId: number,
      visit: string,
      form: string,
      values: object,
      reasons = {},
    ) {
      const current = (await as(who, 'GET', formUrl(subjectId, visit, form))).json();
      const saved = await as(who, 'PUT', formUrl(subjectId, visit, form), {
        values: { ...current.values, ...values },
        version: current.version,
        reasons,
      });
      expect(saved.statusCode, saved.body).toBe(200);
    }

    async function download(who: string, url: string, language = 'ko') {
      const response = await as(who, 'GET', url, undefined, language);
      expect(response.statusCode, response.body).toBe(200);
      return response;
    }

    beforeAll(async () => {
      const db = database().db;
      app = await buildTestApp(database());
      await app.ready();
      const demo = await demoStudyIds(db);
      studyId = demo.studyId;
      site1 = demo.siteId('01');
      site2 = demo.siteId('02');
      definition = (await currentStudyDefinition(db, studyId))?.definition as StudyDefinition;
      for (const who of ['pi', 'si', 'crc', 'cra', 'dm', 'admin'])
        session[who] = await signIn(app, `${who}@demo.cdms`);

      subjects.full = await newSubject('si', site1, 'CBK');
      const id = subjects.full.id;
      await save('si', id, 'v1', 'demographicInfo', { birthDate: '1980-05-06', gender: 'F' });
      await save('si', id, 'v1', 'vitalSigns', {
        bloodPressureSystolic: 120,
        bloodPressureDiastolic: 80,
        heartRate: 70,
      });
      await save('si', id, 'v1', 'medicalHistory', {
        histories: [
          { content: '고혈압', startDate: '2020-01-01', ongoing: true },
          { content: 'Otitis media', startDate: '2019-02-02' },
        ],
      });
      await save('si', id, 'v1', 'vitalSigns', { heartRate: 72 }, { heartRate: '원자료 전사 오류 정정' });
      await save('si', id, 'v2', 'inclusionExclusionEval', { eligible: 'Y' });
      const raised = await as('cra', 'POST', `/api/studies/${studyId}/queries`, {
        subjectPk: id,
        visitKey: 'v1',
        formKey: 'demographicInfo',
        itemPath: 'v1.demographicInfo.gender',
        text: '성별을 원자료와 대조해 주십시오.',
      });
      expect(raised.statusCode, raised.body).toBe(201);
      const answered = await as('si', 'POST', `/api/studies/${studyId}/queries/${raised.json().id}/answer`, {
        text: '진료기록 확인: 여성이 맞습니다.',
      });
      expect(answered.statusCode, answered.body).toBe(200);
      const verified = await as('cra', 'POST', `/api/studies/${studyId}/sdv/verify-form`, {
        subjectPk: id,
        visitKey: 'v1',
        formKey: 'vitalSigns',
      });
      expect(verified.statusCode, verified.body).toBe(200);
      const signed = await as('pi', 'POST', `/api/studies/${studyId}/subjects/${id}/signature`, {
        password: DEMO_PASSWORD,
      });
      expect(signed.statusCode, signed.body).toBe(201);
      const frozen = await as('cra', 'POST', `/api/studies/${studyId}/holds`, {
        kind: 'frozen',
        target: { level: 'form', subjectPk: id, visitKey: 'v1', formKey: 'vitalSigns' },
        reason: 'SDV 완료',
      });
      expect(frozen.statusCode, frozen.body).toBe(201);

      subjects.unsigned = await newSubject('si', site1, 'UNS');
      await save('si', subjects.unsigned.id, 'v1', 'demographicInfo', {
        birthDate: '1991-01-01',
        gender: 'M',
      });
      // The audiogram (issue 19 item 3): the treated ear is the left, so its marks are X and >.
      await save('si', subjects.unsigned.id, 'v1', 'diseaseBasicInfo', { applicationSite: 'L' });
      await save('si', subjects.unsigned.id, 'v1', 'ptaTest', {
        air500: 35,
        air1000: 40,
        air2000: 45,
        air4000: 55,
        bone500: 10,
        bone1000: 15,
        bone2000: 20,
        bone4000: 25,
      });
      // Issue 19: an unscheduled visit between V1 and V2 by date, with vital signs.
      await save('si', subjects.unsigned.id, 'v1', 'visitDay', { visitDate: '2025-03-05' });
      await save('si', subjects.unsigned.id, 'v2', 'visitDay', { visitDate: '2025-03-12' });
      const unscheduled = await as(
        'si',
        'POST',
        `/api/studies/${studyId}/subjects/${subjects.unsigned.id}/unscheduled-visits`,
        { visitDate: '2025-03-08', reason: '이통으로 내방' },
      );
      expect(unscheduled.statusCode, unscheduled.body).toBe(201);
      await save('si', subjects.unsigned.id, 'unscheduled-1', 'vitalSigns', { heartRate: 88 });

      subjects.invalidated = await newSubject('si', site1, 'INV');
      await save('si', subjects.invalidated.id, 'v1', 'demographicInfo', {
        birthDate: '1975-01-02',
        gender: 'F',
      });
      const signedToo = await as(
        'pi',
        'POST',
        `/api/studies/${studyId}/subjects/${subjects.invalidated.id}/signature`,
        {
          password: DEMO_PASSWORD,
        },
      );
      expect(signedToo.statusCode, signedToo.body).toBe(201);
      await save(
        'si',
        subjects.invalidated.id,
        'v1',
        'demographicInfo',
        { gender: 'M' },
        { gender: 'Wrong box ticked' },
      );

      subjects.otherSite = await newSubject('crc', site2, 'OTH');
      await save('crc', subjects.otherSite.id, 'v1', 'demographicInfo', {
        birthDate: '1990-09-09',
        gender: 'F',
      });
    }, 180_000);

    afterAll(async () => {
      await app.close();
    });

    it('prints the subject in Korean: labels, values with units and codes, rows, query thread, SDV, freeze, signature, page numbers', async () => {
      const response = await download('pi', casebookUrl(subjects.full.id));
      expect(response.headers['content-type']).toBe('application/pdf');
      expect(response.headers['content-disposition']).toContain('.pdf');
      const pdf = response.rawPayload;
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      const text = pdfText(pdf);
      const flat = compact(text);

      expect(text).toContain(subjects.full.key);
      expect(flat).toContain(compact(label('v1', 'demographicInfo').ko));
      expect(flat).toContain(compact(label('v1', 'vitalSigns').ko));
      // A value with its unit on the item's row, and the corrected value rather than the first one.
      const systolic = text
        .split('\n')
        .find((line) => line.includes(label('v1', 'vitalSigns', 'bloodPressureSystolic').ko));
      expect(systolic).toMatch(/120\s+mmHg/);
      const pulse = text.split('\n').find((line) => line.includes(label('v1', 'vitalSigns', 'heartRate').ko));
      expect(pulse).toMatch(/72\s+bpm/);
      expect(pulse).not.toMatch(/\b70\b/);
      // A code with its label in the reader's language.
      expect(text).toMatch(/여성?\s*\(F\)|여\s*\(F\)/);
      // The repeating group's rows.
      expect(text).toContain('고혈압');
      expect(text).toContain('Otitis media');
      // The query and its thread.
      expect(flat).toContain(compact('성별을 원자료와 대조해 주십시오.'));
      expect(flat).toContain(compact('진료기록 확인: 여성이 맞습니다.'));
      expect(text).toContain('답변됨');
      // SDV and the form's freeze.
      expect(text).toContain('확인됨');
      expect(text).toContain('프리징');
      // Derived values are marked when the subject has any.
      const derived = await database()
        .db.selectFrom('item_values')
        .innerJoin('form_instances', 'form_instances.id', 'item_values.form_instance_id')
        .select('item_values.item_key')
        .where('form_instances.subject_id', '=', subjects.full.id)
        .where('item_values.derived', '=', true)
        .where('form_instances.has_data', '=', true)
        .execute();
      if (derived.length > 0) expect(text).toContain('[자동 계산]');
      // The §11.50 manifestation: printed name, date and time, meaning.
      const pi = await database()
        .db.selectFrom('users')
        .select('name')
        .where('email', '=', 'pi@demo.cdms')
        .executeTakeFirstOrThrow();
      expect(text).toContain('시험책임자 서명 (21 CFR §11.50)');
      expect(text).toContain(pi.name);
      expect(text).toMatch(/서명 일시\s+\d{4}-\d{2}-\d{2} \d{2}:\d{2} KST/);
      expect(flat).toContain(compact(signingMeaning(definition).ko));
      expect(text).not.toContain('서명되지 않음');
      // "page n of m" on every page, m the same everywhere.
      const pages = [...text.matchAll(/(\d+) \/ (\d+) 페이지/g)];
      const total = Number(pages[0]?.[2]);
      expect(total).toBeGreaterThan(2);
      expect(pages.map((match) => Number(match[1]))).toEqual(
        Array.from({ length: total }, (_, index) => index + 1),
      );
      expect(pages.every((match) => Number(match[2]) === total)).toBe(true);
      // Not the audit trail unless asked for.
      expect(text).not.toContain('원자료 전사 오류 정정');

      // The font is embedded (subset), not substituted.
      const fonts = spawnSync('pdffonts', [path.join(workDir, `casebook-${fileNumber}.pdf`)], {
        encoding: 'utf8',
      });
      expect(fonts.stdout).toMatch(/NotoSansKR-Regular\s+CID TrueType\s+Identity-H\s+yes\s+yes/);
    });

    it('prints English when asked, the audit trail with reasons, and audits the download', async () => {
      const response = await download('cra', casebookUrl(subjects.full.id, '?lang=en&audit=1'));
      const text = pdfText(response.rawPayload);
      const flat = compact(text);
      expect(flat).toContain(compact(label('v1', 'vitalSigns').en));
      expect(text).toContain('Casebook');
      expect(text).toMatch(/Page 1 of \d+/);
      expect(text).toContain('Audit trail');
      expect(compact(pdfText(response.rawPayload, '-raw'))).toContain(compact('원자료 전사 오류 정정'));
      expect(text).toMatch(/70\s+→\s+72/);
      expect(text).toContain("Investigator's signature (21 CFR §11.50)");
      expect(flat).toContain(compact(signingMeaning(definition).en));

      const record = await database()
        .db.selectFrom('audit_events')
        .select(['after', 'subject_id', 'actor_label'])
        .where('event_type', '=', 'casebook.exported')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      expect(record.subject_id).toBe(subjects.full.id);
      expect(record.actor_label).toBe('cra@demo.cdms');
      expect(record.after).toMatchObject({ scope: 'subject', language: 'en', withAudit: true, subjects: 1 });
    });

    it('takes the language from Accept-Language when lang is absent', async () => {
      const text = pdfText((await download('pi', casebookUrl(subjects.full.id), 'en')).rawPayload);
      expect(text).toMatch(/Page 1 of \d+/);
    });

    it('prints an unscheduled visit among the scheduled ones by its date, with its reason', async () => {
      const text = compact(pdfText((await download('si', casebookUrl(subjects.unsigned.id))).rawPayload));
      const v1 = text.indexOf(compact(definition.visits.find((v) => v.key === 'v1')?.label.ko ?? 'v1'));
      const extra = text.indexOf(compact('비정기 방문 1 · 2025-03-08'));
      const v2 = text.indexOf(compact(definition.visits.find((v) => v.key === 'v2')?.label.ko ?? 'v2'));
      expect(v1).toBeGreaterThan(-1);
      expect(extra).toBeGreaterThan(v1);
      expect(v2).toBeGreaterThan(extra);
      expect(text).toContain(compact('비정기 방문 사유: 이통으로 내방'));
    });

    it('says "not signed" for an unsigned subject and gives the invalidation for a changed one', async () => {
      const unsigned = pdfText(
        (await download('pi', casebookUrl(subjects.unsigned.id, '?lang=en'))).rawPayload,
      );
      expect(unsigned).toContain('Not signed');
      const unsignedKo = pdfText(
        (await download('pi', casebookUrl(subjects.unsigned.id, '?lang=ko'))).rawPayload,
      );
      expect(unsignedKo).toContain('서명되지 않음');

      const invalidated = compact(
        pdfText((await download('pi', casebookUrl(subjects.invalidated.id, '?lang=en'))).rawPayload),
      );
      const signature = await database()
        .db.selectFrom('signatures')
        .select(['invalidated_reason'])
        .where('subject_id', '=', subjects.invalidated.id)
        .executeTakeFirstOrThrow();
      expect(signature.invalidated_reason).toBeTruthy();
      expect(invalidated).toContain(compact('Signature invalidated on'));
      expect(invalidated).toContain(compact(signature.invalidated_reason ?? ''));
    });

    it("draws the PTA form as an audiogram in the treated ear's symbols, and none without thresholds", async () => {
      const withPta = pdfText((await download('pi', casebookUrl(subjects.unsigned.id))).rawPayload, '-raw');
      const figure = withPta.slice(withPta.indexOf('청력도'));
      expect(withPta).toContain('청력도');
      expect(compact(figure)).toContain(compact('청력 역치 (dB HL)'));
      expect(figure).toContain('시험 귀: 좌측');
      // Four air marks and four bone marks, the left ear's: X joined by a line, and >.
      // Each mark is a piece of text of its own (the legend is one line: "X 기도 > 골도 …").
      const marks = (figure.split('시험 귀')[0] ?? '').split('\n').map((line) => line.trim());
      expect(marks.filter((line) => line === 'X')).toHaveLength(4);
      expect(marks.filter((line) => line === '>')).toHaveLength(4);
      expect(marks.filter((line) => line === 'O' || line === '<')).toHaveLength(0);
      const english = pdfText(
        (await download('pi', casebookUrl(subjects.unsigned.id, '?lang=en'))).rawPayload,
      );
      expect(english).toContain('Hearing level (dB HL)');
      expect(english).toContain('Study ear: left');
      // The full subject has no PTA thresholds: no figure.
      expect(pdfText((await download('pi', casebookUrl(subjects.full.id))).rawPayload)).not.toContain(
        '청력도',
      );
    });

    it('zips one PDF per subject of the site, and only that site', async () => {
      const response = await download('dm', `/api/studies/${studyId}/sites/${site1}/casebooks.zip?lang=en`);
      expect(response.headers['content-type']).toBe('application/zip');
      const entries = unzipSync(new Uint8Array(response.rawPayload));
      const siteSubjects = await database()
        .db.selectFrom('subjects')
        .select('screening_number')
        .where('site_id', '=', site1)
        .where('deleted_at', 'is', null)
        .execute();
      const names = Object.keys(entries).sort();
      expect(names).toHaveLength(siteSubjects.length);
      for (const subject of siteSubjects)
        expect(
          names.some((name) =>
            name.endsWith(`-${subject.screening_number.replace(/[^A-Za-z0-9_-]+/g, '_')}.pdf`),
          ),
        ).toBe(true);
      expect(
        names.some((name) => name.includes(subjects.otherSite.key.replace(/[^A-Za-z0-9_-]+/g, '_'))),
      ).toBe(false);
      const one = names.find((name) => name.includes(subjects.full.key.replace(/[^A-Za-z0-9_-]+/g, '_')));
      const text = pdfText(Buffer.from(entries[one ?? ''] ?? new Uint8Array()));
      expect(text).toContain(subjects.full.key);
      expect(text).toMatch(/Page 1 of \d+/);

      const record = await database()
        .db.selectFrom('audit_events')
        .select(['after', 'site_id'])
        .where('event_type', '=', 'casebook.exported')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      expect(record.site_id).toBe(site1);
      expect(record.after).toMatchObject({ scope: 'site', subjects: siteSubjects.length });
    });

    it("reads a site's subjects batch after batch (keyset on the id), each once, with their own data", async () => {
      const db = database().db;
      const seen: number[] = [];
      let afterSubjectId = 0;
      for (;;) {
        const batch = await loadCasebooks(db, {
          studyId,
          siteId: site1,
          afterSubjectId,
          limit: 2,
          audit: true,
        });
        if (batch.length === 0) break;
        seen.push(...batch.map((subject) => subject.id));
        for (const subject of batch) {
          expect(subject.siteId).toBe(site1);
          for (const entry of subject.audit) expect(entry.path).toMatch(/^[\w-]+\.\w+\./);
        }
        afterSubjectId = batch[batch.length - 1]?.id ?? afterSubjectId;
      }
      const expected = await db
        .selectFrom('subjects')
        .select('id')
        .where('site_id', '=', site1)
        .where('deleted_at', 'is', null)
        .orderBy('id')
        .execute();
      expect(seen).toEqual(expected.map((row) => row.id));
      const [full] = await loadCasebooks(db, { studyId, subjectIds: [subjects.full.id], audit: false });
      expect(full?.audit).toEqual([]);
      expect(full?.queries.map(({ messages }) => messages.map((message) => message.kind))).toEqual([
        ['opened', 'answer'],
      ]);
      expect(full?.holds).toEqual([
        expect.objectContaining({ kind: 'frozen', level: 'form', formKey: 'vitalSigns' }),
      ]);
    });

    it('keeps other sites out and answers bad input with a 4xx JSON in the user language, writing nothing', async () => {
      const count = async () =>
        Number(
          (
            await database()
              .db.selectFrom('audit_events')
              .select((eb) => eb.fn.countAll<string>().as('count'))
              .where('event_type', '=', 'casebook.exported')
              .executeTakeFirstOrThrow()
          ).count,
        );
      const before = await count();
      expect((await as('crc', 'GET', casebookUrl(subjects.full.id))).statusCode).toBe(404);
      expect((await as('si', 'GET', casebookUrl(subjects.otherSite.id))).statusCode).toBe(404);
      expect((await app.inject({ method: 'GET', url: casebookUrl(subjects.full.id) })).statusCode).toBe(401);
      expect(
        (await as('cra', 'GET', `/api/studies/${studyId}/sites/${site1}/casebooks.zip`)).statusCode,
      ).toBe(403);
      expect((await as('pi', 'GET', `/api/studies/${studyId}/sites/${site1}/casebooks.zip`)).statusCode).toBe(
        403,
      );
      expect((await as('dm', 'GET', `/api/studies/${studyId}/sites/999999/casebooks.zip`)).statusCode).toBe(
        404,
      );
      const badLang = await as('pi', 'GET', casebookUrl(subjects.full.id, '?lang=fr'), undefined, 'en');
      expect(badLang.statusCode).toBe(400);
      expect(badLang.headers['content-type']).toContain('application/json');
      const badAudit = await as('pi', 'GET', casebookUrl(subjects.full.id, '?audit=yes'), undefined, 'ko');
      expect(badAudit.statusCode).toBe(400);
      expect(badAudit.json().error.message).toMatch(/[가-힣]/);
      expect((await as('pi', 'GET', `/api/studies/${studyId}/subjects/0x10/casebook.pdf`)).statusCode).toBe(
        400,
      );
      expect(await count()).toBe(before);
    });
  },
  { seed: 'demo' },
);
