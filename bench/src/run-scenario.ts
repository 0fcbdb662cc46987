import { percentile, runLoad } from './load/run-load.ts';
import type { PreparedScenario, Scenario } from './scenarios.ts';
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
  /** The measured time came in this many slices, taken in turn with the scenarios run beside it. */
  rounds: number;
  /**
   * Each slice's own p50, in the order measured: two scenarios taken in turn are compared slice by
   * slice (the median of their ratios), each pair measured within seconds of each other.
   */
  sliceP50Ms: number[];
}

export interface RunContext {
  db: 'postgres' | 'pglite';
  workload: Workload;
  /** Measured time per scenario, all rounds together. */
  durationMs: number;
  warmupMs: number;
  /** In how many slices each scenario's measured time is taken (see `runScenariosInTurn`). */
  rounds: number;
}

/**
 * A scenario whose users go to these servers and this study, whatever servers the turn-taking holds
 * (sizes or databases measured side by side, each on its own server).
 */
export function boundTo(scenario: Scenario, servers: readonly RunningServer[], workload: Workload): Scenario {
  return {
    ...scenario,
    prepare: () =>
      scenario.prepare(
        servers.map((server) => server.url),
        workload,
      ),
  };
}

/** What one scenario's measured slices add up to. */
interface Tally {
  requests: number;
  errors: number;
  errorSamples: string[];
  latencies: number[];
  sliceP50Ms: number[];
  elapsedMs: number;
  cpuByServer: number[];
  postgresMs: number;
  loadGeneratorMs: number;
  peakRss: number;
}

/**
 * Scenarios whose figures are compared with each other (the savers at 1, 8 and 32 users), measured
 * in turn: each signs its users in and warms up once (not measured: the JIT and the caches), then
 * each round gives every scenario one slice of its measured time, in order and in reverse order on
 * the next round (1, 8, 32, 32, 8, 1, …). On a shared machine whose speed drifts by ±10 % from one
 * minute to the next, scenarios run one after another for 10 s each were compared across different
 * minutes; taken in turn, each sees the same minutes. A single scenario with one round is measured as
 * one stretch.
 */
export async function runScenariosInTurn(
  servers: readonly RunningServer[],
  scenarios: readonly Scenario[],
  context: RunContext,
): Promise<ScenarioResult[]> {
  const baseUrls = servers.map((server) => server.url);
  const prepared: PreparedScenario[] = [];
  try {
    for (const scenario of scenarios) prepared.push(await scenario.prepare(baseUrls, context.workload));
    for (const scenario of prepared) {
      await scenario.refresh?.();
      await runLoad({ users: scenario.users, durationMs: context.warmupMs, minimumRequests: 1 });
    }
    const tallies = scenarios.map(() => emptyTally(servers.length));
    const sliceMs = context.durationMs / context.rounds;
    const inOrder = scenarios.map((_, index) => index);
    for (let round = 0; round < context.rounds; round += 1) {
      for (const index of round % 2 === 0 ? inOrder : [...inOrder].reverse()) {
        const scenario = scenarios[index] as Scenario;
        const users = prepared[index] as PreparedScenario;
        await users.refresh?.();
        await measureSlice(servers, users, context.db, {
          durationMs: sliceMs,
          minimumRequests: scenario.minimumRequests ?? 1,
          tally: tallies[index] as Tally,
        });
      }
    }
    return scenarios.map((scenario, index) =>
      resultOf(scenario, tallies[index] as Tally, { ...context, servers: servers.length }),
    );
  } finally {
    for (const scenario of prepared) scenario.close();
  }
}

function emptyTally(servers: number): Tally {
  return {
    requests: 0,
    errors: 0,
    errorSamples: [],
    latencies: [],
    sliceP50Ms: [],
    elapsedMs: 0,
    cpuByServer: new Array<number>(servers).fill(0),
    postgresMs: 0,
    loadGeneratorMs: 0,
    peakRss: 0,
  };
}

/** One measured stretch of a scenario, with the servers' CPU time and peak memory around it. */
async function measureSlice(
  servers: readonly RunningServer[],
  prepared: PreparedScenario,
  db: 'postgres' | 'pglite',
  slice: { durationMs: number; minimumRequests: number; tally: Tally },
): Promise<void> {
  const serverCpu = () => servers.map((server) => cpuMilliseconds(server.pid));
  const cpuBefore = serverCpu();
  const loadGeneratorBefore = cpuMilliseconds(process.pid);
  const postgresBefore = db === 'postgres' ? postgresCpuMilliseconds() : 0;
  const peaks = servers.map((server) => new PeakRss(server.pid));
  const result = await runLoad({
    users: prepared.users,
    durationMs: slice.durationMs,
    minimumRequests: slice.minimumRequests,
  });
  const { tally } = slice;
  tally.peakRss = Math.max(tally.peakRss, ...peaks.map((peak) => peak.stop()));
  tally.loadGeneratorMs += cpuMilliseconds(process.pid) - loadGeneratorBefore;
  serverCpu().forEach((after, index) => {
    tally.cpuByServer[index] = (tally.cpuByServer[index] ?? 0) + after - (cpuBefore[index] ?? 0);
  });
  if (db === 'postgres') tally.postgresMs += postgresCpuMilliseconds() - postgresBefore;
  tally.requests += result.requests;
  tally.errors += result.errors;
  tally.errorSamples.push(...result.errorSamples.slice(0, Math.max(0, 5 - tally.errorSamples.length)));
  for (const latency of result.latencies) tally.latencies.push(latency);
  tally.sliceP50Ms.push(percentile(result.latencies, 50));
  tally.elapsedMs += result.elapsedMs;
}

function resultOf(
  scenario: Scenario,
  tally: Tally,
  context: RunContext & { servers: number },
): ScenarioResult {
  const latencies = tally.latencies.sort((a, b) => a - b);
  const requests = Math.max(1, tally.requests);
  const cpu = tally.cpuByServer.reduce((sum, value) => sum + value, 0);
  return {
    scenario: scenario.name,
    db: context.db,
    subjects: context.workload.subjects,
    users: scenario.users,
    servers: context.servers,
    requests: tally.requests,
    errors: tally.errors,
    errorSamples: tally.errorSamples,
    p50Ms: percentile(latencies, 50),
    p95Ms: percentile(latencies, 95),
    p99Ms: percentile(latencies, 99),
    requestsPerSecond: tally.requests / (tally.elapsedMs / 1000),
    serverCpuMsPerRequest: cpu / requests,
    postgresCpuMsPerRequest: context.db === 'postgres' ? tally.postgresMs / requests : null,
    loadGeneratorCpuMsPerRequest: tally.loadGeneratorMs / requests,
    busiestServerCores: Math.max(...tally.cpuByServer) / Math.max(1, tally.elapsedMs),
    peakRssMb: tally.peakRss / (1024 * 1024),
    durationSeconds: tally.elapsedMs / 1000,
    rounds: context.rounds,
    sliceP50Ms: tally.sliceP50Ms,
  };
}
