import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TM_PERFORATION_DOCUMENT } from '@cdms/study';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, type SignedIn, signIn } from '../../test/test-app.ts';
import { describeWithDatabase } from '../../test/test-database.ts';
import type { App } from '../http/types.ts';
import { definitionDocumentPath } from '../studies/read-definition-document.ts';

interface Item {
  key: string;
  type: string;
  label: { ko: string; en: string };
}
interface Document {
  version: string;
  forms: { key: string; label: { ko: string; en: string }; sections: { items: Item[] }[] }[];
}

/** TMP-2026's document as a designer would upload it. */
const firstVersion = () =>
  JSON.parse(fs.readFileSync(definitionDocumentPath(TM_PERFORATION_DOCUMENT), 'utf8')) as Document;

/**
 * The next version: its first form's first section gains an item, and the item before it is
 * relabelled in English — one added and one changed line.
 */
function secondVersion(): Document {
  const document = firstVersion();
  document.version = '1.1.0';
  const items = document.forms[0]?.sections[0]?.items as Item[];
  const first = items[0] as Item;
  first.label = { ...first.label, en: `${first.label.en} (revised)` };
  items.push({ key: 'versionNote', type: 'text', label: { ko: '버전 메모', en: 'Version note' } });
  return document;
}

const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdms-definition-comparison-'));
afterAll(() => {
  fs.rmSync(workDir, { recursive: true, force: true });
});

