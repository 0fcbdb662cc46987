import type {
  MonitoringPanelResponse,
  MonitoringResponse,
  Signal,
  SignalListResponse,
  SiteIndicators,
} from '@cdms/contract';
import { kriKeys, todayInKorea } from '@cdms/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, demoStudyIds, type SignedIn, signIn } from '../../test/test-app.ts';
import { describeWithDatabase } from '../../test/test-database.ts';
import type { App } from '../http/types.ts';
import { queueMonitoringRun } from './monitoring-run-state.ts';
import { runCentralMonitoring } from './run-central-monitoring.ts';
import { claimMonitoringRun, queueChangedStudies, runMonitoringTurn } from './run-monitoring-turn.ts';

/** The seed's run and the test's fall on the same Korean day: one trend point per day. */
const TODAY = todayInKorea();

/**
 * Central monitoring over the living demo (issue 50): a run's indicators against a recount from the
 * tables, who sees what, a planted signal found and acted on across runs, and one run per claim.
 */
describeWithDatabase(
  'central monitoring over the living demo',
  (database) => {
    let app: App;
    let studyId: number;
    const session: Record<string, SignedIn> = {};
    const db = () => database().db;
    const get = (who: string, url: string) =>
      app.inject({ method: 'GET', url, headers: session[who]?.headers ?? {} });
    const post = (who: string, url: string, payload?: unknown) =>
      app.inject({
        method: 'POST',
        url,
        headers: session[who]?.headers ?? {},
        ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
      });
    const page = async (who: string): Promise<MonitoringResponse> => {
      const response = await get(who, `/api/studies/${studyId}/monitoring`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json();
    };
    const signals = async (who: string, query = ''): Promise<SignalListResponse> => {
      const response = await get(who, `/api/studies/${studyId}/monitoring/signals?size=50${query}`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json();
    };
    const indicator = (site: SiteIndicators | undefined, key: string) =>
      site?.indicators.find((entry) => entry.key === key);

    beforeAll(async () => {
      app = await buildTestApp(database());
      await app.ready();
      ({ studyId } = await demoStudyIds(db()));
      for (const who of ['pi', 'crc', 'cra', 'dm', 'admin'])
        session[who] = await signIn(app, `${who}@demo.cdms`);
      await runCentralMonitoring(db(), studyId, { today: TODAY });
    }, 300_000);
    afterAll(async () => {
      await app?.close();
    });

    it('has the seed’s run at first look: the dashboard panel reads a finished run with signals', async () => {
      const response = await get('dm', `/api/studies/${studyId}/monitoring/panel`);
      expect(response.statusCode, response.body).toBe(200);
      const panel: MonitoringPanelResponse = response.json();
      expect(panel.run.state).toBe('done');
      expect(panel.topSignals.length).toBeGreaterThan(0);
      expect(panel.flaggedIndicators.length).toBeGreaterThan(0);
    });

    it('computes each site’s indicators as a recount from the tables finds them', async () => {
      const body = await page('dm');
      expect(body.run.state).toBe('done');
      expect(body.sites.length).toBeGreaterThanOrEqual(3);
      const recount = await sql<{
        site_id: number;
        subjects: number;
        failed: number;
        queries: number;
        values: number;
        verified: number;
        changed: number;
        events: number;
        days: number;
      }>`select s.site_id, count(*)::int as subjects,
          count(*) filter (where s.status = 'screening_failure')::int as failed,
          (select count(*)::int from queries q join subjects qs on qs.id = q.subject_id
            where qs.site_id = s.site_id and qs.deleted_at is null and q.study_id = ${studyId}) as queries,
          (select count(*)::int from item_values iv join form_instances fi on fi.id = iv.form_instance_id
            join subjects vs on vs.id = fi.subject_id
            where vs.site_id = s.site_id and vs.deleted_at is null and not iv.derived and iv.value <> 'null'::jsonb) as values,
          (select count(*)::int from sdv_marks m join subjects ms on ms.id = m.subject_id
            where ms.site_id = s.site_id and ms.deleted_at is null and m.state = 'verified') as verified,
          (select count(*)::int from sdv_marks m join subjects ms on ms.id = m.subject_id
            where ms.site_id = s.site_id and ms.deleted_at is null and m.state = 'changed') as changed,
          (select count(*)::int from report_rows r where r.site_id = s.site_id and r.report = 'adverseEvents') as events,
          sum(greatest(${TODAY}::date - s.consent_date::date, 0))::int as days
        from subjects s where s.study_id = ${studyId} and s.deleted_at is null group by s.site_id`.execute(
        db(),
      );
      expect(recount.rows.length).toBeGreaterThan(0);
      for (const row of recount.rows) {
        const site = body.sites.find((entry) => entry.site.id === row.site_id);
        expect(site?.subjects).toBe(row.subjects);
        expect(indicator(site, 'screeningFailureRate')).toMatchObject({
          numerator: row.failed,
          denominator: row.subjects,
        });
        expect(indicator(site, 'queryRate')).toMatchObject({
          numerator: row.queries,
          denominator: row.values,
        });
        expect(indicator(site, 'queryRate')?.value).toBeCloseTo((row.queries * 100) / row.values, 6);
        expect(indicator(site, 'sdvFindings')).toMatchObject({
          numerator: row.changed,
          denominator: row.verified + row.changed,
        });
        expect(indicator(site, 'adverseEventRate')?.numerator).toBe(row.events);
        expect(indicator(site, 'adverseEventRate')?.denominator).toBeCloseTo(row.days / 30.4375, 6);
      }
      // The study's value over every site: the sum of the sites'.
      const all = body.sites.reduce(
        (sum, site) => ({
          n: sum.n + (indicator(site, 'queryRate')?.numerator ?? 0),
          d: sum.d + (indicator(site, 'queryRate')?.denominator ?? 0),
        }),
        { n: 0, d: 0 },
      );
      expect(indicator(body.sites[0], 'queryRate')?.studyValue).toBeCloseTo((all.n * 100) / all.d, 6);
      // Every site has all eleven with a light, and a one-day trend.
      for (const site of body.sites) {
        expect(site.indicators).toHaveLength(kriKeys.length);
        expect(site.trends.find((trend) => trend.key === 'queryRate')?.points).toEqual([
          { day: TODAY, value: indicator(site, 'queryRate')?.value ?? null },
        ]);
      }
    });

    it('finds the patterns the living demo plants: rounded blood pressures at 02, a copied vital-signs row at 03, slow answers at 03', async () => {
      const list = await signals('dm');
      const summary = list.items.map((signal) => `${signal.kind} ${signal.site.code} ${signal.title.en}`);
      const site = (institution: string) => (signal: Signal) => signal.site.institutionNumber === institution;
      expect(
        list.items.some((signal) => signal.kind === 'digitPreference' && site('02')(signal)),
        summary.join('\n'),
      ).toBe(true);
      expect(
        list.items.some(
          (signal) =>
            signal.kind === 'duplicateRecord' && signal.items.some((item) => item.formKey === 'vitalSigns'),
        ),
        summary.join('\n'),
      ).toBe(true);
      const body = await page('dm');
      const answers = body.sites.map((entry) => ({
        code: entry.site.institutionNumber,
        days: indicator(entry, 'queryAnswerDays')?.value,
      }));
      const slowest = [...answers].sort((a, b) => (b.days ?? 0) - (a.days ?? 0))[0];
      expect(slowest?.code, JSON.stringify(answers)).toBe('03');
    });

    it('shows site staff their own sites’ indicators and no signals; monitors their sites’ signals', async () => {
      const dm = await page('dm');
      const pi = await page('pi');
      const crc = await page('crc');
      expect(pi.sites.length).toBeGreaterThan(0);
      expect(pi.sites.length).toBeLessThan(dm.sites.length);
      expect(crc.sites.map((site) => site.site.code)).not.toEqual(pi.sites.map((site) => site.site.code));
      expect(Object.values(pi.signalCounts).every((count) => count === 0)).toBe(true);
      expect(pi.canActOnSignals).toBe(false);
      expect(dm.canManageLimits).toBe(true);
      const panel = await get('pi', `/api/studies/${studyId}/monitoring/panel`);
      expect(panel.statusCode).toBe(200);
      expect((panel.json() as MonitoringPanelResponse).topSignals).toEqual([]);
      expect((await get('pi', `/api/studies/${studyId}/monitoring/signals`)).statusCode).toBe(403);
      const dmPanel: MonitoringPanelResponse = (
        await get('dm', `/api/studies/${studyId}/monitoring/panel`)
      ).json();
      expect(dmPanel.topSignals.length).toBeGreaterThan(0);
      const craSites = new Set((await page('cra')).sites.map((site) => site.site.id));
      for (const signal of (await signals('cra')).items) expect(craSites.has(signal.site.id)).toBe(true);
    });

    it('finds a planted outlier, raises its queries, and keeps its state across runs', async () => {
      // A temperature typed without its decimal point (36.5 → 365) in a subject's series of visits.
      const planted = await sql<{ form_instance_id: number; subject_id: number; visit_key: string }>`
        select fi.id as form_instance_id, fi.subject_id, fi.visit_key from form_instances fi
        join item_values iv on iv.form_instance_id = fi.id and iv.item_key = 'bodyTemperature'
        join subjects s on s.id = fi.subject_id
        where s.study_id = ${studyId} and fi.form_key = 'vitalSigns' and fi.visit_key = 'v3'
          and not exists (select 1 from holds h where h.study_id = s.study_id and h.lifted_at is null
            and (h.subject_id = s.id or h.site_id = s.site_id or h.level = 'study'))
          and (select count(*) from form_instances o join item_values ov on ov.form_instance_id = o.id
               and ov.item_key = 'bodyTemperature' where o.subject_id = fi.subject_id and o.form_key = 'vitalSigns') >= 4
        order by fi.id limit 1`.execute(db());
      const target = planted.rows[0];
      if (!target) throw new Error('the living demo has no subject with four temperatures');
      await db()
        .updateTable('item_values')
        .set({ value: '365' })
        .where('form_instance_id', '=', target.form_instance_id)
        .where('item_key', '=', 'bodyTemperature')
        .execute();
      await runCentralMonitoring(db(), studyId, { today: TODAY });
      const fingerprint = `:vitalSigns.bodyTemperature:${target.subject_id}:v3`;
      const row = await db()
        .selectFrom('monitoring_signals')
        .select(['id', 'state', 'active'])
        .where('fingerprint', 'like', `seriesOutlier:%${fingerprint}`)
        .executeTakeFirstOrThrow();
      const list = await signals('dm', '&kind=seriesOutlier');
      const signal = list.items.find((item) => item.id === row.id) as Signal;
      expect(signal.subjects.map((subject) => subject.subjectId)).toEqual([target.subject_id]);
      expect(signal.items).toMatchObject([
        { visitKey: 'v3', formKey: 'vitalSigns', itemKey: 'bodyTemperature' },
      ]);
      expect(signal.numbers.value).toBe(365);
      expect(signal.title.ko).toContain('튑니다');
      expect(signal.chart.kind).toBe('series');

      const raised = await post('dm', `/api/studies/${studyId}/monitoring/signals/${row.id}/queries`, {
        text: 'Please check the temperature against the source.',
      });
      expect(raised.statusCode, raised.body).toBe(201);
      const { queryIds } = raised.json() as { queryIds: number[] };
      expect(queryIds).toHaveLength(1);
      const query = await db()
        .selectFrom('queries')
        .select(['subject_id', 'visit_key', 'form_key', 'item_path', 'kind', 'status'])
        .where('id', '=', queryIds[0] as number)
        .executeTakeFirstOrThrow();
      expect(query).toEqual({
        subject_id: target.subject_id,
        visit_key: 'v3',
        form_key: 'vitalSigns',
        item_path: 'v3.vitalSigns.bodyTemperature',
        kind: 'manual',
        status: 'open',
      });
      const audits = await db()
        .selectFrom('audit_events')
        .select(['event_type', 'after'])
        .where('entity_type', '=', 'monitoring_signal')
        .where('entity_id', '=', String(row.id))
        .execute();
      expect(audits).toMatchObject([
        { event_type: 'monitoring.signal_queried', after: { state: 'queried', queryIds } },
      ]);

      // A re-run keeps it queried, with its queries; a dismissed signal stays dismissed.
      const other = (await signals('dm')).items.find((item) => item.id !== row.id && item.state === 'open');
      if (!other) throw new Error('no second signal in the living demo');
      const dismissed = await post('dm', `/api/studies/${studyId}/monitoring/signals/${other.id}/dismiss`, {
        reason: 'Explained by the site.',
      });
      expect(dismissed.statusCode, dismissed.body).toBe(200);
      expect((dismissed.json() as { signal: Signal }).signal.state).toBe('dismissed');
      expect(
        (await post('dm', `/api/studies/${studyId}/monitoring/signals/${other.id}/note`, { text: 'x' }))
          .statusCode,
      ).toBe(409);
      await runCentralMonitoring(db(), studyId, { today: TODAY });
      const after = await db()
        .selectFrom('monitoring_signals')
        .select(['id', 'state', 'active', 'resolution'])
        .where('id', 'in', [row.id, other.id])
        .orderBy('id')
        .execute();
      expect(after.find((entry) => entry.id === row.id)).toMatchObject({
        state: 'queried',
        active: true,
        resolution: { queryIds },
      });
      expect(after.find((entry) => entry.id === other.id)?.state).toBe('dismissed');
      expect((await signals('dm', '&state=active')).items.some((item) => item.id === other.id)).toBe(false);

      // Corrected, the outlier is no longer found: inactive, kept with its state.
      await db()
        .updateTable('item_values')
        .set({ value: '36.5' })
        .where('form_instance_id', '=', target.form_instance_id)
        .where('item_key', '=', 'bodyTemperature')
        .execute();
      await runCentralMonitoring(db(), studyId, { today: TODAY });
      expect(
        await db()
          .selectFrom('monitoring_signals')
          .select(['state', 'active'])
          .where('id', '=', row.id)
          .executeTakeFirst(),
      ).toEqual({ state: 'queried', active: false });
      expect((await signals('dm')).items.some((item) => item.id === row.id)).toBe(false);
    }, 120_000);

    it('notes a signal for the next visit, and refuses a signal out of the reader’s scope', async () => {
      const open = (await signals('dm')).items.find((item) => item.state === 'open');
      if (!open) throw new Error('no open signal');
      const noted = await post('dm', `/api/studies/${studyId}/monitoring/signals/${open.id}/note`, {
        text: 'Review the source documents at the next visit.',
      });
      expect(noted.statusCode, noted.body).toBe(200);
      expect((noted.json() as { signal: Signal }).signal).toMatchObject({
        state: 'noted',
        resolution: { text: 'Review the source documents at the next visit.' },
      });
      expect(
        (await post('pi', `/api/studies/${studyId}/monitoring/signals/${open.id}/note`, { text: 'x' }))
          .statusCode,
      ).toBe(403);
      const craSites = new Set((await page('cra')).sites.map((site) => site.site.id));
      const elsewhere = await db()
        .selectFrom('monitoring_signals')
        .select('id')
        .where('study_id', '=', studyId)
        .where('site_id', 'not in', [...craSites, -1])
        .executeTakeFirst();
      if (elsewhere)
        expect(
          (
            await post('cra', `/api/studies/${studyId}/monitoring/signals/${elsewhere.id}/dismiss`, {
              reason: 'x',
            })
          ).statusCode,
        ).toBe(404);
    });

    it('sets the study’s tolerance limits with a reason, audited, and judges by them', async () => {
      const put = (who: string, payload: unknown) =>
        app.inject({
          method: 'PUT',
          url: `/api/studies/${studyId}/monitoring/tolerance-limits`,
          headers: session[who]?.headers ?? {},
          payload: payload as Record<string, unknown>,
        });
      const strict = { key: 'queryRate', warning: 0, limit: 0, direction: 'high', minimumDenominator: 0 };
      expect((await put('cra', { limits: [strict], reason: 'Tighter' })).statusCode).toBe(403);
      const refused = await put('dm', {
        limits: [{ ...strict, warning: 5, limit: 1 }],
        reason: 'Wrong way round',
      });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().error.code).toBe('monitoring_limits_invalid');
      const saved = await put('dm', { limits: [strict], reason: 'Tighter' });
      expect(saved.statusCode, saved.body).toBe(200);
      const body = await page('dm');
      expect(body.limits.find((limit) => limit.key === 'queryRate')).toEqual(strict);
      for (const site of body.sites) {
        const rate = indicator(site, 'queryRate');
        expect(rate?.light).toBe(rate?.value ? 'red' : rate?.value === 0 ? 'green' : 'none');
      }
      const audit = await db()
        .selectFrom('audit_events')
        .select(['reason', 'after'])
        .where('event_type', '=', 'monitoring.limits_changed')
        .executeTakeFirstOrThrow();
      expect(audit).toMatchObject({ reason: 'Tighter', after: { limits: [strict] } });
    });

    it('runs a requested run in the background once, with its progress, and one claim gets a run', async () => {
      const requested = await post('cra', `/api/studies/${studyId}/monitoring/runs`);
      expect(requested.statusCode, requested.body).toBe(202);
      expect(requested.json().run.state).toBe('queued');
      // Two processes claim at once: one gets the run.
      const claims = await Promise.all([claimMonitoringRun(db()), claimMonitoringRun(db())]);
      expect(claims.filter((claim) => claim !== undefined)).toHaveLength(1);
      // Given back (as a dead process's lease runs out), the worker's turn runs it to the end.
      await db()
        .updateTable('monitoring_runs')
        .set({ lease_until: new Date(0) })
        .where('study_id', '=', studyId)
        .execute();
      expect(await runMonitoringTurn(db(), { refreshMinutes: 5, today: TODAY })).toBe(true);
      const run = (await page('dm')).run;
      expect(run.state).toBe('done');
      expect(run.progress.done).toBe(run.progress.total);
      expect(run.progress.total).toBeGreaterThan(11);
      expect(run.stale).toBe(false);
      // Nothing changed since: the study is not queued again; a queued run is not queued twice.
      await queueChangedStudies(db(), 0);
      const state = await db()
        .selectFrom('monitoring_runs')
        .select('state')
        .where('study_id', '=', studyId)
        .executeTakeFirstOrThrow();
      expect(state.state).toBe('done');
      expect(await queueMonitoringRun(db(), studyId, null)).toBe(true);
      expect(await queueMonitoringRun(db(), studyId, null)).toBe(false);
    }, 120_000);
  },
  { seed: 'living-demo' },
);
