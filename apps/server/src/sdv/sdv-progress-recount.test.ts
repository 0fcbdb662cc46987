import { sdvSubjectSortKeys, sdvSubjectStateFilters } from '@cdms/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, demoStudyIds, type SignedIn, signIn } from '../../test/test-app.ts';
import { describeWithDatabase } from '../../test/test-database.ts';
import type { App } from '../http/types.ts';

/**
 * The SDV progress reads its sums from `sdv_site_totals` and its list from `subject_facts` alone,
 * off indexes in the list's order (issue 46). Over subjects with forms verified in full, in part or
 * not at all, and verified values changed since, every state, sort, order, search and page gives the rows, order and
 * total the statements it ran before give — a count over the facts joined to the subjects and
 * sites, kept here as the recount.
 */
describeWithDatabase(
  'SDV progress from totals and indexes against a recount',
  (database) => {
    let app: App;
    let studyId: number;
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

    async function save(who: string, subjectPk: number, visit: string, form: string, values: object) {
      const current = (await as(who, 'GET', formUrl(subjectPk, visit, form))).json();
      const saved = await as(who, 'PUT', formUrl(subjectPk, visit, form), {
        values,
        version: current.version ?? 0,
        ...(current.version ? { reasons: { heartRate: 'Source says otherwise' } } : {}),
      });
      expect(saved.statusCode).toBe(200);
    }

    async function verify(subjectPk: number, visitKey: string, formKey: string) {
      expect(
        (await as('cra', 'POST', sdvUrl('/verify-form'), { subjectPk, visitKey, formKey })).statusCode,
      ).toBe(200);
    }

    beforeAll(async () => {
      app = await buildTestApp(database());
      await app.ready();
      for (const who of ['pi', 'crc', 'cra', 'dm']) session[who] = await signIn(app, `${who}@demo.cdms`);
      const demo = await demoStudyIds(database().db);
      studyId = demo.studyId;
      // Subjects at two sites: verified in full, in part, not at all, and some with a verified value
      // changed since; the percents, states and counts differ and tie.
      for (let index = 0; index < 14; index += 1) {
        const [siteId, who] = index % 2 === 0 ? [demo.siteId('01'), 'pi'] : [demo.siteId('02'), 'crc'];
        const created = await as(who, 'POST', `/api/studies/${studyId}/subjects`, {
          siteId,
          consentDate: '2025-03-03',
          initials: 'REC',
        });
        expect(created.statusCode).toBe(201);
        const subjectPk: number = created.json().id;
        await save(who, subjectPk, 'v1', 'vitalSigns', vitals);
        if (index % 5 !== 4) await save(who, subjectPk, 'v2', 'inclusionExclusionEval', { eligible: 'Y' });
        if (index % 3 !== 2) await verify(subjectPk, 'v1', 'vitalSigns');
        if (index % 3 === 0 && index % 5 !== 4) await verify(subjectPk, 'v2', 'inclusionExclusionEval');
        if (index % 4 === 1) await save(who, subjectPk, 'v1', 'vitalSigns', { ...vitals, heartRate: 72 });
      }
    }, 300_000);
    afterAll(async () => {
      await app.close();
    });

    /** The statements the read-outs ran before: every subject's facts row, with its subject and site. */
    const subjectsBefore = (sites: number[]) => sql`(
      select d.subject_id, d.site_id, d.sdv_planned_items as planned_items,
        d.sdv_verified_items as verified_items, d.sdv_changed_items as changed_items,
        d.sdv_planned_forms as planned_forms, d.sdv_complete_forms as complete_forms,
        s.screening_number, d.randomization_number, sites.code as site_code, s.id
      from subject_facts d
      join subjects s on s.id = d.subject_id
      join sites on sites.id = d.site_id
      where d.study_id = ${studyId} and d.site_id in (${sql.join(sites)})) d`;

    it('sums the sites as the facts rows add up', async () => {
      for (const who of ['cra', 'dm']) {
        const response = (await as(who, 'GET', sdvUrl('/sites'))).json();
        const sites: number[] = response.sites.map((site: { siteId: number }) => site.siteId);
        const recount = await sql<Record<string, number>>`
          select site_id, count(*)::int as subjects,
            count(*) filter (where planned_forms = complete_forms)::int as complete_subjects,
            sum(planned_items)::int as planned_items, sum(verified_items)::int as verified_items,
            sum(changed_items)::int as changed_items, sum(planned_forms)::int as planned_forms,
            sum(complete_forms)::int as complete_forms
          from ${subjectsBefore(sites)} group by site_id`.execute(database().db);
        const bySite = new Map(recount.rows.map((row) => [row.site_id, row]));
        for (const site of response.sites) {
          const row = bySite.get(site.siteId);
          expect([
            site.subjects,
            site.completeSubjects,
            site.counts.plannedItems,
            site.counts.verifiedItems,
          ]).toEqual([
            row?.subjects ?? 0,
            row?.complete_subjects ?? 0,
            row?.planned_items ?? 0,
            row?.verified_items ?? 0,
          ]);
          expect([site.counts.changedItems, site.counts.plannedForms, site.counts.completeForms]).toEqual([
            row?.changed_items ?? 0,
            row?.planned_forms ?? 0,
            row?.complete_forms ?? 0,
          ]);
        }
        expect(response.study.subjects).toBe(recount.rows.reduce((sum, row) => sum + (row.subjects ?? 0), 0));
        expect(response.study.counts.verifiedItems).toBeGreaterThan(0);
        expect(response.study.counts.changedItems).toBeGreaterThan(0);
      }
    });

    it('lists every state, sort, order, search and page as the join over the subjects did', async () => {
      const db = database().db;
      const sites: number[] = (await as('cra', 'GET', sdvUrl('/sites')))
        .json()
        .sites.map((site: { siteId: number }) => site.siteId);
      const sortOf = {
        subjectId: sql`d.screening_number collate "C"`,
        site: sql`d.site_code collate "C"`,
        percent: sql`case when d.planned_items = 0 then 100 else (d.verified_items * 100) / d.planned_items end`,
        plannedItems: sql`d.planned_items`,
        verifiedItems: sql`d.verified_items`,
        changedItems: sql`d.changed_items`,
      };
      const stateOf = {
        all: sql`true`,
        incomplete: sql`d.complete_forms < d.planned_forms`,
        complete: sql`d.complete_forms = d.planned_forms`,
        changed: sql`d.changed_items > 0`,
      };
      let compared = 0;
      for (const state of sdvSubjectStateFilters) {
        for (const sort of sdvSubjectSortKeys) {
          for (const order of ['asc', 'desc'] as const) {
            for (const search of [undefined, '0', 'zz-none']) {
              const matches = search
                ? sql`(strpos(lower(d.screening_number), ${search}) > 0
                    or strpos(lower(coalesce(d.randomization_number, '')), ${search}) > 0)`
                : sql`true`;
              const recount = await sql<{ subject_id: number }>`
                select d.subject_id from ${subjectsBefore(sites)}
                where ${stateOf[state]} and ${matches}
                order by ${sortOf[sort]} ${order === 'desc' ? sql`desc` : sql`asc`}, d.screening_number collate "C", d.id`.execute(
                db,
              );
              const expected = recount.rows.map((row) => row.subject_id);
              const pages = Math.max(1, Math.ceil(expected.length / 10)) + 1;
              for (const page of [1, 2, pages]) {
                const query = new URLSearchParams({ state, sort, order, page: String(page), size: '10' });
                if (search) query.set('subject', search);
                const response = await as('cra', 'GET', sdvUrl(`/subjects?${query}`));
                expect(response.statusCode).toBe(200);
                const body = response.json();
                const label = `${query}`;
                expect(body.total, label).toBe(expected.length);
                expect(
                  body.subjects.map((row: { subjectPk: number }) => row.subjectPk),
                  label,
                ).toEqual(expected.slice((page - 1) * 10, page * 10));
                compared += 1;
              }
            }
          }
        }
      }
      expect(compared).toBe(sdvSubjectStateFilters.length * sdvSubjectSortKeys.length * 2 * 3 * 3);
    }, 300_000);
  },
  { seed: 'demo' },
);