/** The PDF's text as poppler's pdftotext reads it, without white space (a line may wrap anywhere). */
function pdfText(pdf: Buffer): string {
  const file = path.join(workDir, `comparison-${Date.now()}-${Math.random()}.pdf`);
  fs.writeFileSync(file, pdf);
  const result = spawnSync('pdftotext', ['-raw', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`pdftotext failed: ${result.stderr}`);
  return result.stdout.replace(/\s+/g, '');
}

/**
 * The versions of a study's definition and the comparison of two (issue 48 item 7): the list with
 * hashes and counts, the lines as JSON in ko and en, the same as a PDF, and the refusals.
 */
describeWithDatabase(
  'study design: the versions of a definition compared, as JSON and as a PDF',
  (database) => {
    let app: App;
    let admin: SignedIn;
    let dm: SignedIn;
    let studyId: number;
    const form = firstVersion().forms[0] as Document['forms'][number];
    const firstItem = form.sections[0]?.items[0] as Item;

    const call = (
      who: SignedIn,
      method: 'GET' | 'POST' | 'PUT',
      url: string,
      payload?: unknown,
      language = 'en',
    ) =>
      app.inject({
        method,
        url,
        headers: { ...who.headers, 'accept-language': language },
        ...(payload === undefined ? {} : { payload: payload as object }),
      });

    beforeAll(async () => {
      app = await buildTestApp(database());
      await app.ready();
      admin = await signIn(app, 'admin@demo.cdms');
      const created = await call(admin, 'POST', '/api/admin/studies', {
        code: 'VER-2028',
        protocolNumber: 'CDMS-VER-01',
        titleKo: '버전 비교 연구',
        titleEn: 'Version comparison study',
        sponsor: '',
        kind: 'observational',
        content: '',
      });
      expect(created.statusCode).toBe(201);
      studyId = created.json().id;
      const users = (await call(admin, 'GET', '/api/admin/users')).json().users as {
        id: number;
        email: string;
      }[];
      const membership = await call(admin, 'POST', `/api/admin/studies/${studyId}/memberships`, {
        userId: users.find((user) => user.email === 'dm@demo.cdms')?.id,
        role: 'DM',
        siteIds: [],
      });
      expect(membership.statusCode).toBe(201);
      dm = await signIn(app, 'dm@demo.cdms');
    });
    afterAll(async () => {
      await app.close();
    });

    it('lists no version before the first upload, then every version oldest first with hash and counts', async () => {
      expect((await call(dm, 'GET', `/api/studies/${studyId}/definition-versions`)).json()).toEqual({
        versions: [],
      });
      const first = await call(dm, 'PUT', `/api/studies/${studyId}/definition`, firstVersion());
      expect(first.statusCode).toBe(200);
      // Written again while in design: still one version, its last text.
      expect((await call(dm, 'PUT', `/api/studies/${studyId}/definition`, firstVersion())).statusCode).toBe(
        200,
      );
      const second = await call(dm, 'PUT', `/api/studies/${studyId}/definition`, secondVersion());
      expect(second.statusCode).toBe(200);

      const list = await call(dm, 'GET', `/api/studies/${studyId}/definition-versions`);
      expect(list.statusCode).toBe(200);
      const { versions } = list.json();
      expect(versions.map((version: { version: string }) => version.version)).toEqual(['1.0.0', '1.1.0']);
      expect(versions[0].contentHash).toBe(first.json().contentHash);
      expect(versions[1].contentHash).toBe(second.json().contentHash);
      expect(Date.parse(versions[1].createdAt)).toBeGreaterThanOrEqual(Date.parse(versions[0].createdAt));
      const itemCount = (document: Document) =>
        document.forms.reduce((sum, f) => sum + f.sections.reduce((n, s) => n + s.items.length, 0), 0);
      expect(versions[0].counts.items).toBe(itemCount(firstVersion()));
      expect(versions[1].counts).toEqual({
        visits: versions[0].counts.visits,
        forms: versions[0].counts.forms,
        items: itemCount(firstVersion()) + 1,
      });
    });

    it('compares two versions: the added item and the changed label, counted, in ko and en', async () => {
      const english = await call(
        dm,
        'GET',
        `/api/studies/${studyId}/definition-versions/compare?from=1.0.0&to=1.1.0`,
      );
      expect(english.statusCode).toBe(200);
      const body = english.json();
      expect(body.language).toBe('en');
      expect(body.from).toMatchObject({ version: '1.0.0' });
      expect(body.to).toMatchObject({ version: '1.1.0' });
      expect(body.summary.items).toEqual({ added: 1, removed: 0, changed: 1, moved: 0 });
      expect(body.summary.visits).toEqual({ added: 0, removed: 0, changed: 0, moved: 0 });
      expect(body.lines).toEqual([
        { path: 'study/version', kind: 'changed', text: 'Study: version 1.0.0 → 1.1.0' },
        {
          path: `forms/${form.key}/items/versionNote`,
          kind: 'added',
          text: expect.stringMatching(new RegExp(`^Form ${form.label.en} › item Version note: added`)),
        },
        {
          path: `forms/${form.key}/items/${firstItem.key}/label`,
          kind: 'changed',
          text: expect.stringContaining(`(revised)`),
        },
      ]);

      // `lang` overrides Accept-Language; the other direction reads as going back.
      const korean = await call(
        dm,
        'GET',
        `/api/studies/${studyId}/definition-versions/compare?from=1.1.0&to=1.0.0&lang=ko`,
      );
      expect(korean.json().language).toBe('ko');
      expect(korean.json().summary.items).toEqual({ added: 0, removed: 1, changed: 1, moved: 0 });
      expect(korean.json().lines).toContainEqual({
        path: `forms/${form.key}/items/versionNote`,
        kind: 'removed',
        text: `양식 ${form.label.ko} › 항목 버전 메모: 삭제됨`,
      });

      const same = await call(
        dm,
        'GET',
        `/api/studies/${studyId}/definition-versions/compare?from=1.1.0&to=1.1.0`,
      );
      expect(same.json().lines).toEqual([]);
    });

    it('prints the comparison as a PDF with the versions, hashes and lines, in ko and en', async () => {
      const list = (await call(dm, 'GET', `/api/studies/${studyId}/definition-versions`)).json();
      const english = await call(
        dm,
        'GET',
        `/api/studies/${studyId}/definition-versions/compare.pdf?from=1.0.0&to=1.1.0&lang=en`,
      );
      expect(english.statusCode).toBe(200);
      expect(english.headers['content-type']).toBe('application/pdf');
      expect(english.headers['cache-control']).toBe('no-store');
      expect(english.headers['content-disposition']).toContain('VER-2028-definition-1.0.0-to-1.1.0.pdf');
      expect(english.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
      const text = pdfText(english.rawPayload);
      for (const expected of [
        'Studydefinition:versioncomparison',
        'VER-2028—Versioncomparisonstudy',
        list.versions[0].contentHash,
        list.versions[1].contentHash,
        'Summary',
        `Form${form.label.en}›itemVersionnote:added`,
        'AddedForm',
        'Page1of1',
      ])
        expect(text).toContain(expected.replace(/\s+/g, ''));

      const korean = await call(
        dm,
        'GET',
        `/api/studies/${studyId}/definition-versions/compare.pdf?from=1.0.0&to=1.1.0&lang=ko`,
      );
      const koreanText = pdfText(korean.rawPayload);
      for (const expected of [
        '시험정의버전비교',
        '버전비교연구',
        '요약',
        `양식${form.label.ko.replace(/\s+/g, '')}›항목버전메모:추가됨`,
        '1/1쪽',
      ])
        expect(koreanText).toContain(expected);
    });

    it('refuses an unknown version with 404 in words, and a malformed one with 400', async () => {
      const unknown = await call(
        dm,
        'GET',
        `/api/studies/${studyId}/definition-versions/compare?from=1.0.0&to=9.9.9`,
      );
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().error).toMatchObject({
        code: 'definition_version_not_found',
        message: expect.stringContaining('9.9.9'),
      });
      const inKorean = await call(
        dm,
        'GET',
        `/api/studies/${studyId}/definition-versions/compare.pdf?from=2.0.0&to=1.0.0`,
        undefined,
        'ko',
      );
      expect(inKorean.statusCode).toBe(404);
      expect(inKorean.json().error.message).toBe(
        '이 시험의 정의에는 버전 2.0.0이 없습니다. 버전 목록에서 고르세요.',
      );
      for (const query of ['from=1.0.0', 'from=one&to=1.0.0', 'from=1.0.0&to=1.1.0&lang=fr', ''])
        expect(
          (await call(dm, 'GET', `/api/studies/${studyId}/definition-versions/compare?${query}`)).statusCode,
          query,
        ).toBe(400);
    });
  },
  { seed: 'demo' },
);
