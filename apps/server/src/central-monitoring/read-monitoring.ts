import { type MonitoringResponse, signalStates } from '@cdms/contract';
import type { Kysely } from 'kysely';
import { can } from '../auth/permissions.ts';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import { signalsInScope } from './list-signals.ts';
import { readMonitoringRun } from './monitoring-run-state.ts';
import { monitoringScopes, sitesInScope } from './monitoring-scope.ts';
import { readSiteIndicators } from './read-indicators.ts';
import { readToleranceLimits } from './tolerance-limits.ts';

/**
 * The central monitoring page: the run, the study's limits, each site's indicators in the reader's
 * scope with their trends, and the active signals counted by state (none for site staff).
 */
export async function readMonitoring(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
): Promise<MonitoringResponse> {
  const scopes = monitoringScopes(principal, studyId);
  const [run, limits, sites] = await Promise.all([
    readMonitoringRun(db, studyId),
    readToleranceLimits(db, studyId),
    sitesInScope(db, studyId, scopes.indicators),
  ]);
  const siteIndicators = await readSiteIndicators(db, studyId, sites, scopes.indicators, limits, {
    trends: true,
  });
  const signalCounts = Object.fromEntries(
    signalStates.map((state) => [state, 0]),
  ) as MonitoringResponse['signalCounts'];
  if (scopes.signals === 'all' || scopes.signals.size > 0) {
    const counts = await signalsInScope(db, studyId, scopes.signals)
      .where('s.active', '=', true)
      .select(['s.state', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('s.state')
      .execute();
    for (const row of counts) signalCounts[row.state] = Number(row.n);
  }
  return {
    run,
    limits,
    sites: siteIndicators,
    signalCounts,
    canManageLimits: can(principal, 'monitoring.limits', { studyId }),
    canActOnSignals: can(principal, 'monitoring.review', { studyId }),
  };
}
