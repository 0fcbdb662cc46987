import { gunzipSync } from 'node:zlib';
import { monthsBefore, type SubjectListRow, subjectListFilterSchema, todayInKorea } from '@cdms/contract';
import { tmPerforationStudy } from '@cdms/study';
import { readSheet } from 'read-excel-file/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type SignedIn, signIn } from '../../test/test-app.ts';
import { describeWithDatabase } from '../../test/test-database.ts';
import { verifyAuditChain } from '../audit/verify-audit-chain.ts';
import { loadPrincipal } from '../auth/principal.ts';
import type { App } from '../http/types.ts';
import { DEMO_PASSWORD } from '../seed/demo-seed.ts';
import { csvHeaderLine, csvRowLines, neutralizeFormula } from '../subjects/subject-export.ts';
import { subjectDownload } from './subject-list.ts';

interface Row {
  pk: number;
  number: number;
  subjectId: string;
  initials: string;
  siteId: number;
  site: string;
  registrationNumber: string | null;
  status: string;
  gender: { code: string; label: { ko: string; en: string } } | null;
  age: number | null;
  consentDate: string;
  registrationDate: string;
  firstVisitDate: string | null;
  lastVisitDate: { code: string; label: { ko: string; en: string } } | null;
  lastVisitDateActual: string | null;
  adverseReaction: number;
  unresolvedQuery: number;
  initialSignature: 'done' | 'pending';
  registrationFailureReason: { code: string; label: { ko: string; en: string } } | null;
  dropoutReason: { code: string; label: { ko: string; en: string } } | null;
  canDelete: boolean;
}

