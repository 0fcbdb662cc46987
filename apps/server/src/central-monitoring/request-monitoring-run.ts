import type { MonitoringRun } from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import { queueMonitoringRun, readMonitoringRun } from './monitoring-run-state.ts';

/**
 * A monitor or data manager asks for a run now: queued unless one is queued or running already (then
 * that one answers). Not audited: a run changes no data, only the results it stores.
 */
export async function requestMonitoringRun(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
): Promise<MonitoringRun> {
  await queueMonitoringRun(db, studyId, principal.user.id);
  return readMonitoringRun(db, studyId);
}
