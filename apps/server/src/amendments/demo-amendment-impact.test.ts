import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AmendmentImpactResponse, AmendmentListResponse, AmendmentResponse } from '@cdms/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, type SignedIn, signIn } from '../../test/test-app.ts';
import { describeWithDatabase } from '../../test/test-database.ts';
import type { App } from '../http/types.ts';

/** The PDF's text as poppler's pdftotext reads it, without white space (a line may wrap anywhere). */
function pdfText(pdf: Buffer): string {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'cdms-impact-pdf-'));
  try {
    const file = path.join(directory, 'impact.pdf');
    fs.writeFileSync(file, pdf);
    const result = spawnSync('pdftotext', ['-raw', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`pdftotext failed: ${result.stderr}`);
    return result.stdout.replace(/\s+/g, '');
  } finally {
    fs.rmSync(directory, { recursive: true, force: true });
  }
}

/**
 * The living demo's amendment AM-01 (issue 49 items 3 and 7): drafted on TMP-2026 with its impact
 * analyzed. Its counts are checked against the stored data read here on its own: every subject at a
 * site whose approval is not in effect, and every saved vital signs form that the new required item
 * leaves incomplete, are in the drill-down.
 */
describeWithDatabase(
  "amendments: the living demo's AM-01 and its impact",
  (database) => {
    let app: App;
    let dm: SignedIn;
    let base: string;
    let amendmentId: number;

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
      app = await buildTestApp(database());
      await app.ready();
      dm = await signIn(app, 'dm@demo.cdms');
      const study = await database()
        .db.selectFrom('study_amendments')
        .select('study_id')
        .executeTakeFirstOrThrow();
      base = `/api/studies/${study.study_id}/amendments`;
      const list = await get<AmendmentListResponse>(base);
      expect(list.amendments.map((amendment) => [amendment.number, amendment.status])).toEqual([
        ['AM-01', 'draft'],
      ]);
      amendmentId = list.amendments[0]?.id as number;
    });
    afterAll(async () => {
      await app.close();
    });

    it('is ready: a form added, an item added, a range widened, nothing left to declare', async () => {
      const { changeSet, amendment } = await get<AmendmentResponse>(`${base}/${amendmentId}`);
      expect(amendment.toVersion).toBe('1.0.1');
      expect(changeSet?.ready).toBe(true);
      expect(changeSet?.questions).toEqual([]);
      expect(new Set(changeSet?.changes.map((change) => change.kind))).toEqual(
        new Set(['formAdded', 'itemAdded', 'itemReevaluated']),
      );
    });

    it('counts what the stored data says, and pages it by kind', async () => {
      const { impact } = await get<AmendmentImpactResponse>(`${base}/${amendmentId}/impact`);
      expect(impact?.current).toBe(true);
      const { db } = database();
      const notInEffect = await sql<{ subjects: number }>`
        select count(*)::int as subjects from subjects s
        left join study_amendment_sites a on a.site_id = s.site_id and a.amendment_id = ${amendmentId}
        where s.study_id = (select study_id from study_amendments where id = ${amendmentId})
          and s.deleted_at is null and (a.effective_on is null or a.effective_on > current_date)`.execute(db);
      expect(impact?.byKind.siteNotInEffect).toEqual({
        rows: notInEffect.rows[0]?.subjects,
        subjects: notInEffect.rows[0]?.subjects,
      });
      expect(impact?.byKind.siteNotInEffect.rows).toBeGreaterThan(0);
      // The new required respiratory rate: saved vital signs forms that were complete become incomplete.
      const completeVitals = await sql<{ forms: number }>`
        select count(*)::int as forms from form_instances f join subjects s on s.id = f.subject_id
        where s.deleted_at is null and f.form_key = 'vitalSigns' and f.has_data and f.status = 'check'`.execute(
        db,
      );
      expect(impact?.byKind.formIncomplete.rows).toBe(completeVitals.rows[0]?.forms);

      const page = await get<{
        rows: { kind: string; formKey: string; form: string; item: null }[];
        total: number;
      }>(`${base}/${amendmentId}/impact/rows?kind=formIncomplete&size=25`);
      expect(page.total).toBe(impact?.byKind.formIncomplete.rows);
      expect(page.rows.length).toBe(Math.min(25, page.total));
      expect(new Set(page.rows.map((row) => `${row.kind} ${row.formKey}`))).toEqual(
        new Set(['formIncomplete vitalSigns']),
      );
      // Named in the reader's language, as the drill-down shows them.
      expect(page.rows[0]).toMatchObject({ form: 'Vital signs', item: null });
    });

    it('prints the change set and the analysis as a PDF to file, in Korean and English', async () => {
      const { impact } = await get<AmendmentImpactResponse>(`${base}/${amendmentId}/impact`);
      for (const [lang, words] of [
        ['en', ['Amendmentimpactanalysis', 'AM-01', 'Formsthatbecomeincomplete', 'Vitalsigns']],
        ['ko', ['프로토콜변경의영향분석', 'AM-01', '입력미완료가되는양식']],
      ] as const) {
        const response = await app.inject({
          method: 'GET',
          url: `${base}/${amendmentId}/impact.pdf?lang=${lang}`,
          headers: dm.headers,
        });
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-type']).toContain('application/pdf');
        const text = pdfText(response.rawPayload);
        for (const word of words) expect(text).toContain(word);
        expect(text).toContain(`${impact?.byKind.formIncomplete.rows}`);
      }
    });

    it('is no longer current once a site date changes, and current again after a new run', async () => {
      const detail = await get<AmendmentResponse>(`${base}/${amendmentId}`);
      const sites = detail.amendment.sites.map((site) => ({
        siteId: site.siteId,
        effectiveOn: '2020-01-01',
      }));
      const changed = await app.inject({
        method: 'PUT',
        url: `${base}/${amendmentId}`,
        headers: dm.headers,
        payload: {
          number: 'AM-01',
          reason: detail.amendment.reason,
          sites,
          declarations: detail.declarations,
        },
      });
      expect(changed.statusCode).toBe(200);
      expect((await get<AmendmentImpactResponse>(`${base}/${amendmentId}/impact`)).impact?.current).toBe(
        false,
      );
      const rerun = await app.inject({
        method: 'POST',
        url: `${base}/${amendmentId}/impact`,
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
