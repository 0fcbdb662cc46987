import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, demoStudyIds, type SignedIn, signIn } from '../../test/test-app.ts';
import { describeWithDatabase } from '../../test/test-database.ts';
import type { App } from '../http/types.ts';
import { loadFormSdv } from '../sdv-state/form-sdv.ts';
import { loadSdvPlan } from '../sdv-state/sdv-plan.ts';
import { DEMO_PASSWORD } from '../seed/demo-seed.ts';
import { currentStudyDefinition } from '../studies/study-definitions.ts';

/** TMP-2026's signing form (its `signing` role). */
const SIGNING_FORM = { visitKey: 'all', formKey: 'testDirectorSigning' };

/**
 * Placing and lifting freezes and locks (rights, 409 on refused transitions, bulk all or nothing,
 * audit) and the readiness board, whose counts must equal this test's own reading of the data.
 */
describeWithDatabase(
  'holds and the readiness board',
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
    const holdsUrl = (path = '') => `/api/studies/${studyId}/holds${path}`;
    const formUrl = (subjectPk: number, visit: string, form: string) =>
      `/api/studies/${studyId}/subjects/${subjectPk}/forms/${visit}/${form}`;

    async function newSubject(siteId: number, who = 'pi'): Promise<number> {
      const created = await as(who, 'POST', `/api/studies/${studyId}/subjects`, {
        siteId,
        consentDate: '2025-03-03',
        initials: 'RDY',
      });
      expect(created.statusCode).toBe(201);
      return created.json().id;
    }

    async function holdRows(): Promise<number> {
      const row = await database()
        .db.selectFrom('holds')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow();
      return Number(row.count);
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

    it('lets CRA and DM freeze, only DM lock, and refuses holding what is held and lifting what is not (409)', async () => {
      const subject = await newSubject(site1);
      const target = { level: 'subject', subjectPk: subject };
      const place = (who: string, kind: string) =>
        as(who, 'POST', holdsUrl(), { kind, target, reason: 'Ready for review' });
      const lift = (who: string, kind: string) =>
        as(who, 'POST', holdsUrl('/lift'), { kind, target, reason: 'Review done' });
      for (const who of ['pi', 'admin']) expect((await place(who, 'frozen')).statusCode).toBe(403);
      expect((await place('crc', 'frozen')).statusCode).toBe(404);
      expect((await place('cra', 'locked')).statusCode).toBe(403);
      const frozen = await place('cra', 'frozen');
      expect(frozen.statusCode).toBe(201);
      expect(frozen.json()).toMatchObject({
        kind: 'frozen',
        level: 'subject',
        subjectPk: subject,
        reason: 'Ready for review',
      });
      const twice = await place('dm', 'frozen');
      expect(twice.statusCode).toBe(409);
      expect(twice.json().error).toMatchObject({
        code: 'hold_already_in_force',
        details: { kind: 'frozen', level: 'subject' },
      });
      // A lock may stand beside the freeze.
      expect((await place('dm', 'locked')).statusCode).toBe(201);
      const listed = (await as('cra', 'GET', holdsUrl(`?subjectPk=${subject}`))).json();
      expect(listed.holds.map((hold: { kind: string }) => hold.kind)).toEqual(['frozen', 'locked']);
      expect(listed.abilities).toEqual({ freeze: true, lock: false });
      expect((await lift('cra', 'locked')).statusCode).toBe(403);
      expect((await lift('dm', 'locked')).statusCode).toBe(200);
      const notLocked = await lift('dm', 'locked');
      expect(notLocked.statusCode).toBe(409);
      expect(notLocked.json().error.code).toBe('hold_not_in_force');
      expect((await lift('cra', 'frozen')).statusCode).toBe(200);
      const audit = await database()
        .db.selectFrom('audit_events')
        .select(['event_type', 'reason'])
        .where('entity_type', '=', 'hold')
        .where('subject_id', '=', subject)
        .orderBy('id')
        .execute();
      expect(audit).toEqual([
        { event_type: 'hold.placed', reason: 'Ready for review' },
        { event_type: 'hold.placed', reason: 'Ready for review' },
        { event_type: 'hold.lifted', reason: 'Review done' },
        { event_type: 'hold.lifted', reason: 'Review done' },
      ]);
      // The study level needs every site: a CRA monitors two of three.
      expect(
        (await as('cra', 'POST', holdsUrl(), { kind: 'frozen', target: { level: 'study' }, reason: 'x' }))
          .statusCode,
      ).toBe(403);
    });

    it('freezes and lifts selected subjects in bulk, all or nothing', async () => {
      const first = await newSubject(site1);
      const second = await newSubject(site1);
      const bulk = (action: string, subjectPks: number[]) =>
        as('dm', 'POST', holdsUrl('/bulk'), { action, kind: 'frozen', subjectPks, reason: 'Site close-out' });
      expect(
        (
          await as('dm', 'POST', holdsUrl(), {
            kind: 'frozen',
            target: { level: 'subject', subjectPk: second },
            reason: 'x',
          })
        ).statusCode,
      ).toBe(201);
      const rows = await holdRows();
      const refused = await bulk('place', [first, second]);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error.details.subjectPks).toEqual([second]);
      expect(await holdRows()).toBe(rows);
      expect((await bulk('lift', [second])).json()).toEqual({ changed: 1 });
      expect((await bulk('place', [first, second])).json()).toEqual({ changed: 2 });
      expect((await bulk('lift', [first, second])).json()).toEqual({ changed: 2 });
      const badInput = [
        { action: 'place', kind: 'frozen', subjectPks: [], reason: 'x' },
        { action: 'place', kind: 'frozen', subjectPks: [first], reason: '   ' },
        { action: 'hold', kind: 'frozen', subjectPks: [first], reason: 'x' },
        { action: 'place', kind: 'thawed', subjectPks: [first], reason: 'x' },
      ];
      for (const body of badInput)
        expect((await as('dm', 'POST', holdsUrl('/bulk'), body)).statusCode).toBe(400);
      expect(
        (await as('dm', 'POST', holdsUrl(), { kind: 'frozen', target: { level: 'site' }, reason: 'x' }))
          .statusCode,
      ).toBe(400);
      expect(
        (
          await as('dm', 'POST', holdsUrl(), {
            kind: 'frozen',
            target: { level: 'form', subjectPk: first, visitKey: 'v1', formKey: 'noSuchForm' },
            reason: 'x',
          })
        ).statusCode,
      ).toBe(404);
      expect((await as('dm', 'GET', holdsUrl(`?subjectPk=${first}&siteId=${site1}`))).statusCode).toBe(400);
      // One new row per subject placed again; lifting keeps the rows.
      expect(await holdRows()).toBe(rows + 2);
    });

    it('counts what stands between each subject and a lock as the data say, and calls a subject ready when nothing does', async () => {
      // A subject with an open query, one with vital signs missing items, one frozen site-02 subject.
      const withQuery = await newSubject(site1);
      await as('pi', 'PUT', formUrl(withQuery, 'v1', 'vitalSigns'), {
        values: { bloodPressureSystolic: 120, bloodPressureDiastolic: 80, heartRate: 70 },
        version: 0,
      });
      await as('cra', 'POST', `/api/studies/${studyId}/queries`, {
        subjectPk: withQuery,
        visitKey: 'v1',
        formKey: 'vitalSigns',
        itemPath: 'v1.vitalSigns.heartRate',
        text: 'Check the pulse.',
      });
      const atSite2 = await newSubject(site2, 'crc');
      await as('dm', 'POST', holdsUrl(), {
        kind: 'frozen',
        target: { level: 'subject', subjectPk: atSite2 },
        reason: 'x',
      });
      // A subject made ready: its saved page verified, its casebook signed.
      const ready = await newSubject(site1);
      await as('cra', 'POST', `/api/studies/${studyId}/sdv/verify-visit`, {
        subjectPk: ready,
        visitKey: 'consentScreening',
      });
      expect(
        (
          await as('pi', 'POST', `/api/studies/${studyId}/subjects/${ready}/signature`, {
            password: DEMO_PASSWORD,
          })
        ).statusCode,
      ).toBeLessThan(300);

      const board = await as('dm', 'GET', `/api/studies/${studyId}/readiness/subjects?size=100`);
      expect(board.statusCode).toBe(200);
      const rows = board.json().subjects as Record<string, unknown>[];
      const expected = await ownReading();
      expect(
        rows
          .map((row) => [
            row.subjectPk,
            row.openQueries,
            row.answeredQueries,
            row.formsMissingRequired,
            row.formsSdvIncomplete,
            row.overdueVisits,
            row.signature,
            row.ready,
          ])
          .sort(),
      ).toEqual(expected.sort());
      const byPk = new Map(rows.map((row) => [row.subjectPk, row]));
      expect(byPk.get(ready)).toMatchObject({ ready: true, hold: null });
      expect(byPk.get(withQuery)).toMatchObject({ ready: false, openQueries: 1 });
      expect(byPk.get(atSite2)).toMatchObject({ hold: { kind: 'frozen', level: 'subject' } });

      const readyOnly = (
        await as('dm', 'GET', `/api/studies/${studyId}/readiness/subjects?state=ready&size=100`)
      ).json();
      expect(readyOnly.subjects.map((row: { subjectPk: number }) => row.subjectPk)).toEqual(
        expected.filter((row) => row[7] === true).map((row) => row[0]),
      );
      const frozenOnly = (
        await as('dm', 'GET', `/api/studies/${studyId}/readiness/subjects?hold=frozen`)
      ).json();
      expect(frozenOnly.subjects.map((row: { subjectPk: number }) => row.subjectPk)).toEqual([atSite2]);

      const sites = (await as('dm', 'GET', `/api/studies/${studyId}/readiness/sites`)).json();
      for (const site of sites.sites) {
        const own = rows.filter((row) => row.siteId === site.siteId);
        expect(site.subjects).toBe(own.length);
        expect(site.readySubjects).toBe(own.filter((row) => row.ready).length);
        expect(site.openQueries).toBe(own.reduce((sum, row) => sum + (row.openQueries as number), 0));
        expect(site.unsignedCasebooks).toBe(own.filter((row) => row.signature !== 'signed').length);
      }
      expect(sites.study.subjects).toBe(rows.length);
      expect(sites.study.frozenSubjects).toBe(1);
      // The CRA sees the sites they monitor only; the CRC (site 02) sees site 02's subjects only.
      const crcRows = (await as('crc', 'GET', `/api/studies/${studyId}/readiness/subjects?size=100`)).json()
        .subjects;
      expect(crcRows.every((row: { siteId: number }) => row.siteId === site2)).toBe(true);
      expect(
        (await as('crc', 'GET', `/api/studies/${studyId}/readiness/subjects?siteId=${site1}`)).statusCode,
      ).toBe(404);
    });

    /**
     * The board's columns read straight from the tables: queries by state, forms saved with the dash
     * status, forms whose planned items are not all verified (by the form read's own computation),
     * overdue visits of subjects in follow-up, and the latest signature.
     */
    async function ownReading(): Promise<unknown[][]> {
      const db = database().db;
      const current = await currentStudyDefinition(db, studyId);
      if (!current) throw new Error('no definition');
      const plan = await loadSdvPlan(db, studyId);
      const subjects = await db
        .selectFrom('subjects')
        .selectAll()
        .where('study_id', '=', studyId)
        .where('deleted_at', 'is', null)
        .execute();
      const today = new Date(Date.now() + 9 * 3600 * 1000).toISOString().slice(0, 10);
      const rows: unknown[][] = [];
      for (const subject of subjects) {
        const count = async (query: ReturnType<typeof sql<{ n: number }>>) =>
          Number((await query.execute(db)).rows[0]?.n ?? 0);
        const open = await count(
          sql<{
            n: number;
          }>`select count(*) as n from queries where subject_id = ${subject.id} and status = 'open'`,
        );
        const answered = await count(
          sql<{
            n: number;
          }>`select count(*) as n from queries where subject_id = ${subject.id} and status = 'answered'`,
        );
        const dash = await count(
          sql<{
            n: number;
          }>`select count(*) as n from form_instances where subject_id = ${subject.id} and has_data and status = 'dash'`,
        );
        const overdue = await count(sql<{ n: number }>`select count(*) as n from subject_visit_windows
        where subject_id = ${subject.id} and actual_date is null and subject_status = 'ongoing' and latest_date < ${today}`);
        const forms = await db
          .selectFrom('form_instances')
          .select(['visit_key', 'form_key'])
          .where('subject_id', '=', subject.id)
          .where('has_data', '=', true)
          .execute();
        let sdvIncomplete = 0;
        for (const form of forms) {
          const sdv = await loadFormSdv(db, {
            definition: current.definition,
            plan,
            subject,
            visitKey: form.visit_key,
            formKey: form.form_key,
          });
          if (sdv.counts.verifiedItems < sdv.counts.plannedItems) sdvIncomplete += 1;
        }
        const latest = await db
          .selectFrom('signatures')
          .select(['invalidated_at'])
          .where('subject_id', '=', subject.id)
          .orderBy('id', 'desc')
          .executeTakeFirst();
        const signature =
          latest === undefined ? 'none' : latest.invalidated_at === null ? 'signed' : 'invalidated';
        const ready = open + answered + dash + sdvIncomplete + overdue === 0 && signature === 'signed';
        rows.push([subject.id, open, answered, dash, sdvIncomplete, overdue, signature, ready]);
      }
      return rows;
    }

    it('keeps the signing form out of SDV', async () => {
      const subject = await newSubject(site1);
      await as('pi', 'POST', `/api/studies/${studyId}/subjects/${subject}/signature`, {
        password: DEMO_PASSWORD,
      });
      const form = (
        await as('cra', 'GET', formUrl(subject, SIGNING_FORM.visitKey, SIGNING_FORM.formKey))
      ).json();
      expect(form.sdv).toMatchObject({ state: 'notRequired', items: {} });
    });

    it("adds up the sites' figures and the pages' totals as the subject rows say, under every level of hold", async () => {
      // A site frozen, a subject of the other site locked, then the study frozen over both.
      const locked = await newSubject(site1);
      const place = (target: object, kind = 'frozen') =>
        as('dm', 'POST', holdsUrl(), { kind, target, reason: 'Close-out' });
      const lift = (target: object, kind = 'frozen') =>
        as('dm', 'POST', holdsUrl('/lift'), { kind, target, reason: 'Done' });
      expect((await place({ level: 'site', siteId: site2 })).statusCode).toBe(201);
      expect((await place({ level: 'subject', subjectPk: locked }, 'locked')).statusCode).toBe(201);
      const url = (query: string) => `/api/studies/${studyId}/readiness/subjects?${query}`;
      type Row = Record<string, unknown> & { subjectPk: number; siteId: number; subjectId: string };
      const allRows = async (query: string): Promise<{ rows: Row[]; total: number }> => {
        const rows: Row[] = [];
        let total = 0;
        for (let page = 1; ; page += 1) {
          const body = (await as('dm', 'GET', url(`${query}&size=100&page=${page}`))).json();
          rows.push(...body.subjects);
          total = body.total;
          if (body.subjects.length < 100) break;
        }
        return { rows, total };
      };
      const check = async () => {
        const { rows, total } = await allRows('sort=subjectId');
        expect(total).toBe(rows.length);
        const sites = (await as('dm', 'GET', `/api/studies/${studyId}/readiness/sites`)).json();
        const sum = (own: Row[], key: string) => own.reduce((n, row) => n + (row[key] as number), 0);
        const figures = (own: Row[]) => ({
          subjects: own.length,
          readySubjects: own.filter((row) => row.ready).length,
          openQueries: sum(own, 'openQueries'),
          answeredQueries: sum(own, 'answeredQueries'),
          formsMissingRequired: sum(own, 'formsMissingRequired'),
          formsSdvIncomplete: sum(own, 'formsSdvIncomplete'),
          overdueVisits: sum(own, 'overdueVisits'),
          unsignedCasebooks: own.filter((row) => row.signature !== 'signed').length,
          invalidatedSignatures: own.filter((row) => row.signature === 'invalidated').length,
          frozenSubjects: own.filter((row) => (row.hold as { kind: string } | null)?.kind === 'frozen')
            .length,
          lockedSubjects: own.filter((row) => (row.hold as { kind: string } | null)?.kind === 'locked')
            .length,
        });
        for (const site of sites.sites)
          expect(site).toMatchObject(figures(rows.filter((row) => row.siteId === site.siteId)));
        expect(sites.study).toMatchObject(figures(rows));
        // Each filter's total and rows, and the open-queries order, as the rows say.
        for (const [query, keep] of [
          ['state=ready', (row: Row) => row.ready === true],
          ['state=notReady', (row: Row) => row.ready === false],
          ['hold=none', (row: Row) => row.hold === null],
          ['hold=frozen', (row: Row) => (row.hold as { kind: string } | null)?.kind === 'frozen'],
          ['hold=locked', (row: Row) => (row.hold as { kind: string } | null)?.kind === 'locked'],
        ] as const) {
          const filtered = await allRows(query);
          expect(filtered.rows.map((row) => row.subjectPk)).toEqual(
            rows.filter(keep).map((row) => row.subjectPk),
          );
          expect(filtered.total).toBe(filtered.rows.length);
        }
        const byOpenQueries = await allRows('state=notReady&sort=openQueries&order=desc');
        const codePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
        expect(byOpenQueries.rows.map((row) => row.subjectPk)).toEqual(
          rows
            .filter((row) => row.ready === false)
            .sort(
              (a, b) =>
                (b.openQueries as number) - (a.openQueries as number) ||
                codePoint(a.subjectId, b.subjectId) ||
                a.subjectPk - b.subjectPk,
            )
            .map((row) => row.subjectPk),
        );
        // A page past the last: no rows, the same total.
        const past = (await as('dm', 'GET', url('page=99'))).json();
        expect(past).toMatchObject({ subjects: [], total: rows.length });
        return rows;
      };
      const rows = await check();
      expect(rows.find((row) => row.subjectPk === locked)?.hold).toEqual({
        kind: 'locked',
        level: 'subject',
      });
      expect((await place({ level: 'study' })).statusCode).toBe(201);
      await check();
      for (const target of [{ level: 'study' }, { level: 'site', siteId: site2 }])
        expect((await lift(target)).statusCode).toBe(200);
      expect((await lift({ level: 'subject', subjectPk: locked }, 'locked')).statusCode).toBe(200);
      await check();
    });
  },
  { seed: 'demo' },
);
