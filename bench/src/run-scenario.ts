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
  /** Server processes the users were spread over (`--servers`). */
  servers: number;
  requests: number;
  errors: number;
  errorSamples: string[];
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  requestsPerSecond: number;
  /**
   * The server processes' CPU (user + system, all of them together) per request; with PGlite this
   * includes the database.
   */
  serverCpuMsPerRequest: number;
  /** Every PostgreSQL process's CPU per request (PostgreSQL runs only); null on PGlite. */
  postgresCpuMsPerRequest: number | null;
  /**
   * This process's own CPU per request: the load generator shares the machine's cores with the
   * server and the database, as pgbench's client does in the reference run.
   */
  loadGeneratorCpuMsPerRequest: number;
  /**
   * The busiest server process's CPU over the run's time, in cores: near 1, its one JavaScript
   * thread is the limit, whatever cores are left (GC and I/O helper threads count too).
   */
  busiestServerCores: number;
  /** The largest peak resident set of one server process. */
  peakRssMb: number;
  durationSeconds: number;
}

/**
 * One scenario against the running server: sign the virtual users in, warm up (not measured: the
 * JIT and the caches), then the measured run with the server's CPU time and peak memory around it.
 */
export async function runScenario(
  servers: readonly RunningServer[],
  scenario: Scenario,
  context: { db: 'postgres' | 'pglite'; workload: Workload; durationMs: number; warmupMs: number },
): Promise<ScenarioResult> {
  const prepared = await scenario.prepare(
    servers.map((server) => server.url),
    context.workload,
  );
  const serverCpu = () => servers.map((server) => cpuMilliseconds(server.pid));
  try {
    await runLoad({ users: prepared.users, durationMs: context.warmupMs, minimumRequests: 1 });
    const cpuBefore = serverCpu();
    const loadGeneratorBefore = cpuMilliseconds(process.pid);
    const postgresBefore = context.db === 'postgres' ? postgresCpuMilliseconds() : 0;
    const peaks = servers.map((server) => new PeakRss(server.pid));
    const result = await runLoad({
      users: prepared.users,
      durationMs: context.durationMs,
      minimumRequests: scenario.minimumRequests ?? 1,
    });
    const peakRss = Math.max(...peaks.map((peak) => peak.stop()));
    const loadGenerator = cpuMilliseconds(process.pid) - loadGeneratorBefore;
    const cpuByServer = serverCpu().map((after, index) => after - (cpuBefore[index] ?? 0));
    const cpu = cpuByServer.reduce((sum, value) => sum + value, 0);
    const postgres = context.db === 'postgres' ? postgresCpuMilliseconds() - postgresBefore : null;
    const requests = Math.max(1, result.requests);
    return {
      scenario: scenario.name,
      db: context.db,
      subjects: context.workload.subjects,
      users: scenario.users,
      servers: servers.length,
      requests: result.requests,
      errors: result.errors,
      errorSamples: result.errorSamples,
      p50Ms: percentile(result.latencies, 50),
      p95Ms: percentile(result.latencies, 95),
      p99Ms: percentile(result.latencies, 99),
      requestsPerSecond: result.requests / (result.elapsedMs / 1000),
      serverCpuMsPerRequest: cpu / requests,
      postgresCpuMsPerRequest: postgres === null ? null : postgres / requests,
      loadGeneratorCpuMsPerRequest: loadGenerator / requests,
      busiestServerCores: Math.max(...cpuByServer) / Math.max(1, result.elapsedMs),
      peakRssMb: peakRss / (1024 * 1024),
      durationSeconds: result.elapsedMs / 1000,
    };
  } finally {
    prepared.close();
  }
}
