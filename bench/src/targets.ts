import os from 'node:os';
import type { ManyStudiesResult } from './many-studies.ts';
import type { OdmExportResult } from './odm-export.ts';
import type { PgbenchResult } from './pgbench.ts';
import type { ScenarioResult } from './run-scenario.ts';

// The issue's targets, checked against the figures of this run. A target whose figures the run did
// not measure (one size only, no PostgreSQL…) says so instead of passing.

export interface TargetCheck {
  target: string;
  /** What was measured, in words and numbers. */
  measured: string;
  met: boolean | null;
  /** For a target not met: where the run's own figures say the time goes. */
  why?: string;
}

/** CPU per request, server and PostgreSQL, as the run measured it (PGlite: all in the server). */
function cpuOf(result: ScenarioResult): string {
  const server = `server ${ms(result.serverCpuMsPerRequest)}`;
  return result.postgresCpuMsPerRequest === null
    ? server
    : `${server} + PostgreSQL ${ms(result.postgresCpuMsPerRequest)}`;
}

/**
 * Everything a request cost the machine's cores: the server, PostgreSQL and the load generator,
 * which shares the cores with them as pgbench's client does in the reference.
 */
function machineCpuMs(result: ScenarioResult): number {
  return (
    result.serverCpuMsPerRequest + (result.postgresCpuMsPerRequest ?? 0) + result.loadGeneratorCpuMsPerRequest
  );
}

const READ_TARGET_SCENARIOS = ['subject list', 'dashboard', 'subject-info', 'visit alarms'] as const;
const READ_P95_MS = 25;
/**
 * Issue 46: every read-out a monitor or data manager lives in — the lists, the boards, the reports,
 * the summary, the lab page — within the read target and flat in the study's size (p50 at the
 * larger size ≤ 1.3 × at the smaller). A listing that grows with the trial pages in SQL, so its page
 * costs the same. Not here: the CSV export of every subject, whose answer is the whole study.
 */
const FLAT_READ_SCENARIOS = [
  ...READ_TARGET_SCENARIOS,
  'query list',
  'SDV progress',
  'readiness board',
  'audit review',
  'overview',
  'form read',
  'lab results',
  'enrollment report',
  'missing forms report',
  'query aging report',
  'protocol deviations report',
  'AE listing report',
  'study summary',
  'monitoring panel',
  'monitoring page',
  'signal list',
  'review listing',
] as const;
const FORM_READ_P95_MS = 15;
const SCALING_FACTOR = 1.3;
const SAVE_SHARE_OF_PGBENCH = 0.1;
const EXPORT_PEAK_RSS_MB = 256;
const ODM_VALUES_PER_SECOND = 100_000;

const ms = (value: number) => `${value.toFixed(1)} ms`;

/**
 * `large`'s p50 ÷ `small`'s: where both were measured in turn, in as many slices, the median of the
 * slices' ratios (each pair seconds apart, so the machine's drift cancels); else the whole runs'.
 */
export function sliceRatio(small: ScenarioResult, large: ScenarioResult): number {
  const rounds = small.sliceP50Ms.length;
  if (rounds < 2 || large.sliceP50Ms.length !== rounds) return large.p50Ms / small.p50Ms;
  const ratios = small.sliceP50Ms
    .map((p50, index) => (large.sliceP50Ms[index] ?? 0) / Math.max(p50, 1e-6))
    .sort((a, b) => a - b);
  const middle = Math.floor(rounds / 2);
  return rounds % 2 === 1 ? (ratios[middle] ?? 0) : ((ratios[middle - 1] ?? 0) + (ratios[middle] ?? 0)) / 2;
}

/** Where the saves ran on more than one server process (`--servers`), the targets say so. */
const processesOf = (result: ScenarioResult) =>
  result.servers > 1 ? `, ${result.servers} server processes` : '';

function find(results: ScenarioResult[], db: string, scenario: string, subjects: number, users = 1) {
  return results.find(
    (result) =>
      result.db === db &&
      result.scenario === scenario &&
      result.subjects === subjects &&
      result.users === users,
  );
}