describeWithDatabase(
  'subject list, export and delete API',
  (database) => {
    let app: App;
    let studyId: number;
    let site1: number;
    let site2: number;
    const session: Record<string, SignedIn> = {};
    const today = todayInKorea();
    const as = (
      who: string,
      method: 'GET' | 'POST' | 'PUT' | 'DELETE',
      url: string,
      payload?: object,
      language = 'en',
    ) =>
      app.inject({
        method,
        url,
        headers: { ...(session[who]?.headers ?? {}), 'accept-language': language },
        ...(payload ? { payload } : {}),
      });
    const listUrl = (query = '') => `/api/studies/${studyId}/subjects${query ? `?${query}` : ''}`;
    /** Every row a user sees for a filter (the list is small enough for one page of 100). */
    async function rowsOf(who: string, query = ''): Promise<Row[]> {
      const response = await as(who, 'GET', listUrl(`size=100${query ? `&${query}` : ''}`));
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json();
      expect(body.total).toBeLessThanOrEqual(100);
      return body.subjects;
    }
    const ids = (rows: Row[]) => rows.map((row) => row.pk);

    async function register(who: string, siteId: number, consentDate: string, initials: string) {
      const created = await as(who, 'POST', `/api/studies/${studyId}/subjects`, {
        siteId,
        consentDate,
        initials,
      });
      expect(created.statusCode, created.body).toBe(201);
      return created.json() as { id: number; subjectId: string };
    }
    async function save(who: string, subjectPk: number, visit: string, form: string, values: object) {
      const url = `/api/studies/${studyId}/subjects/${subjectPk}/forms/${visit}/${form}`;
      const current = (await as(who, 'GET', url)).json();
      const reasons = Object.fromEntries(Object.keys(values).map((key) => [key, 'Corrected in the test']));
      const saved = await as(who, 'PUT', url, {
        values: { ...current.values, ...values },
        version: current.version,
        ...(current.version > 0 ? { reasons } : {}),
      });
      expect(saved.statusCode, saved.body).toBe(200);
    }

    // The subjects of this test, by role in the story.
    const subjects = {} as Record<
      'ongoing' | 'failure' | 'dropout' | 'complete' | 'recent' | 'site2' | 'signed',
      { id: number; subjectId: string }
    >;
    const recentConsent = monthsBefore(today, 2);

    beforeAll(async () => {
      app = await buildTestApp(database());
      await app.ready();
      for (const who of ['admin', 'pi', 'si', 'crc', 'cra', 'dm'])
        session[who] = await signIn(app, `${who}@demo.cdms`);
      const db = database().db;
      studyId = (
        await db.selectFrom('studies').select('id').where('code', '=', 'TMP-2026').executeTakeFirstOrThrow()
      ).id;
      const siteOf = async (institution: string) =>
        (
          await db
            .selectFrom('sites')
            .select('id')
            .where('study_id', '=', studyId)
            .where('institution_number', '=', institution)
            .executeTakeFirstOrThrow()
        ).id;
      site1 = await siteOf('01');
      site2 = await siteOf('02');
      // The seed may or may not have an allocation list for site 01; one is needed here.
      const lists = (await as('dm', 'GET', `/api/studies/${studyId}/randomization`)).json();
      const site1List = lists.sites?.find((s: { siteId: number }) => s.siteId === site1);
      if (!site1List || site1List.remaining === 0) {
        const generated = await as('dm', 'POST', `/api/studies/${studyId}/randomization/generate`, {
          perSite: 8,
          seed: 'subject-list-test',
          siteIds: [site1],
        });
        expect(generated.statusCode, generated.body).toBe(201);
      }

      // Randomized at V2, three visits done, two adverse events, a V1 date before consent (a query).
      subjects.ongoing = await register('pi', site1, '2025-01-10', 'ONG');
      await save('pi', subjects.ongoing.id, 'v1', 'visitDay', { visitDate: '2025-01-08', queryRadio: '001' });
      await save('pi', subjects.ongoing.id, 'v1', 'demographicInfo', {
        birthDate: '1980-05-15',
        gender: 'F',
      });
      await save('pi', subjects.ongoing.id, 'v2', 'visitDay', { visitDate: '2025-01-29', queryRadio: '001' });
      await save('pi', subjects.ongoing.id, 'v2', 'inclusionExclusionEval', { eligible: 'Y' });
      const randomized = await as(
        'pi',
        'POST',
        `/api/studies/${studyId}/subjects/${subjects.ongoing.id}/randomize`,
      );
      expect(randomized.statusCode, randomized.body).toBe(201);
      await save('pi', subjects.ongoing.id, 'v3', 'visitDay', { visitDate: '2025-02-12', queryRadio: '001' });
      await save('pi', subjects.ongoing.id, 'all', 'adverseEvent', {
        hasAdverseEvent: 'Y',
        events: [
          { name: '이명', startDate: '2025-01-30', serious: 'N' },
          { name: '통증', startDate: '2025-02-01', serious: 'Y' },
        ],
      });

      subjects.failure = await register('pi', site1, '2025-02-01', 'FAL');
      await save('pi', subjects.failure.id, 'all', 'endExamination', {
        completed: 'SF',
        screeningFailureReason: 'exclusionMet',
      });

      subjects.dropout = await register('si', site1, '2025-02-03', 'DRP');
      await save('si', subjects.dropout.id, 'v1', 'visitDay', { visitDate: '2025-02-03', queryRadio: '001' });
      await save('si', subjects.dropout.id, 'all', 'endExamination', {
        completed: 'N',
        dropoutDate: '2025-03-01',
        dropoutReason: '002',
      });

      subjects.complete = await register('pi', site1, '2025-02-05', 'CMP');
      await save('pi', subjects.complete.id, 'all', 'endExamination', {
        completed: 'Y',
        observationEndDate: '2025-05-01',
      });

      subjects.recent = await register('pi', site1, recentConsent, 'RCT');
      subjects.site2 = await register('crc', site2, '2025-03-05', 'QZX');

      subjects.signed = await register('pi', site1, '2025-02-10', 'SGN');
      const signed = await as(
        'pi',
        'POST',
        `/api/studies/${studyId}/subjects/${subjects.signed.id}/signature`,
        {
          password: DEMO_PASSWORD,
        },
      );
      expect(signed.statusCode, signed.body).toBe(201);
    });
    afterAll(async () => {
      await app.close();
    });

    it('refuses bad query parameters with 400, never 500', async () => {
      for (const query of [
        'size=15',
        'size=0',
        'size=abc',
        'page=0',
        'page=-1',
        'page=abc',
        'page=1.5',
        'dateType=birthDate',
        'start=2026-13-45',
        'start=2026-02-30',
        'end=20260101',
        'start=2025-05-01&end=2025-01-01',
        'range=12',
        'status=screening',
        'signature=yes',
        'sort=initials',
        'sort=number',
        'order=up',
        `search=${'x'.repeat(101)}`,
      ]) {
        const response = await as('pi', 'GET', listUrl(query));
        expect(response.statusCode, query).toBe(400);
        expect(response.json().error.code, query).toBe('validation_failed');
      }
      for (const query of ['', 'format=pdf', 'format=csv&status=x', 'format=csv&start=2025-02-30']) {
        const response = await as('dm', 'GET', `/api/studies/${studyId}/subjects/export?${query}`);
        expect(response.statusCode, query).toBe(400);
      }
    });

    it('computes every column from the data saved through the API', async () => {
      const [row] = await rowsOf('pi', `search=${subjects.ongoing.subjectId}`);
      const db = database().db;
      const slot = await db
        .selectFrom('randomization_slots')
        .select('sequence')
        .where('subject_id', '=', subjects.ongoing.id)
        .executeTakeFirstOrThrow();
      const unresolved = await db
        .selectFrom('queries')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('subject_id', '=', subjects.ongoing.id)
        .where('status', 'in', ['open', 'answered'])
        .executeTakeFirstOrThrow();
      expect(Number(unresolved.count)).toBeGreaterThan(0); // the V1 date before consent raised one
      expect(row).toEqual({
        pk: subjects.ongoing.id,
        number: 1,
        subjectId: subjects.ongoing.subjectId,
        initials: 'ONG',
        siteId: site1,
        site: 'HBU-1Y',
        registrationNumber: `R01${String(slot.sequence).padStart(3, '0')}`,
        status: 'Ongoing',
        gender: { code: 'F', label: { ko: '여', en: 'Female' } },
        age: 44,
        consentDate: '2025-01-10',
        registrationDate: today,
        firstVisitDate: '2025-01-08',
        lastVisitDate: { code: 'v3', label: { ko: '추적 관찰 (V3)', en: 'Follow-up (V3)' } },
        lastVisitDateActual: '2025-02-12',
        adverseReaction: 2,
        unresolvedQuery: Number(unresolved.count),
        initialSignature: 'pending',
        registrationFailureReason: null,
        dropoutReason: null,
        canDelete: true,
        unblinded: false,
      });

      const [failure] = await rowsOf('pi', `search=${subjects.failure.subjectId}`);
      expect(failure).toMatchObject({
        status: 'Screening-failure',
        registrationNumber: null,
        firstVisitDate: null,
        lastVisitDate: null,
        adverseReaction: 0,
        registrationFailureReason: {
          code: 'exclusionMet',
          label: { ko: '제외기준 해당', en: 'Exclusion criteria met' },
        },
        dropoutReason: null,
      });
      const [dropout] = await rowsOf('pi', `search=${subjects.dropout.subjectId}`);
      expect(dropout).toMatchObject({
        status: 'Drop-out',
        dropoutReason: { code: '002', label: { ko: '이상사례', en: 'Adverse event' } },
        registrationFailureReason: null,
        firstVisitDate: '2025-02-03',
        lastVisitDate: { code: 'v1' },
      });
      const [complete] = await rowsOf('pi', `search=${subjects.complete.subjectId}`);
      expect(complete?.status).toBe('Complete');
      const [screening] = await rowsOf('crc', `search=${subjects.site2.subjectId}`);
      expect(screening).toMatchObject({ status: 'Screening', gender: null, age: null, site: 'SBH-2Y' });
    });

    it('shows the signature as done, and pending again once signed data change', async () => {
      const signedRow = async () => (await rowsOf('pi', `search=${subjects.signed.subjectId}`))[0];
      expect((await signedRow())?.initialSignature).toBe('done');
      expect(ids(await rowsOf('pi', 'signature=true'))).toContain(subjects.signed.id);
      expect(ids(await rowsOf('pi', 'signature=false'))).not.toContain(subjects.signed.id);
      for (const row of await rowsOf('pi', 'signature=true')) expect(row.initialSignature).toBe('done');

      await save('pi', subjects.signed.id, 'v1', 'demographicInfo', { gender: 'M', birthDate: '1990-01-01' });
      expect((await signedRow())?.initialSignature).toBe('pending');
      expect(ids(await rowsOf('pi', 'signature=false'))).toContain(subjects.signed.id);
      expect(ids(await rowsOf('pi', 'signature=true'))).not.toContain(subjects.signed.id);
    });

    it('filters by each of the five statuses', async () => {
      const expected: Record<string, number> = {
        Screening: subjects.recent.id,
        'Screening-failure': subjects.failure.id,
        Ongoing: subjects.ongoing.id,
        Complete: subjects.complete.id,
        'Drop-out': subjects.dropout.id,
      };
      for (const [status, subjectPk] of Object.entries(expected)) {
        const rows = await rowsOf('pi', `status=${status}`);
        expect(ids(rows), status).toContain(subjectPk);
        for (const row of rows) expect(row.status, status).toBe(status);
      }
      const all = await rowsOf('pi', 'status=all');
      expect(all.length).toBe((await rowsOf('pi')).length);
    });

    it('filters by each date type, both dates inclusive', async () => {
      const consent = await rowsOf('pi', 'dateType=consentDate&start=2025-01-10&end=2025-02-01');
      expect(ids(consent)).toEqual(expect.arrayContaining([subjects.ongoing.id, subjects.failure.id]));
      expect(ids(consent)).not.toContain(subjects.dropout.id); // 2025-02-03
      for (const row of consent)
        expect(row.consentDate >= '2025-01-10' && row.consentDate <= '2025-02-01').toBe(true);

      const first = await rowsOf('pi', 'dateType=firstVisitDate&start=2025-01-08&end=2025-01-08');
      expect(ids(first)).toContain(subjects.ongoing.id);
      for (const row of first) expect(row.firstVisitDate).toBe('2025-01-08');

      const last = await rowsOf('pi', 'dateType=lastVisitDate&start=2025-02-03&end=2025-02-11');
      expect(ids(last)).toContain(subjects.dropout.id);
      expect(ids(last)).not.toContain(subjects.ongoing.id); // last visit V3 on 2025-02-12
      expect(ids(last)).not.toContain(subjects.failure.id); // no visit: outside any period
      for (const row of last) {
        expect(row.lastVisitDateActual && row.lastVisitDateActual >= '2025-02-03').toBeTruthy();
        expect(row.lastVisitDateActual && row.lastVisitDateActual <= '2025-02-11').toBeTruthy();
      }

      const registered = await rowsOf('pi', `dateType=registrationDate&start=${today}&end=${today}`);
      expect(ids(registered)).toEqual(
        expect.arrayContaining(
          Object.values(subjects)
            .filter((s) => s !== subjects.site2)
            .map((s) => s.id),
        ),
      );
      expect((await rowsOf('pi', 'dateType=registrationDate&end=2020-12-31')).length).toBe(0);
    });

    it('applies the 3 and 6 month presets from today (UTC+9) when no dates are given', async () => {
      const three = await rowsOf('pi', 'dateType=consentDate&range=3');
      expect(ids(three)).toContain(subjects.recent.id);
      expect(ids(three)).not.toContain(subjects.ongoing.id);
      for (const row of three) expect(row.consentDate >= monthsBefore(today, 3)).toBe(true);
      const six = await rowsOf('pi', 'dateType=consentDate&range=6');
      expect(ids(six)).toContain(subjects.recent.id);
      for (const row of six) expect(row.consentDate >= monthsBefore(today, 6)).toBe(true);
      // Registration is today for every subject of this test: the default date type.
      expect(ids(await rowsOf('pi', 'range=3'))).toContain(subjects.ongoing.id);
      // Explicit dates win over a preset.
      const explicit = await rowsOf('pi', 'dateType=consentDate&range=3&start=2025-01-01&end=2025-01-31');
      expect(ids(explicit)).toContain(subjects.ongoing.id);
      expect((await rowsOf('pi', 'range=all')).length).toBe((await rowsOf('pi')).length);
    });

    it("shows and sorts by a site's new code once the site is renamed", async () => {
      // The read model copies the site code (the site sort has an index on it): a rename reaches it.
      const site = (await as('admin', 'GET', '/api/admin/studies'))
        .json()
        .studies.find((study: { id: number }) => study.id === studyId)
        .sites.find((entry: { id: number }) => entry.id === site2);
      const rename = (code: string) =>
        as('admin', 'PUT', `/api/admin/studies/${studyId}/sites/${site2}`, {
          code,
          name: site.name,
          institutionNumber: site.institutionNumber,
        });
      expect((await rename('AAA-2Y')).statusCode).toBe(200);
      const renamed = await rowsOf('dm', 'sort=site&order=asc');
      const ofSite2 = renamed.filter((row) => row.siteId === site2);
      expect(ofSite2.length).toBeGreaterThan(0);
      for (const row of ofSite2) expect(row.site).toBe('AAA-2Y');
      // First now: 'AAA-2Y' sorts before every other code.
      expect(renamed.slice(0, ofSite2.length).map((row) => row.siteId)).toEqual(ofSite2.map(() => site2));
      expect((await rename(site.code)).statusCode).toBe(200);
      for (const row of (await rowsOf('dm')).filter((entry) => entry.siteId === site2))
        expect(row.site).toBe(site.code);
    });

    it('searches screening numbers, randomization numbers, initials and sites, ignoring case', async () => {
      const ongoing = (await rowsOf('pi', `search=${subjects.ongoing.subjectId}`))[0] as Row;
      expect(ids(await rowsOf('pi', `search=${subjects.ongoing.subjectId.toLowerCase()}`))).toEqual([
        ongoing.pk,
      ]);
      expect(ids(await rowsOf('pi', `search=${ongoing.registrationNumber}`))).toEqual([ongoing.pk]);
      expect(ids(await rowsOf('dm', 'search=qzx'))).toEqual([subjects.site2.id]);
      const bySiteCode = await rowsOf('dm', 'search=sbh-2');
      expect(bySiteCode.length).toBeGreaterThan(0);
      for (const row of bySiteCode) expect(row.site).toBe('SBH-2Y');
      const bySiteName = await rowsOf('dm', `search=${encodeURIComponent('새봄')}`);
      expect(ids(bySiteName)).toEqual(ids(bySiteCode));
      expect(await rowsOf('pi', 'search=no-such-subject')).toEqual([]);
      // The fields are searched one at a time: a search spanning two of them finds nothing.
      const spanning = encodeURIComponent(`${ongoing.subjectId}\n${ongoing.registrationNumber}`);
      expect(await rowsOf('pi', `search=${spanning}`)).toEqual([]);
    });

    it('sorts by any column, both ways, empty cells last', async () => {
      const statusOrder = ['Screening', 'Screening-failure', 'Ongoing', 'Complete', 'Drop-out'];
      // Coded columns sort in the order of the definition's code lists.
      const codesOf = (key: string) =>
        tmPerforationStudy.codeLists.find((list) => list.key === key)?.codes.map((c) => c.code) ?? [];
      const failureCodes = codesOf('screeningFailureReason');
      const dropoutCodes = codesOf('dropoutReason');
      const rank = (codes: string[], code: string | undefined) =>
        code === undefined ? null : codes.indexOf(code);
      const checks: [string, (row: Row) => string | number | null][] = [
        ['subjectId', (row) => row.subjectId],
        ['site', (row) => row.site],
        ['registrationNumber', (row) => row.registrationNumber],
        ['status', (row) => statusOrder.indexOf(row.status)],
        ['gender', (row) => (row.gender ? ['M', 'F'].indexOf(row.gender.code) : null)],
        ['age', (row) => row.age],
        ['consentDate', (row) => row.consentDate],
        ['registrationDate', (row) => row.registrationDate],
        ['firstVisitDate', (row) => row.firstVisitDate],
        [
          'lastVisitDate',
          (row) =>
            row.lastVisitDate ? ['v1', 'v2', 'v3', 'v4', 'v5', 'v6'].indexOf(row.lastVisitDate.code) : null,
        ],
        ['lastVisitDateActual', (row) => row.lastVisitDateActual],
        ['adverseReaction', (row) => row.adverseReaction],
        ['unresolvedQuery', (row) => row.unresolvedQuery],
        ['initialSignature', (row) => row.initialSignature],
        ['registrationFailureReason', (row) => rank(failureCodes, row.registrationFailureReason?.code)],
        ['dropoutReason', (row) => rank(dropoutCodes, row.dropoutReason?.code)],
      ];
      for (const [sort, cellValue] of checks) {
        for (const order of ['asc', 'desc'] as const) {
          const rows = await rowsOf('dm', `sort=${sort}&order=${order}`);
          const values = rows.map(cellValue);
          const firstEmpty = values.indexOf(null);
          if (firstEmpty !== -1)
            expect(
              values.slice(firstEmpty).every((v) => v === null),
              `${sort} ${order}`,
            ).toBe(true);
          const filled = values.filter((v) => v !== null) as (string | number)[];
          const sorted = [...filled].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
          if (order === 'desc') sorted.reverse();
          expect(filled, `${sort} ${order}`).toEqual(sorted);
          expect(rows.map((row) => row.number)).toEqual(rows.map((_, index) => index + 1));
        }
      }
      // Ties fall back to the screening number.
      const byStatus = await rowsOf('dm', 'sort=status');
      const screening = byStatus.filter((row) => row.status === 'Screening').map((row) => row.subjectId);
      expect(screening).toEqual([...screening].sort());
    });

    it('pages with 10, 50 or 100 rows, numbers rows across pages, and keeps the total past the last page', async () => {
      const all = await rowsOf('dm');
      expect(all.length).toBeGreaterThan(5);
      const first = (await as('dm', 'GET', listUrl('size=10'))).json();
      expect(first).toMatchObject({ page: 1, size: 10, total: all.length });
      expect(first.subjects.length).toBe(Math.min(10, all.length));
      const pageOf = (await as('dm', 'GET', listUrl('size=10&page=2'))).json();
      expect(pageOf.subjects.map((row: Row) => row.number)).toEqual(
        all.slice(10, 20).map((row) => row.number),
      );
      expect(pageOf.subjects.map((row: Row) => row.pk)).toEqual(ids(all.slice(10, 20)));
      for (const size of [10, 50, 100]) {
        const response = await as('dm', 'GET', listUrl(`size=${size}`));
        expect(response.statusCode).toBe(200);
        expect(response.json().subjects.length).toBe(Math.min(size, all.length));
      }
      const beyond = (await as('dm', 'GET', listUrl('size=10&page=500'))).json();
      expect(beyond).toEqual({ subjects: [], total: all.length, page: 500, size: 10 });
    });

    it("lists only the subjects of the user's sites", async () => {
      const crc = await rowsOf('crc');
      expect(crc.length).toBeGreaterThan(0);
      for (const row of crc) expect(row.siteId).toBe(site2);
      const pi = await rowsOf('pi');
      for (const row of pi) expect(row.siteId).toBe(site1);
      const dm = await rowsOf('dm');
      expect(dm.length).toBe(pi.length + crc.length + (await rowsOf('dm', 'search=NRM-3Y')).length);
      // Delete rights per row: PI and CRC at their sites; monitors and managers never.
      expect(pi.every((row) => row.canDelete)).toBe(true);
      expect(crc.every((row) => row.canDelete)).toBe(true);
      expect((await rowsOf('si')).some((row) => row.canDelete)).toBe(false);
      expect(dm.some((row) => row.canDelete)).toBe(false);
      expect((await rowsOf('cra')).some((row) => row.canDelete)).toBe(false);
      // A study the user is not a member of does not exist for them.
      expect((await as('pi', 'GET', '/api/studies/999999/subjects')).statusCode).toBe(404);
      // The ended study has no definition and no subjects: an empty list, not an error.
      const ended = await database()
        .db.selectFrom('studies')
        .select('id')
        .where('code', '=', 'OME-2024')
        .executeTakeFirstOrThrow();
      expect((await as('pi', 'GET', `/api/studies/${ended.id}/subjects`)).json()).toEqual({
        subjects: [],
        total: 0,
        page: 1,
        size: 10,
      });
    });

    it('exports the filtered list as CSV (BOM, headers in the user language) and audits it', async () => {
      const filter = 'status=Ongoing&sort=subjectId&order=desc';
      const expected = await rowsOf('dm', filter);
      const response = await as('dm', 'GET', `/api/studies/${studyId}/subjects/export?format=csv&${filter}`);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(response.headers['content-disposition']).toBe(
        `attachment; filename="TMP-2026_subjects_${today}.csv"; filename*=UTF-8''TMP-2026_subjects_${today}.csv`,
      );
      expect(response.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
      const lines = response.rawPayload.toString('utf8').slice(1).split('\r\n');
      expect(lines.at(-1)).toBe('');
      expect(lines[0]).toBe(
        'No.,Screening number,Site,Randomization number,Status,Sex,Age,Consent date,Registration date,' +
          'First visit date,Last visit,Last visit date,Adverse events,Unresolved queries,Initial signature,' +
          'Screening failure reason,Drop-out reason',
      );
      expect(lines.length - 2).toBe(expected.length);
      const ongoing = expected.find((row) => row.pk === subjects.ongoing.id) as Row;
      expect(lines).toContain(
        [
          ongoing.number,
          ongoing.subjectId,
          'HBU-1Y',
          ongoing.registrationNumber,
          'Ongoing',
          'Female',
          44,
          '2025-01-10',
          today,
          '2025-01-08',
          'Follow-up (V3)',
          '2025-02-12',
          2,
          ongoing.unresolvedQuery,
          'Pending',
          '',
          '',
        ].join(','),
      );

      const korean = await as(
        'admin',
        'GET',
        `/api/studies/${studyId}/subjects/export?format=csv&${filter}`,
        undefined,
        'ko',
      );
      const koLines = korean.rawPayload.toString('utf8').slice(1).split('\r\n');
      expect(koLines[0]?.startsWith('번호,스크리닝 번호,기관,무작위 배정 번호,상태,성별,나이')).toBe(true);
      expect(koLines.some((line) => line.includes(',진행 중,여,44,'))).toBe(true);

      const audit = await database()
        .db.selectFrom('audit_events')
        .select(['after', 'actor_label', 'study_id'])
        .where('event_type', '=', 'subjects.exported')
        .orderBy('id')
        .execute();
      expect(audit.at(-2)).toMatchObject({
        actor_label: 'dm@demo.cdms',
        study_id: studyId,
        after: {
          format: 'csv',
          rowCount: expected.length,
          filter: { status: 'Ongoing', sort: 'subjectId', order: 'desc' },
        },
      });
      expect(audit.at(-1)?.actor_label).toBe('admin@demo.cdms');
    });

    it('downloads, chunk by chunk, the rows of the list in its order and numbering', async () => {
      const expected = await rowsOf('dm', 'sort=subjectId&order=desc');
      expect(expected.length).toBeGreaterThan(4);
      const db = database().db;
      const user = await db
        .selectFrom('users')
        .selectAll()
        .where('email', '=', 'dm@demo.cdms')
        .executeTakeFirstOrThrow();
      const session = await db
        .selectFrom('sessions')
        .selectAll()
        .where('user_id', '=', user.id)
        .executeTakeFirstOrThrow();
      const principal = await loadPrincipal(db, user, session);
      const filter = subjectListFilterSchema.parse({ sort: 'subjectId', order: 'desc' });
      // Chunks of two: the order is taken once and every chunk keeps it.
      const download = await subjectDownload(db, principal, studyId, filter, 2);
      const rows: SubjectListRow[] = [];
      for await (const chunk of download.chunks) rows.push(...chunk);
      expect(download.total).toBe(expected.length);
      expect(rows.map((row) => [row.number, row.pk])).toEqual(expected.map((row) => [row.number, row.pk]));
    });

    it('compresses the CSV download as it streams when the browser accepts it', async () => {
      const url = `/api/studies/${studyId}/subjects/export?format=csv&sort=subjectId`;
      const headers = { ...session.dm?.headers, 'accept-language': 'en' };
      const plain = await app.inject({ method: 'GET', url, headers });
      const compressed = await app.inject({
        method: 'GET',
        url,
        headers: { ...headers, 'accept-encoding': 'gzip' },
      });
      expect(compressed.statusCode).toBe(200);
      expect(compressed.headers['content-encoding']).toBe('gzip');
      expect(compressed.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(compressed.headers['content-disposition']).toBe(plain.headers['content-disposition']);
      expect(gunzipSync(compressed.rawPayload).equals(plain.rawPayload)).toBe(true);
    });

    it('exports XLSX that reads back with the same rows', async () => {
      const expected = await rowsOf('dm', 'sort=subjectId');
      const response = await as(
        'dm',
        'GET',
        `/api/studies/${studyId}/subjects/export?format=xlsx&sort=subjectId`,
      );
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe(
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      );
      expect(response.headers['content-disposition']).toContain(`TMP-2026_subjects_${today}.xlsx`);
      const sheet = await readSheet(response.rawPayload);
      expect(sheet[0]?.[1]).toBe('Screening number');
      expect(sheet.length - 1).toBe(expected.length);
      const index = expected.findIndex((row) => row.pk === subjects.ongoing.id);
      const cells = sheet[index + 1] as unknown[];
      expect(cells.slice(0, 7)).toEqual([
        index + 1,
        subjects.ongoing.subjectId,
        'HBU-1Y',
        expected[index]?.registrationNumber,
        'Ongoing',
        'Female',
        44,
      ]);
      expect(cells[10]).toBe('Follow-up (V3)');
      expect(cells[12]).toBe(2);
    });

    it('lets only DM and ADMIN export', async () => {
      for (const who of ['pi', 'si', 'crc', 'cra']) {
        const response = await as(who, 'GET', `/api/studies/${studyId}/subjects/export?format=csv`);
        expect(response.statusCode, who).toBe(403);
      }
      expect(
        (await as('admin', 'GET', `/api/studies/${studyId}/subjects/export?format=xlsx`)).statusCode,
      ).toBe(200);
    });

    it('deletes a subject without data (PI or CRC of its site, with a reason), and refuses one with data', async () => {
      const deleteUrl = (pk: number) => `/api/studies/${studyId}/subjects/${pk}`;
      const withData = await as('pi', 'DELETE', deleteUrl(subjects.ongoing.id), {
        reason: 'Registered twice',
      });
      expect(withData.statusCode).toBe(409);
      expect(withData.json().error).toMatchObject({
        code: 'subject_has_data',
        details: { randomizations: 1, queries: expect.any(Number), signatures: 0 },
      });
      expect(withData.json().error.message).toContain('cannot be deleted');
      const signed = await as('pi', 'DELETE', deleteUrl(subjects.signed.id), { reason: 'x' }, 'ko');
      expect(signed.statusCode).toBe(409);
      expect(signed.json().error.message).toContain('삭제할 수 없습니다');

      const empty = await register('pi', site1, '2025-04-01', 'DEL');
      for (const body of [{}, { reason: '   ' }, { reason: 'x'.repeat(501) }]) {
        expect((await as('pi', 'DELETE', deleteUrl(empty.id), body)).statusCode).toBe(400);
      }
      expect((await as('si', 'DELETE', deleteUrl(empty.id), { reason: 'x' })).statusCode).toBe(403);
      expect((await as('cra', 'DELETE', deleteUrl(empty.id), { reason: 'x' })).statusCode).toBe(403);
      expect((await as('dm', 'DELETE', deleteUrl(empty.id), { reason: 'x' })).statusCode).toBe(403);
      expect((await as('crc', 'DELETE', deleteUrl(empty.id), { reason: 'x' })).statusCode).toBe(404);
      const deleted = await as('pi', 'DELETE', deleteUrl(empty.id), { reason: '  Registered in error  ' });
      expect(deleted.statusCode).toBe(204);
      expect((await as('pi', 'DELETE', deleteUrl(empty.id), { reason: 'again' })).statusCode).toBe(404);
      expect(ids(await rowsOf('pi'))).not.toContain(empty.id);
      expect(ids(await rowsOf('dm'))).not.toContain(empty.id);
      expect((await as('pi', 'GET', `${deleteUrl(empty.id)}/overview`)).statusCode).toBe(404);
      expect((await as('pi', 'GET', `${deleteUrl(empty.id)}/audit`)).statusCode).toBe(404);
      const audit = await database()
        .db.selectFrom('audit_events')
        .select(['reason', 'before', 'actor_label', 'subject_id'])
        .where('event_type', '=', 'subject.deleted')
        .execute();
      expect(audit).toEqual([
        {
          reason: 'Registered in error',
          before: expect.objectContaining({ screeningNumber: empty.subjectId, initials: 'DEL' }),
          actor_label: 'pi@demo.cdms',
          subject_id: empty.id,
        },
      ]);
      const row = await database()
        .db.selectFrom('subjects')
        .select('deleted_at')
        .where('id', '=', empty.id)
        .executeTakeFirstOrThrow();
      expect(row.deleted_at).not.toBeNull();

      // The CRC deletes at site 02.
      const crcSubject = await register('crc', site2, '2025-04-02', 'DLC');
      expect((await as('crc', 'DELETE', deleteUrl(crcSubject.id), { reason: 'Wrong site' })).statusCode).toBe(
        204,
      );
    });

    it('leaves an intact audit chain behind', async () => {
      expect((await verifyAuditChain(database().db)).ok).toBe(true);
    });
  },
  { seed: 'demo' },
);

describe('CSV cells', () => {
  it('neutralizes formulas and quotes per RFC 4180', () => {
    expect(neutralizeFormula('=1+1')).toBe("'=1+1");
    expect(neutralizeFormula('+82')).toBe("'+82");
    expect(neutralizeFormula('-5')).toBe("'-5");
    expect(neutralizeFormula('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(neutralizeFormula('\tx')).toBe("'\tx");
    expect(neutralizeFormula('S01-001')).toBe('S01-001');
    const label = (text: string) => ({ code: 'x', label: { ko: text, en: text } });
    const csv =
      csvHeaderLine('en') +
      csvRowLines(
        [
          {
            pk: 1,
            number: 1,
            subjectId: '=HYPERLINK("http://evil")',
            initials: 'AB',
            siteId: 1,
            site: 'A,B',
            registrationNumber: null,
            status: 'Screening',
            gender: null,
            age: -1,
            consentDate: '2025-01-01',
            registrationDate: '2025-01-01',
            firstVisitDate: null,
            lastVisitDate: label('line\nbreak'),
            lastVisitDateActual: null,
            adverseReaction: 0,
            unresolvedQuery: 0,
            initialSignature: 'pending',
            registrationFailureReason: label('say "no"'),
            dropoutReason: null,
            canDelete: false,
            unblinded: false,
          },
        ],
        'en',
      );
    expect(csv.split('\r\n')[1]).toBe(
      `1,"'=HYPERLINK(""http://evil"")","A,B",,Screening,,-1,2025-01-01,2025-01-01,,"line\nbreak",,0,0,Pending,"say ""no""",`,
    );
  });
});
