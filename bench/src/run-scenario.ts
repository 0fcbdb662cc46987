import { percentile, runLoad } from './load/run-load.ts';
import type { Scenario } from './scenarios.ts';
import { cpuMilliseconds, PeakRss, postgresCpuMilliseconds } from './server/process-usage.ts';
import type { RunningServer } from './server/start-server.ts';
import type { Workload } from './workload.ts';

export interface ScenarioResult {
  scenario: string;
  db: string;
  subjects: number;
  users: number;
  requests: number;
  errors: number;
  errorSamples: string[];
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  requestsPerSecond: number;
  /** The server process's CPU (user + system) per request; with PGlite this includes the database. */
  serverCpuMsPerRequest: number;
  /** Every PostgreSQL process's CPU per request (PostgreSQL runs only); null on PGlite. */
  postgresCpuMsPerRequest: number | null;
  peakRssMb: number;
  durationSeconds: number;
}

/**
 * One scenario against the running server: sign the virtual users in, warm up (not measured: the
 * JIT and the caches), then the measured run with the server's CPU time and peak memory around it.
 */
export async function runScenario(
  server: RunningServer,
  scenario: Scenario,
  context: { db: 'postgres' | 'pglite'; workload: Workload; durationMs: number; warmupMs: number },
): Promise<ScenarioResult> {
  const prepared = await scenario.prepare(server.url, context.workload);
  try {
    await runLoad({ users: prepared.users, durationMs: context.warmupMs, minimumRequests: 1 });
    const cpuBefore = cpuMilliseconds(server.pid);
    const postgresBefore = context.db === 'postgres' ? postgresCpuMilliseconds() : 0;
    const peak = new PeakRss(server.pid);
    const result = await runLoad({
      users: prepared.users,
      durationMs: context.durationMs,
      minimumRequests: scenario.minimumRequests ?? 1,
    });
    const peakRss = peak.stop();
    const cpu = cpuMilliseconds(server.pid) - cpuBefore;
    const postgres = context.db === 'postgres' ? postgresCpuMilliseconds() - postgresBefore : null;
    const requests = Math.max(1, result.requests);
    return {
      scenario: scenario.name,
      db: context.db,
      subjects: context.workload.subjects,
      users: scenario.users,
      requests: result.requests,
      errors: result.errors,
      errorSamples: result.errorSamples,
      p50Ms: percentile(result.latencies, 50),
      p95Ms: percentile(result.latencies, 95),
      p99Ms: percentile(result.latencies, 99),
      requestsPerSecond: result.requests / (result.elapsedMs / 1000),
      serverCpuMsPerRequest: cpu / requests,
      postgresCpuMsPerRequest: postgres === null ? null : postgres / requests,
      peakRssMb: peakRss / (1024 * 1024),
      durationSeconds: result.elapsedMs / 1000,
    };
  } finally {
    prepared.close();
  }
}