export function checkTargets(
  results: ScenarioResult[],
  pgbench: PgbenchResult | null,
  cores = os.cpus().length,
): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const dbs = [...new Set(results.map((result) => result.db))];
  for (const db of dbs) {
    const sizes = [
      ...new Set(results.filter((result) => result.db === db).map((result) => result.subjects)),
    ].sort((a, b) => a - b);
    const largest = sizes.at(-1) ?? 0;
    for (const subjects of sizes) {
      for (const scenario of FLAT_READ_SCENARIOS) {
        const result = find(results, db, scenario, subjects);
        if (!result || scenario === 'form read') continue;
        checks.push({
          target: `${scenario} p95 ≤ ${READ_P95_MS} ms, 1 user (${db}, ${subjects})`,
          measured: ms(result.p95Ms),
          met: result.p95Ms <= READ_P95_MS,
        });
      }
      const formRead = find(results, db, 'form read', subjects);
      if (formRead)
        checks.push({
          target: `form read p95 ≤ ${FORM_READ_P95_MS} ms (${db}, ${subjects})`,
          measured: ms(formRead.p95Ms),
          met: formRead.p95Ms <= FORM_READ_P95_MS,
        });
    }
    // Growth: p50 at the larger size against the smaller (the issue's 5,000 against 500), slice
    // by slice where the sizes were measured in turn.
    const smallest = sizes[0] ?? 0;
    for (const scenario of FLAT_READ_SCENARIOS) {
      const small = find(results, db, scenario, smallest);
      const large = find(results, db, scenario, largest);
      const target = `${scenario} p50 at ${largest} ≤ ${SCALING_FACTOR} × p50 at ${smallest} (${db})`;
      if (!small && !large) continue;
      if (!small || !large || smallest === largest) {
        checks.push({
          target: `${scenario} p50 at the larger size ≤ ${SCALING_FACTOR} × at the smaller (${db})`,
          measured: 'one size only',
          met: null,
        });
        continue;
      }
      const ratio = sliceRatio(small, large);
      const met = ratio <= SCALING_FACTOR;
      checks.push({
        target,
        measured: `${ms(large.p50Ms)} vs ${ms(small.p50Ms)} (× ${ratio.toFixed(2)}${large.sliceP50Ms.length > 1 ? `, median of ${large.sliceP50Ms.length} rounds` : ''})`,
        met,
        ...(met
          ? {}
          : {
              why: `CPU per request grew from ${cpuOf(small)} at ${smallest} to ${cpuOf(large)} at ${largest}`,
            }),
      });
    }
    const one = find(results, db, 'form save', largest, 1);
    const eight = find(results, db, 'form save', largest, 8);
    const thirtyTwo = find(results, db, 'form save', largest, 32);
    if (db === 'postgres') {
      if (eight && pgbench) {
        const wanted = SAVE_SHARE_OF_PGBENCH * pgbench.tps;
        const met = eight.requestsPerSecond >= wanted;
        // The ceilings: every core busy with nothing but saves at this run's cost per save; and each
        // server process's one JavaScript thread, at the share of a core it had.
        const ceiling = (cores * 1000) / machineCpuMs(eight);
        const perProcess = eight.requestsPerSecond / eight.servers / Math.max(0.01, eight.busiestServerCores);
        checks.push({
          target: `form saves, 8 users ≥ ${SAVE_SHARE_OF_PGBENCH} × pgbench -N TPS (${db}, ${largest}${processesOf(eight)})`,
          measured: `${eight.requestsPerSecond.toFixed(1)} vs ${wanted.toFixed(1)} req/s`,
          met,
          ...(met
            ? {}
            : {
                why:
                  `a save costs ${ms(machineCpuMs(eight))} of CPU (${cpuOf(eight)} + load generator ` +
                  `${ms(eight.loadGeneratorCpuMsPerRequest)}), so ${cores} cores give at most ` +
                  `${ceiling.toFixed(0)} saves/s; ${wanted.toFixed(0)}/s needs ≤ ${ms((cores * 1000) / wanted)} ` +
                  `per save. The busiest server process used ${eight.busiestServerCores.toFixed(2)} of a core: ` +
                  `its one JavaScript thread gives at most ~${perProcess.toFixed(0)} saves/s at this cost`,
              }),
        });
      } else
        checks.push({
          target: 'form saves, 8 users ≥ 0.1 × pgbench -N TPS',
          measured: 'pgbench not run',
          met: null,
        });
      if (eight && thirtyTwo)
        checks.push({
          target: `form saves, 32 users ≥ throughput of 8 (${db}, ${largest}${processesOf(eight)})`,
          measured: `${thirtyTwo.requestsPerSecond.toFixed(1)} vs ${eight.requestsPerSecond.toFixed(1)} req/s`,
          met: thirtyTwo.requestsPerSecond >= eight.requestsPerSecond,
        });
    }
    if (db === 'pglite' && one && eight)
      checks.push({
        target: `embedded: 8 concurrent savers ≥ throughput of 1 (${db}, ${largest})`,
        measured: `${eight.requestsPerSecond.toFixed(1)} vs ${one.requestsPerSecond.toFixed(1)} req/s`,
        met: eight.requestsPerSecond >= one.requestsPerSecond,
      });
    const exportRun = find(results, db, 'CSV export', largest);
    if (exportRun)
      checks.push({
        target: `CSV export of all subjects: server peak RSS ≤ ${EXPORT_PEAK_RSS_MB} MB (${db}, ${largest})`,
        measured: `${exportRun.peakRssMb.toFixed(0)} MB`,
        met: exportRun.peakRssMb <= EXPORT_PEAK_RSS_MB,
      });
  }
  return checks;
}

