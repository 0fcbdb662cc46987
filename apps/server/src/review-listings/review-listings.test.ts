import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, demoStudyIds, type SignedIn, signIn } from '../../test/test-app.ts';
import { describeWithDatabase } from '../../test/test-database.ts';
import type { App } from '../http/types.ts';

/** Issue 50 item 4 through the API: the listing against a recount, filters, sort, scope, marks, bulk queries. */
describeWithDatabase(
  'review listings API',
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
    const listingUrl = (table: string, query = '') =>
      `/api/studies/${studyId}/review-listings/${table}${query}`;
    const formUrl = (subjectId: number, visit: string, form: string) =>
      `/api/studies/${studyId}/subjects/${subjectId}/forms/${visit}/${form}`;

    async function newSubject(who: 'pi' | 'crc', siteId: number, initials: string): Promise<number> {
      const created = await as(who, 'POST', `/api/studies/${studyId}/subjects`, {
        siteId,
        consentDate: '2025-03-03',
        initials,
      });
      expect(created.statusCode).toBe(201);
      return created.json().id;
    }

    async function save(
      who: string,
      subject: number,
      form: string,
      values: object,
      version: number,
      reasons?: Record<string, string>,
    ) {
      const saved = await as(who, 'PUT', formUrl(subject, 'v1', form), {
        values,
        version,
        ...(reasons ? { reasons } : {}),
      });
      expect(saved.statusCode, saved.body).toBe(200);
    }

    async function screeningNumber(subject: number): Promise<string> {
      const row = await database()
        .db.selectFrom('subjects')
        .select('screening_number')
        .where('id', '=', subject)
        .executeTakeFirstOrThrow();
      return row.screening_number;
    }

    /** The listing's rows recounted the plain way: every instance with data of the form, by site. */
    async function recount(formKey: string, siteIds?: number[]): Promise<number> {
      let query = database()
        .db.selectFrom('form_instances as fi')
        .innerJoin('subjects as s', 's.id', 'fi.subject_id')
        .select((eb) => eb.fn.countAll<number>().as('c'))
        .where('s.study_id', '=', studyId)
        .where('s.deleted_at', 'is', null)
        .where('fi.form_key', '=', formKey)
        .where('fi.has_data', '=', true);
      if (siteIds) query = query.where('s.site_id', 'in', siteIds);
      return Number((await query.executeTakeFirstOrThrow()).c);
    }

    let s1: number;
    let s2: number;
    let s3: number;

    beforeAll(async () => {
      app = await buildTestApp(database());
      await app.ready();
      for (const who of ['pi', 'si', 'crc', 'cra', 'dm', 'admin'])
        session[who] = await signIn(app, `${who}@demo.cdms`);
      const demo = await demoStudyIds(database().db);
      studyId = demo.studyId;
      site1 = demo.siteId('01');
      site2 = demo.siteId('02');
      s1 = await newSubject('pi', site1, 'RLA');
      s2 = await newSubject('pi', site1, 'RLB');
      s3 = await newSubject('crc', site2, 'RLC');
      await save('pi', s1, 'vitalSigns', { heartRate: 90, result: 'normal' }, 0);
      await save('pi', s2, 'vitalSigns', { heartRate: 60 }, 0);
      await save('crc', s3, 'vitalSigns', { heartRate: 75 }, 0);
      await save(
        'pi',
        s1,
        'medicalHistory',
        { histories: [{ content: 'Otitis' }, { content: 'Asthma' }, { content: 'Rhinitis' }] },
        0,
      );
    });
    afterAll(async () => {
      await app.close();
    });

    it('lists the tables of the definition, a repeating group as its own', async () => {
      const tables = await as('dm', 'GET', `/api/studies/${studyId}/review-listings`);
      expect(tables.statusCode).toBe(200);
      const names = tables.json().tables.map((table: { name: string }) => table.name);
      expect(names).toContain('vitalSigns');
      expect(names).toContain('medicalHistory__histories');
    });

    it('counts and pages rows as a recount does, with labels for codes, and keeps site users to their sites', async () => {
      const all = await as('dm', 'GET', listingUrl('vitalSigns', '?size=20'));
      expect(all.statusCode, all.body).toBe(200);
      const body = all.json();
      expect(body.total).toBe(await recount('vitalSigns'));
      expect(body.rows.length).toBe(Math.min(20, body.total));
      expect(body.columns.map((column: { key: string }) => column.key)).toContain('heartRate');
      const mine = await as('dm', 'GET', listingUrl('vitalSigns', `?search=${await screeningNumber(s1)}`));
      const row = mine.json().rows[0];
      expect(row.cells.heartRate).toBe('90');
      // A coded value reads as its label, not its code.
      expect(row.cells.result).not.toBe('normal');
      expect(row.cells.result).toBeTruthy();

      const crc = await as('crc', 'GET', listingUrl('vitalSigns', '?size=100'));
      expect(crc.json().total).toBe(await recount('vitalSigns', [site2]));
      expect(crc.json().rows.every((r: { siteId: number }) => r.siteId === site2)).toBe(true);
      expect((await as('crc', 'GET', listingUrl('vitalSigns', `?siteId=${site1}`))).statusCode).toBe(404);
      expect((await as('dm', 'GET', listingUrl('noSuchForm'))).statusCode).toBe(404);
      expect((await as('dm', 'GET', listingUrl('vitalSigns', '?sort=item:nope'))).statusCode).toBe(422);

      // Pages follow each other without gaps or repeats.
      const total = body.total as number;
      const seen: number[] = [];
      for (let page = 1; (page - 1) * 20 < total; page += 1) {
        const next = await as('dm', 'GET', listingUrl('vitalSigns', `?size=20&page=${page}`));
        seen.push(...next.json().rows.map((r: { formInstanceId: number }) => r.formInstanceId));
      }
      expect(new Set(seen).size).toBe(total);
    });

    it('sorts by an item value in SQL and filters by site and visit', async () => {
      const sorted = await as(
        'dm',
        'GET',
        listingUrl('vitalSigns', `?siteId=${site1}&sort=item:heartRate&dir=desc&size=100`),
      );
      const rates = sorted
        .json()
        .rows.map((r: { cells: Record<string, string | null> }) => r.cells.heartRate)
        .filter((value: string | null) => value !== null)
        .map(Number);
      expect(rates).toEqual([...rates].sort((a, b) => b - a));
      expect(sorted.json().total).toBe(await recount('vitalSigns', [site1]));
      const visit = await as('dm', 'GET', listingUrl('vitalSigns', '?visitKey=v1&size=100'));
      expect(visit.json().rows.every((r: { visitKey: string }) => r.visitKey === 'v1')).toBe(true);
    });

    it('gives a repeating group one row per row of the group', async () => {
      const group = await as(
        'dm',
        'GET',
        listingUrl('medicalHistory__histories', `?search=${await screeningNumber(s1)}`),
      );
      expect(group.statusCode, group.body).toBe(200);
      expect(
        group.json().rows.map((r: { row: number; cells: { content: string } }) => [r.row, r.cells.content]),
      ).toEqual([
        [0, 'Otitis'],
        [1, 'Asthma'],
        [2, 'Rhinitis'],
      ]);
    });

    it('marks rows reviewed (CRA, DM), audited, and shows a save through the form as changed since review', async () => {
      const search = `?search=${await screeningNumber(s2)}`;
      const before = (await as('cra', 'GET', listingUrl('vitalSigns', search))).json().rows[0];
      expect(before.review).toBe('not_reviewed');
      expect(
        (
          await as('pi', 'POST', listingUrl('vitalSigns', '/review'), {
            formInstanceIds: [before.formInstanceId],
          })
        ).statusCode,
      ).toBe(403);
      // The CRC's subject (site 02) with the CRA's: all or nothing, nothing marked.
      const crcRow = (
        await as('crc', 'GET', listingUrl('vitalSigns', `?search=${await screeningNumber(s3)}`))
      ).json().rows[0];
      const marked = await as('cra', 'POST', listingUrl('vitalSigns', '/review'), {
        formInstanceIds: [before.formInstanceId],
      });
      expect(marked.statusCode, marked.body).toBe(200);
      expect(marked.json()).toEqual({ marked: 1 });
      const after = (await as('cra', 'GET', listingUrl('vitalSigns', search))).json().rows[0];
      expect(after.review).toBe('reviewed');
      expect(after.reviewedBy).toBeTruthy();
      const audit = await database()
        .db.selectFrom('audit_events')
        .select(['after'])
        .where('event_type', '=', 'review.marked')
        .where('subject_id', '=', s2)
        .execute();
      expect(audit).toHaveLength(1);

      await save('pi', s2, 'vitalSigns', { heartRate: 61 }, after.version, { heartRate: 'Source says 61' });
      const changed = (await as('cra', 'GET', listingUrl('vitalSigns', search))).json().rows[0];
      expect(changed.review).toBe('changed');
      const filtered = await as('dm', 'GET', listingUrl('vitalSigns', '?review=changed&size=100'));
      expect(filtered.json().rows.map((r: { subjectPk: number }) => r.subjectPk)).toContain(s2);
      const notReviewed = await as('dm', 'GET', listingUrl('vitalSigns', '?review=not_reviewed&size=100'));
      expect(notReviewed.json().rows.map((r: { subjectPk: number }) => r.subjectPk)).not.toContain(s2);

      // DM sees every site: a site-02 row and a site-01 row in one request.
      const both = await as('dm', 'POST', listingUrl('vitalSigns', '/review'), {
        formInstanceIds: [crcRow.formInstanceId, before.formInstanceId],
      });
      expect(both.json()).toEqual({ marked: 2 });
      expect((await as('cra', 'GET', listingUrl('vitalSigns', search))).json().rows[0].review).toBe(
        'reviewed',
      );
    });

    it('raises one query per item with one text, all or nothing, audited once more as a whole', async () => {
      const url = `/api/studies/${studyId}/review-listings/bulk-queries`;
      const target = (subjectPk: number, itemPath: string) => ({
        subjectPk,
        visitKey: 'v1',
        formKey: 'vitalSigns',
        itemPath,
      });
      const queryCount = async () =>
        Number(
          (
            await sql<{ c: number }>`select count(*) as c from queries where study_id = ${studyId}`.execute(
              database().db,
            )
          ).rows[0]?.c,
        );
      const start = await queryCount();
      // An item the form does not have refuses the whole request.
      const unknown = await as('cra', 'POST', url, {
        targets: [target(s1, 'heartRate'), target(s1, 'noSuchItem')],
        text: 'Please check.',
      });
      expect(unknown.statusCode).toBe(422);
      expect(await queryCount()).toBe(start);
      expect(
        (await as('crc', 'POST', url, { targets: [target(s3, 'heartRate')], text: 'x' })).statusCode,
      ).toBe(403);

      const raised = await as('cra', 'POST', url, {
        targets: [target(s1, 'heartRate'), target(s2, 'heartRate'), target(s1, 'heartRate')],
        text: 'Please check against the source.',
      });
      expect(raised.statusCode, raised.body).toBe(201);
      expect(raised.json().queryIds).toHaveLength(2);
      expect(await queryCount()).toBe(start + 2);
      const summary = await database()
        .db.selectFrom('audit_events')
        .select('after')
        .where('event_type', '=', 'review.queries_raised')
        .execute();
      expect(summary.at(-1)?.after).toMatchObject({ count: 2, queryIds: raised.json().queryIds });

      // The same item again: it already has an open query, nothing is raised.
      const again = await as('cra', 'POST', url, {
        targets: [target(s1, 'bodyTemperature'), target(s1, 'heartRate')],
        text: 'Again.',
      });
      expect(again.statusCode).toBe(409);
      expect(again.json().error.code).toBe('review_query_exists');
      expect(await queryCount()).toBe(start + 2);

      // The site sees them in its query list.
      const list = await as('pi', 'GET', `/api/studies/${studyId}/queries?size=100`);
      const ids = list.json().queries.map((query: { id: number }) => query.id);
      for (const id of raised.json().queryIds) expect(ids).toContain(id);
    });

    it('exports the filtered listing as CSV with the columns shown, audited', async () => {
      const file = await as(
        'dm',
        'GET',
        listingUrl('vitalSigns', `/export?siteId=${site1}&columns=heartRate`),
      );
      expect(file.statusCode, file.body).toBe(200);
      const lines = file.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n');
      expect(lines.length - 1).toBe(await recount('vitalSigns', [site1]));
      expect(lines[0]).toContain('Screening number');
      expect(lines[0]).not.toContain('Body temperature');
      const exported = await database()
        .db.selectFrom('audit_events')
        .select('after')
        .where('event_type', '=', 'review_listing.exported')
        .execute();
      expect(exported).toHaveLength(1);
    });
  },
  { seed: 'demo' },
);
