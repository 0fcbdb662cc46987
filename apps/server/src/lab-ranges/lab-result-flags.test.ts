import { numericLabTests, type StudyDefinition } from '@cdms/study';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, demoStudyIds, type SignedIn, signIn } from '../../test/test-app.ts';
import { describeWithDatabase } from '../../test/test-database.ts';
import type { Database } from '../db/schema.ts';
import type { App } from '../http/types.ts';
import { rebuildReadModel } from '../read-model/rebuild-read-model.ts';
import { currentStudyDefinition } from '../studies/study-definitions.ts';

/**
 * Issue 43 item 13: the lab page lists flags stored in the read model (`lab_results`). The reference
 * here is the listing as it was computed per request before — every numeric result of a labTest form
 * joined to the range the site had in force on its specimen date for the subject's sex and age, and
 * flagged with a limit itself normal — and the stored rows must equal it over the living demo, and
 * again after ranges are changed, added, retired and a subject's sex changes.
 */
type Flagged = Record<
  string,
  {
    flag: string | null;
    unit: string | null;
    low: number | null;
    high: number | null;
    normal: string | null;
    significance: string | null;
    value: number;
    specimen: string | null;
  }
>;

async function referenceFlags(
  db: Kysely<Database>,
  studyId: number,
  definition: StudyDefinition,
): Promise<Flagged> {
  const resultItems = sql.join(numericLabTests(definition).map((test) => sql`${test.resultItem}`));
  const rows = await sql<{
    key: string;
    flag: string | null;
    unit: string | null;
    low: number | null;
    high: number | null;
    normal: string | null;
    significance: string | null;
    value: number;
    specimen_date: string | null;
  }>`
    with results as (
      select fi.id as form_instance_id, s.site_id, iv.item_key,
        substr(iv.item_key, 1, length(iv.item_key) - 6) as test_key,
        (iv.value #>> '{}')::double precision as value,
        sd.value #>> '{}' as specimen_date,
        nv.value #>> '{}' as normal,
        sv.value #>> '{}' as significance,
        sf.gender, sf.age
      from form_instances fi
      join subjects s on s.id = fi.subject_id and s.deleted_at is null
      join item_values iv on iv.form_instance_id = fi.id and iv.item_key in (${resultItems})
        and jsonb_typeof(iv.value) = 'number'
      left join item_values sd on sd.form_instance_id = fi.id and sd.item_key = 'specimenDate'
      left join item_values nv on nv.form_instance_id = fi.id
        and nv.item_key = substr(iv.item_key, 1, length(iv.item_key) - 6) || 'Normal'
      left join item_values sv on sv.form_instance_id = fi.id
        and sv.item_key = substr(iv.item_key, 1, length(iv.item_key) - 6) || 'Significance'
      left join subject_facts sf on sf.subject_id = s.id
      where fi.form_key = 'labTest' and fi.has_data and s.study_id = ${studyId}
    )
    select r.form_instance_id || '|' || r.test_key as key, r.value, r.specimen_date, r.normal, r.significance,
      lr.unit, lr.low, lr.high,
      case when lr.id is null then null
        when lr.high is not null and r.value > lr.high then 'H'
        when lr.low is not null and r.value < lr.low then 'L'
        else 'N' end as flag
    from results r
    left join lateral (
      select id, unit, low, high from lab_ranges
      where site_id = r.site_id and test_key = r.test_key and retired_at is null
        and r.specimen_date is not null and effective_from <= r.specimen_date::date
        and (sex is null or sex = r.gender)
        and (age_min is null or age_min <= r.age) and (age_max is null or age_max >= r.age)
      order by effective_from desc, (sex is null), id desc
      limit 1
    ) lr on true`.execute(db);
  return Object.fromEntries(
    rows.rows.map((row) => [
      row.key,
      {
        flag: row.flag,
        unit: row.unit,
        low: row.low,
        high: row.high,
        normal: row.normal,
        significance: row.significance,
        value: Number(row.value),
        specimen: row.specimen_date,
      },
    ]),
  );
}