/**
 * Issue 16: an ODM export job of every subject at ≥ 100,000 item values/s with the server's peak
 * RSS ≤ 256 MB, the server answering a light read all along (some reads, none refused).
 */
export function checkOdmExportTargets(exports: OdmExportResult[]): TargetCheck[] {
  return exports.flatMap((run) => {
    const where = `(${run.db}, ${run.subjects})`;
    const reads = run.concurrentReads;
    return [
      {
        target: `ODM export ≥ ${ODM_VALUES_PER_SECOND.toLocaleString('en')} item values/s ${where}`,
        measured: `${run.valuesPerSecond.toFixed(0)} values/s (${run.values} in ${run.seconds.toFixed(1)} s)`,
        met: run.valuesPerSecond >= ODM_VALUES_PER_SECOND,
      },
      {
        target: `ODM export: server peak RSS ≤ ${EXPORT_PEAK_RSS_MB} MB ${where}`,
        measured: `${run.peakRssMb.toFixed(0)} MB`,
        met: run.peakRssMb <= EXPORT_PEAK_RSS_MB,
      },
      {
        target: `ODM export download: server peak RSS ≤ ${EXPORT_PEAK_RSS_MB} MB ${where}`,
        measured: `${run.download.peakRssMb.toFixed(0)} MB (${(run.download.bytes / 2 ** 20).toFixed(0)} MB in ${run.download.seconds.toFixed(1)} s)`,
        met: run.download.peakRssMb <= EXPORT_PEAK_RSS_MB,
      },
      {
        target: `ODM export: the server answers subject-info during the export ${where}`,
        measured: `${reads.requests} reads, ${reads.errors} errors, p95 ${ms(reads.p95Ms)}, max ${ms(reads.maxMs)}`,
        met: reads.requests > 0 && reads.errors === 0,
      },
    ];
  });
}

/**
 * Issue 45 item 6: with 20 studies and 50,000 subjects in one database, a study's subject list,
 * dashboard and form read keep a p50 ≤ 1.3 × their p50 with that study alone, and a p95 ≤ 25 ms.
 */
export function checkManyStudiesTargets(
  runs: Pick<ManyStudiesResult, 'db' | 'studies' | 'totalSubjects' | 'alone' | 'many'>[],
): TargetCheck[] {
  return runs.flatMap((run) => {
    const where = `(${run.db}, ${run.studies} studies, ${run.totalSubjects} subjects)`;
    return run.alone.flatMap((alone): TargetCheck[] => {
      const many = run.many.find((result) => result.scenario === alone.scenario);
      if (!many)
        return [
          {
            target: `${alone.scenario} among many studies ${where}`,
            measured: 'not measured among the other studies',
            met: null,
          },
        ];
      const ratio = many.p50Ms / alone.p50Ms;
      const met = many.p50Ms <= SCALING_FACTOR * alone.p50Ms;
      return [
        {
          target: `${alone.scenario} p50 among many studies ≤ ${SCALING_FACTOR} × p50 alone ${where}`,
          measured: `${ms(many.p50Ms)} vs ${ms(alone.p50Ms)} (× ${ratio.toFixed(2)})`,
          met,
          ...(met
            ? {}
            : {
                why: `CPU per request grew from ${cpuOf(alone)} alone to ${cpuOf(many)} among many studies`,
              }),
        },
        {
          target: `${alone.scenario} p95 among many studies ≤ ${READ_P95_MS} ms ${where}`,
          measured: ms(many.p95Ms),
          met: many.p95Ms <= READ_P95_MS,
        },
      ];
    });
  });
}
