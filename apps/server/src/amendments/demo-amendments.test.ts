import type {
  AmendmentImpactResponse,
  AmendmentListResponse,
  AmendmentMigrationsResponse,
  AmendmentResponse,
} from '@cdms/contract';
import { todayInKorea } from '@cdms/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { compactPdfText } from '../../test/pdf-text.ts';
import { buildTestApp, type SignedIn, signIn } from '../../test/test-app.ts';
import { describeWithDatabase } from '../../test/test-database.ts';
import { formTablePages } from '../form-tables/load-form-table-pages.ts';
import { loadTablesContext } from '../form-tables/tables-context.ts';
import type { App } from '../http/types.ts';

/**
 * The living demo's amendments (issue 49 item 7): AM-01 published on TMP-2026 with the data manager's
 * signature and its migration run where its approval is in effect (site 01); AM-02 drafted with its
 * impact analyzed, waiting for approval. What the demo shows is checked against the stored data read
 * here on its own.
 */
describeWithDatabase(
  "amendments: the living demo's AM-01 (published, migrated) and AM-02 (drafted, analyzed)",
  (database) => {
    let app: App;
    let dm: SignedIn;
    let base: string;
    let studyId: number;
    let published: number;
    let drafted: number;

    const get = async <T>(url: string) => {
      const response = await app.inject({
        method: 'GET',
        url,
        headers: { ...dm.headers, 'accept-language': 'en' },
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json() as T;
    };

    beforeAll(async () => {
      app = await buildTestApp(database(), {}, { migrationWorker: false });
      await app.ready();
      dm = await signIn(app, 'dm@demo.cdms');
      const study = await database()
        .db.selectFrom('study_amendments')
        .select('study_id')
        .executeTakeFirstOrThrow();
      studyId = study.study_id;
      base = `/api/studies/${studyId}/amendments`;
      const list = await get<AmendmentListResponse>(base);
      expect(list.amendments.map((amendment) => [amendment.number, amendment.status])).toEqual([
        ['AM-02', 'draft'],
        ['AM-01', 'published'],
      ]);
      drafted = list.amendments[0]?.id as number;
      published = list.amendments[1]?.id as number;
    });
    afterAll(async () => {
      await app.close();
    });

    it('AM-01 is published with a signature and moved the subjects of the site where it is in effect', async () => {
      const { amendment, changeSet } = await get<AmendmentResponse>(`${base}/${published}`);
      expect(amendment).toMatchObject({
        fromVersion: '1.0.0',
        toVersion: '1.0.1',
        contentHash: expect.stringMatching(/^[0-9a-f]{64}$/),
        publishedBy: { name: expect.any(String) },
      });
      expect(new Set(changeSet?.changes.map((change) => change.kind))).toEqual(
        new Set(['formAdded', 'itemAdded', 'itemReevaluated', 'codesRecoded']),
      );
      const { db } = database();
      // The sites whose approval of AM-01 is in effect today: their subjects moved, the others wait.
      const today = todayInKorea();
      const approved = new Set(
        amendment.sites
          .filter((site) => site.effectiveOn !== null && site.effectiveOn <= today)
          .map((site) => site.siteId),
      );
      expect(approved.size).toBeGreaterThan(0);
      expect(approved.size).toBeLessThan(amendment.sites.length);
      const bySite = await sql<{ siteId: number; version: string; subjects: number }>`
        select site_id as "siteId", definition_version as version, count(*)::int as subjects
        from subjects where study_id = ${studyId} and deleted_at is null
        group by site_id, definition_version`.execute(db);
      const others = bySite.rows.filter((row) => !approved.has(row.siteId));
      expect(others.length).toBeGreaterThan(0);
      expect(others.map((row) => row.version)).toEqual(others.map(() => '1.0.0'));
      const inApproved = bySite.rows.filter((row) => approved.has(row.siteId));
      const count = (version: string) =>
        inApproved.filter((row) => row.version === version).reduce((sum, row) => sum + row.subjects, 0);
      const moved = count('1.0.1');
      const waiting = count('1.0.0');
      expect(moved).toBeGreaterThan(0);

      const { migrations, subjects } = await get<AmendmentMigrationsResponse>(
        `${base}/${published}/migrations`,
      );
      // One automatic job per approved site, done; what they moved and left held adds up.
      expect(migrations).toHaveLength(approved.size);
      for (const job of migrations)
        expect(job).toMatchObject({ scope: 'site', automatic: true, status: 'done', failed: 0 });
      expect(migrations.reduce((sum, job) => sum + job.migrated, 0)).toBe(moved);
      expect(migrations.reduce((sum, job) => sum + job.held, 0)).toBe(waiting);
      expect(subjects).toEqual({
        onFromVersion: bySite.rows.reduce(
          (sum, row) => sum + (row.version === '1.0.0' ? row.subjects : 0),
          0,
        ),
        onToVersion: moved,
      });
      // One audit record per moved subject, with the amendment's number as the reason; their forms
      // are all on the new version.
      const audited = await sql<{ records: number }>`
        select count(*)::int as records from audit_events
        where event_type = 'subject.migrated' and reason = 'AM-01' and study_id = ${studyId}`.execute(db);
      expect(audited.rows[0]?.records).toBe(moved);
      const stale = await sql<{ forms: number }>`
        select count(*)::int as forms from form_instances f join subjects s on s.id = f.subject_id
        where s.definition_version = '1.0.1' and f.definition_version <> '1.0.1'`.execute(db);
      expect(stale.rows[0]?.forms).toBe(0);
    });

    it('exports the re-coded vital-sign results as of the current version, or as entered', async () => {
      const { db } = database();
      const screeningNumbers = new Map(
        (
          await db
            .selectFrom('subjects')
            .select(['id', 'screening_number'])
            .where('study_id', '=', studyId)
            .execute()
        ).map((row) => [row.screening_number, row.id]),
      );
      const resultsOf = async (valuesAsOf: 'current' | 'entered') => {
        const scope = { studyId, formKeys: ['vitalSigns'] };
        const context = await loadTablesContext(db, { scope, valuesAsOf }, 500);
        const results = new Map<string, unknown>();
        for (const table of context.tables)
          for await (const page of formTablePages(db, scope, table, context))
            for (const row of page.rows)
              results.set(`${screeningNumbers.get(row.subject)}|${row.visit}`, row.values.result);
        return results;
      };
      const current = await resultsOf('current');
      const entered = await resultsOf('entered');
      // AM-01 re-coded abnormalNcs → ncs and abnormalCs → cs. As of the current version no old code is
      // left, whether the subject was moved or waits; as entered, each result is the code its site
      // entered, so every row's current result is its entered one mapped.
      expect([...entered.keys()].sort()).toEqual([...current.keys()].sort());
      expect(new Set(current.values())).not.toContain('abnormalNcs');
      expect(new Set(current.values())).not.toContain('abnormalCs');
      const mapped = (code: unknown) => ({ abnormalNcs: 'ncs', abnormalCs: 'cs' })[code as string] ?? code;
      for (const [key, result] of entered) expect(current.get(key), key).toBe(mapped(result));
      // The stored old codes (subjects not yet moved) and the results AM-01's migration re-coded (its
      // audit's value before) are exactly the rows whose entered code is an old one.
      const stored = await sql<{ key: string }>`
        select s.id || '|' || f.visit_key as key from item_values v
        join form_instances f on f.id = v.form_instance_id join subjects s on s.id = f.subject_id
        where s.study_id = ${studyId} and s.deleted_at is null and f.form_key = 'vitalSigns'
          and v.item_key = 'result' and v.value::text in ('"abnormalNcs"', '"abnormalCs"')`.execute(db);
      const migrated = await sql<{ key: string }>`
        select subject_id || '|' || split_part(entity_id, '.', 1) as key from audit_events
        where event_type = 'data.item_changed' and actor_label = 'amendment-migration AM-01'
          and entity_id like '%.vitalSigns.result' and study_id = ${studyId}`.execute(db);
      const oldCodes = [...entered].filter(
        ([, result]) => result === 'abnormalNcs' || result === 'abnormalCs',
      );
      expect(oldCodes.length).toBeGreaterThan(0);
      expect(oldCodes.map(([key]) => key).sort()).toEqual(
        [...stored.rows, ...migrated.rows].map((row) => row.key).sort(),
      );
      // The demo's data manager has such an export, done.
      const exports = await db
        .selectFrom('data_exports')
        .select(['options', 'state'])
        .where('study_id', '=', studyId)
        .execute();
      expect(exports).toContainEqual({
        options: expect.objectContaining({ valuesAsOf: 'entered' }),
        state: 'done',
      });
    });

    it('AM-02 is ready: a range widened, a choice re-coded', async () => {
      const { changeSet, amendment } = await get<AmendmentResponse>(`${base}/${drafted}`);
      expect(amendment).toMatchObject({ fromVersion: '1.0.1', toVersion: '1.0.2', status: 'draft' });
      expect(changeSet?.ready).toBe(true);
      expect(changeSet?.questions).toEqual([]);
      expect(new Set(changeSet?.changes.map((change) => change.kind))).toEqual(
        new Set(['itemReevaluated', 'codesRecoded']),
      );
    });

    it('counts what the stored data says, and pages it by kind', async () => {
      const { impact } = await get<AmendmentImpactResponse>(`${base}/${drafted}/impact`);
      expect(impact?.current).toBe(true);
      const { db } = database();
      // No site has approved AM-02 yet: every subject is listed as waiting.
      const live = await sql<{ subjects: number }>`
        select count(*)::int as subjects from subjects
        where study_id = ${studyId} and deleted_at is null`.execute(db);
      expect(impact?.byKind.siteNotInEffect.rows).toBe(live.rows[0]?.subjects);
      // Each stored discharge smell is re-coded.
      const recoded = await sql<{ values: number }>`
        select count(*)::int as values from item_values v
        join form_instances f on f.id = v.form_instance_id join subjects s on s.id = f.subject_id
        where s.study_id = ${studyId} and s.deleted_at is null and v.item_key = 'dischargeSmell'
          and not v.derived`.execute(db);
      expect(recoded.rows[0]?.values).toBeGreaterThan(0);
      expect(impact?.byKind.valueRecoded.rows).toBe(recoded.rows[0]?.values);

      const page = await get<{
        rows: { kind: string; formKey: string; form: string; before: unknown; after: unknown }[];
        total: number;
      }>(`${base}/${drafted}/impact/rows?kind=valueRecoded&size=25`);
      expect(page.total).toBe(impact?.byKind.valueRecoded.rows);
      expect(page.rows.length).toBe(Math.min(25, page.total));
      for (const row of page.rows)
        expect([row.before, row.after]).toSatisfy(
          ([before, after]: unknown[]) =>
            (before === 'odorless' && after === 'none') || (before === 'odorous' && after === 'foul'),
        );
    });

    it('prints the change set and the analysis as a PDF to file, in Korean and English', async () => {
      const { impact } = await get<AmendmentImpactResponse>(`${base}/${drafted}/impact`);
      for (const [lang, words] of [
        ['en', ['Amendmentimpactanalysis', 'AM-02', 'Valuesrecoded']],
        ['ko', ['프로토콜변경의영향분석', 'AM-02', '코드가바뀌는값']],
      ] as const) {
        const response = await app.inject({
          method: 'GET',
          url: `${base}/${drafted}/impact.pdf?lang=${lang}`,
          headers: dm.headers,
        });
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-type']).toContain('application/pdf');
        const text = compactPdfText(response.rawPayload);
        for (const word of words) expect(text).toContain(word);
        expect(text).toContain(`${impact?.byKind.valueRecoded.rows}`);
      }
    });

    it('is no longer current once a site date changes, and current again after a new run', async () => {
      const detail = await get<AmendmentResponse>(`${base}/${drafted}`);
      const sites = detail.amendment.sites.map((site) => ({
        siteId: site.siteId,
        effectiveOn: '2020-01-01',
      }));
      const changed = await app.inject({
        method: 'PUT',
        url: `${base}/${drafted}`,
        headers: dm.headers,
        payload: {
          number: 'AM-02',
          reason: detail.amendment.reason,
          sites,
          declarations: detail.declarations,
        },
      });
      expect(changed.statusCode).toBe(200);
      expect((await get<AmendmentImpactResponse>(`${base}/${drafted}/impact`)).impact?.current).toBe(false);
      const rerun = await app.inject({
        method: 'POST',
        url: `${base}/${drafted}/impact`,
        headers: dm.headers,
      });
      expect(rerun.statusCode).toBe(200);
      const { impact } = rerun.json() as AmendmentImpactResponse;
      expect(impact?.current).toBe(true);
      // Every site's approval is in effect now.
      expect(impact?.byKind.siteNotInEffect).toEqual({ rows: 0, subjects: 0 });
    });
  },
  { seed: 'living-demo' },
);