async function storedFlags(db: Kysely<Database>, studyId: number): Promise<Flagged> {
  const rows = await db.selectFrom('lab_results').selectAll().where('study_id', '=', studyId).execute();
  return Object.fromEntries(
    rows.map((row) => [
      `${row.form_instance_id}|${row.test_key}`,
      {
        flag: row.flag,
        unit: row.unit,
        low: row.low,
        high: row.high,
        normal: row.normal,
        significance: row.significance,
        value: row.value,
        specimen: row.specimen_date,
      },
    ]),
  );
}

describeWithDatabase(
  'stored lab result flags',
  (database) => {
    let app: App;
    let db: Kysely<Database>;
    let studyId: number;
    let site1: number;
    let definition: StudyDefinition;
    let dm: SignedIn;
    const expectStoredEqualsReference = async () => {
      const reference = await referenceFlags(db, studyId, definition);
      expect(Object.keys(reference).length).toBeGreaterThan(50);
      expect(await storedFlags(db, studyId)).toEqual(reference);
    };
    const asDm = (method: 'POST' | 'PUT', url: string, payload?: object) =>
      app.inject({ method, url, headers: dm.headers, ...(payload ? { payload } : {}) });

    beforeAll(async () => {
      db = database().db;
      app = await buildTestApp(database());
      await app.ready();
      dm = await signIn(app, 'dm@demo.cdms');
      const demo = await demoStudyIds(db);
      studyId = demo.studyId;
      site1 = demo.siteId('01');
      definition = (await currentStudyDefinition(db, studyId))?.definition as StudyDefinition;
    });
    afterAll(async () => {
      await app.close();
    });

    it('stores the flag the listing computed, for every lab result of the living demo', async () => {
      await expectStoredEqualsReference();
      const flags = Object.values(await storedFlags(db, studyId)).map((row) => row.flag);
      expect(flags).toContain('H');
      expect(flags).toContain('N');
    });

    it('lists the stored rows out of range or CS, paged and counted', async () => {
      const reference = await referenceFlags(db, studyId, definition);
      const listedCount = Object.values(reference).filter(
        (row) => row.flag === 'H' || row.flag === 'L' || row.significance === 'CS',
      ).length;
      const page = await app.inject({
        method: 'GET',
        url: `/api/studies/${studyId}/lab-results?size=10&page=1`,
        headers: dm.headers,
      });
      expect(page.json().total).toBe(listedCount);
      expect(page.json().results.length).toBe(Math.min(10, listedCount));
      const beyond = await app.inject({
        method: 'GET',
        url: `/api/studies/${studyId}/lab-results?size=100&page=50`,
        headers: dm.headers,
      });
      expect(beyond.json()).toMatchObject({ total: listedCount, results: [] });
    });

    it('re-flags the affected values when a range is changed, added or retired, in its transaction', async () => {
      const ranges = await db
        .selectFrom('lab_ranges')
        .selectAll()
        .where('site_id', '=', site1)
        .where('retired_at', 'is', null)
        .execute();
      const glucose = ranges.find((range) => range.test_key === 'glucose');
      const cholesterol = ranges.find((range) => range.test_key === 'cholesterol');
      if (!glucose || !cholesterol) throw new Error('the demo has glucose and cholesterol ranges at site 01');
      const request = (range: typeof glucose, overrides: Record<string, unknown>) => ({
        siteId: range.site_id,
        testKey: range.test_key,
        unit: range.unit,
        low: range.low,
        high: range.high,
        sex: range.sex,
        ageMin: range.age_min,
        ageMax: range.age_max,
        effectiveFrom: range.effective_from,
        ...overrides,
      });
      const before = await storedFlags(db, studyId);
      // Narrower: values that were normal become high (a value equal to the limit stays normal).
      const changed = await asDm(
        'PUT',
        `/api/studies/${studyId}/lab-ranges/${glucose.id}`,
        request(glucose, { low: 80, high: 90 }),
      );
      expect(changed.statusCode, changed.body).toBe(200);
      await expectStoredEqualsReference();
      expect(await storedFlags(db, studyId)).not.toEqual(before);
      // A newer range for women only, in force from long ago: the women's values follow it.
      const added = await asDm(
        'POST',
        `/api/studies/${studyId}/lab-ranges`,
        request(cholesterol, { sex: 'F', low: null, high: 150, effectiveFrom: '2000-01-01' }),
      );
      expect(added.statusCode, added.body).toBe(201);
      await expectStoredEqualsReference();
      // A range in force only from a later day than any specimen: nothing changes.
      const later = await asDm(
        'POST',
        `/api/studies/${studyId}/lab-ranges`,
        request(cholesterol, { high: 100, effectiveFrom: '2099-01-01' }),
      );
      expect(later.statusCode, later.body).toBe(201);
      await expectStoredEqualsReference();
      // Retired: the site's results of the test have no range any more.
      const retired = await asDm('POST', `/api/studies/${studyId}/lab-ranges/${cholesterol.id}/retire`);
      expect(retired.statusCode, retired.body).toBe(200);
      await expectStoredEqualsReference();
      // Moved to another test: both tests' results are flagged again.
      const moved = await asDm(
        'PUT',
        `/api/studies/${studyId}/lab-ranges/${glucose.id}`,
        request(glucose, { testKey: 'cholesterol', low: null, high: 180 }),
      );
      expect(moved.statusCode, moved.body).toBe(200);
      await expectStoredEqualsReference();
    });

    it("re-flags a subject's results when a save changes the sex their ranges were chosen by", async () => {
      // Site 01 has a cholesterol range for women only since the test above: a changed sex moves it.
      const pi = await signIn(app, 'pi@demo.cdms');
      const subjects = await db
        .selectFrom('lab_results')
        .select('subject_id')
        .distinct()
        .where('site_id', '=', site1)
        .where('test_key', '=', 'cholesterol')
        .execute();
      let saved = 0;
      for (const { subject_id: subjectId } of subjects) {
        const url = `/api/studies/${studyId}/subjects/${subjectId}/forms/v1/demographicInfo`;
        const form = (await app.inject({ method: 'GET', url, headers: pi.headers })).json();
        const entered = Object.fromEntries(
          Object.entries(form.values as Record<string, unknown>).filter(([key]) => !(key in form.derived)),
        );
        const response = await app.inject({
          method: 'PUT',
          url,
          headers: pi.headers,
          payload: {
            values: { ...entered, gender: entered.gender === 'F' ? 'M' : 'F' },
            version: form.version,
            reasons: { gender: 'Entered wrongly' },
          },
        });
        if (response.statusCode === 200) saved += 1;
      }
      expect(saved).toBeGreaterThan(0);
      await expectStoredEqualsReference();
    });

    it("carries a site's new code to its stored rows, which the listing sorts by", async () => {
      const admin = await signIn(app, 'admin@demo.cdms');
      const site = await db
        .selectFrom('sites')
        .select(['code', 'name', 'institution_number'])
        .where('id', '=', site1)
        .executeTakeFirstOrThrow();
      const renamed = await app.inject({
        method: 'PUT',
        url: `/api/admin/studies/${studyId}/sites/${site1}`,
        headers: admin.headers,
        payload: { code: 'ZZ-01', name: site.name, institutionNumber: site.institution_number },
      });
      expect(renamed.statusCode, renamed.body).toBe(200);
      const codes = await db
        .selectFrom('lab_results')
        .select('site_code')
        .distinct()
        .where('site_id', '=', site1)
        .execute();
      expect(codes).toEqual([{ site_code: 'ZZ-01' }]);
    });

    it('the read-model rebuild stores the same rows the saves and range changes left', async () => {
      const kept = await storedFlags(db, studyId);
      await db.deleteFrom('lab_results').execute();
      await rebuildReadModel(db, { studyId });
      expect(await storedFlags(db, studyId)).toEqual(kept);
    });
  },
  { seed: 'living-demo' },
);
