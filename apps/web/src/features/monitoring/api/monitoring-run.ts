import type { MonitoringRun } from '@cdms/contract';
import type { SignalFilters } from '../lib/signal-filters.ts';

/**
 * What every monitoring read shares: the API's base path, the query keys and the polling while a
 * run is under way. Type imports only: the dashboard's panel reads through here, and a value of the
 * contract's central-monitoring module would bring zod into the dashboard's first load.
 */

export const base = (studyId: number) => `/api/studies/${studyId}/monitoring`;

/** How often a read is asked again while a run is under way. */
export const RUN_POLL_MS = 3000;

export const monitoringKeys = {
  all: (studyId: number) => ['monitoring', studyId] as const,
  page: (studyId: number) => ['monitoring', studyId, 'page'] as const,
  panel: (studyId: number) => ['monitoring', studyId, 'panel'] as const,
  signals: (studyId: number, filters: SignalFilters) => ['monitoring', studyId, 'signals', filters] as const,
};

/** A run that is not finished yet: its figures will change, so ask again. */
export function runUnderWay(run: MonitoringRun | undefined): boolean {
  return run !== undefined && (run.state === 'queued' || run.state === 'running' || run.stale);
}

export function pollWhileRunning(data: { run: MonitoringRun } | undefined): number | false {
  return runUnderWay(data?.run) ? RUN_POLL_MS : false;
}
