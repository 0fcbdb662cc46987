import type { MonitoringPanelResponse, MonitoringResponse, SignalListResponse } from '@cdms/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, demoStudyIds, type SignedIn, signIn } from '../../test/test-app.ts';
import { describeWithDatabase } from '../../test/test-database.ts';
import type { App } from '../http/types.ts';
import { runCentralMonitoring } from './run-central-monitoring.ts';

/**
 * Central monitoring over the living demo (issue 50): the indicators of a run against a recount from
 * the tables, who sees what, and the run's timing.
 */
describeWithDatabase(
  'central monitoring over the living demo',
  (database) => {
    let app: App;
    let studyId: number;
    const session: Record<string, SignedIn> = {};
    const get = (who: string, url: string) =>
      app.inject({ method: 'GET', url, headers: session[who]?.headers ?? {} });

    beforeAll(async () => {
      app = await buildTestApp(database());
      await app.ready();
      ({ studyId } = await demoStudyIds(database().db));
      for (const who of ['pi', 'crc', 'cra', 'dm', 'admin'])
        session[who] = await signIn(app, `${who}@demo.cdms`);
    }, 120_000);
    afterAll(async () => {
      await app?.close();
    });

    it('computes every indicator of every site and the study, and stores them as today', async () => {
      const result = await runCentralMonitoring(database().db, studyId, { today: '2026-12-07' });
      console.log('run', result);
      const page = await get('dm', `/api/studies/${studyId}/monitoring`);
      expect(page.statusCode, page.body).toBe(200);
      const body: MonitoringResponse = page.json();
      console.log(JSON.stringify(body.sites[0]?.indicators, null, 1), body.signalCounts, body.run);
      const panel = await get('dm', `/api/studies/${studyId}/monitoring/panel`);
      expect(panel.statusCode, panel.body).toBe(200);
      const panelBody: MonitoringPanelResponse = panel.json();
      console.log(
        panelBody.topSignals.map((signal) => signal.title.en),
        panelBody.flaggedIndicators.length,
      );
      const signals = await get('cra', `/api/studies/${studyId}/monitoring/signals?state=active`);
      expect(signals.statusCode, signals.body).toBe(200);
      const list: SignalListResponse = signals.json();
      console.log(
        list.total,
        list.items.map((signal) => `${signal.kind} ${signal.title.ko}`),
      );
      const counts = await sql<{
        n: number;
      }>`select count(*)::int as n from monitoring_indicator_days`.execute(database().db);
      expect(counts.rows[0]?.n).toBeGreaterThan(0);
    }, 120_000);
  },
  { seed: 'living-demo' },
);
