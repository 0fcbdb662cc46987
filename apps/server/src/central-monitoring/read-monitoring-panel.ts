import type { MonitoringPanelResponse } from '@cdms/contract';
import type { Kysely } from 'kysely';
import { can } from '../auth/permissions.ts';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import { signalsInScope } from './list-signals.ts';
import { readMonitoringRun } from './monitoring-run-state.ts';
import { monitoringScopes, sitesInScope } from './monitoring-scope.ts';
import { readSiteIndicators } from './read-indicators.ts';
import { presentSignal } from './signal-presenter.ts';
import { readToleranceLimits, severityOf } from './tolerance-limits.ts';

const PANEL_SIGNALS = 5;
const PANEL_INDICATORS = 5;

/**
 * The dashboard's analysis panel, from the stored run only: the strongest open active signals in the
 * reader's scope (none for site staff) on the index (study_id, strength desc, id), and the indicators
 * past a limit, worst first.
 */
export async function readMonitoringPanel(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
): Promise<MonitoringPanelResponse> {
  const scopes = monitoringScopes(principal, studyId);
  const [run, limits, sites] = await Promise.all([
    readMonitoringRun(db, studyId),
    readToleranceLimits(db, studyId),
    sitesInScope(db, studyId, scopes.indicators),
  ]);
  const topSignals =
    scopes.signals === 'all' || scopes.signals.size > 0
      ? (
          await signalsInScope(db, studyId, scopes.signals)
            .where('s.active', '=', true)
            .where('s.state', '=', 'open')
            .selectAll('s')
            .select([
              'sites.code as site_code',
              'sites.name as site_name',
              'sites.institution_number as site_institution_number',
            ])
            .orderBy('s.strength', 'desc')
            .orderBy('s.id')
            .limit(PANEL_SIGNALS)
            .execute()
        ).map(presentSignal)
      : [];
  const siteIndicators = await readSiteIndicators(db, studyId, sites, scopes.indicators, limits, {
    trends: false,
  });
  const flaggedIndicators = siteIndicators
    .flatMap(({ site, indicators }) => indicators.map((indicator) => ({ site, indicator })))
    .filter(({ indicator }) => severityOf(indicator.light) > 0)
    .sort((a, b) => severityOf(b.indicator.light) - severityOf(a.indicator.light))
    .slice(0, PANEL_INDICATORS);
  return {
    run,
    topSignals,
    flaggedIndicators,
    canOpenPage: can(principal, 'subject.read', { studyId }),
  };
}
