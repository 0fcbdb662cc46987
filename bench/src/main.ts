import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type AmendmentImpactResult, measureAmendmentImpact } from './amendment-impact.ts';
import { type AmendmentMigrationResult, measureAmendmentMigration } from './amendment-migration.ts';
import {
  type BenchDatabase,
  createBenchDatabase,
  type DatabaseKind,
  dropBenchDatabase,
  openBenchDatabase,
  reusedPostgresDatabase,
} from './bench-database.ts';
import { type BuildReport, buildBenchStudy, slotsFor } from './build-study/build-bench-study.ts';
import { type DefinitionInstallResult, measureDefinitionInstall } from './definition-install.ts';
import { type ManyStudiesResult, measureManyStudies } from './many-studies.ts';
import { measureOdmExport, type OdmExportResult } from './odm-export.ts';
import { type BenchOptions, parseOptions, USAGE } from './options.ts';
import { type PgbenchResult, runPgbench } from './pgbench.ts';
import { formatReport } from './print-report.ts';
import { boundTo, runScenariosInTurn, type ScenarioResult } from './run-scenario.ts';
import { readScenarios, type Scenario, saveScenario } from './scenarios.ts';
import { residentBytes } from './server/process-usage.ts';
import { type RunningServer, repositoryRoot, startServer } from './server/start-server.ts';
import { checkManyStudiesTargets, checkOdmExportTargets, checkTargets, sliceRatio } from './targets.ts';
import { measureUploads, type UploadsResult } from './uploads.ts';
import { loadWorkload, type Workload } from './workload.ts';

// `npm run bench`: builds the synthetic study on each database at each size, runs every scenario
// against the real server in its own process, runs pgbench -N on the same PostgreSQL as the
// reference, prints one table with the targets and writes the figures as JSON under bench/results/.

const SAVER_COUNTS = [1, 8, 32];

/**
 * The savers' measured time comes in slices of about this long, 1, 8 and 32 users in turn
 * (`runScenariosInTurn`): the target compares 32 users with 8, so both are measured over the same
 * minutes of the machine.
 */
const SAVE_SLICE_SECONDS = 2;

/** The sizes' read slices take turns this often (issue 46 item 1: A, B, B, A, …). */
const SLICE_SECONDS = 2;

interface SizeRun {
  db: DatabaseKind;
  subjects: number;
  build: BuildReport;
  buildSeconds: number;
  /** The server's resident set once started, before any request: the floor under every peak RSS. */
  idleRssMb: number;
  results: ScenarioResult[];
  /** One ODM export job of every subject, with a light read beside it (issue 16); null when not chosen. */
  odmExport: OdmExportResult | null;
  /** Four 20 MB attachments at once (issue 43); null when not chosen. */
  uploads: UploadsResult | null;
  /** A 3,000-item definition uploaded to a new study (issue 45); null when not chosen. */
  definitionInstall: DefinitionInstallResult | null;
  /** The impact analysis of an amendment over every subject (issue 49 item 6); null when not chosen. */
  amendmentImpact: AmendmentImpactResult | null;
  /** Every subject moved to a published amendment's version (issue 49 item 6); null when not chosen. */
  amendmentMigration: AmendmentMigrationResult | null;
}

const log = (message: string) => console.log(message);

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2));
  if (options === 'help') {
    console.log(USAGE);
    return 0;
  }
  const startedAt = new Date();
  if (options.manyStudies) return manyStudiesMain(options, options.manyStudies, startedAt);
  let pgbench: PgbenchResult | null = null;
  if (options.pgbench.run) {
    log(`pgbench -N reference (${options.pgbench.durationSeconds} s)…`);
    pgbench = await runPgbench(options.postgresAdminUrl, options.pgbench);
    log(`  ${pgbench.tps.toFixed(1)} TPS`);
  }
  const runs: SizeRun[] = [];
  for (const db of options.databases) {
    const sizes = db === 'postgres' ? options.postgresSizes : options.pgliteSizes;
    runs.push(...(await measureDatabase(db, sizes, options)));
  }

  const results = runs.flatMap((run) => run.results);
  const load = os.loadavg();
  log(
    `load average at the end: ${load.map((value) => value.toFixed(2)).join(' ')} (${os.cpus().length} CPUs)`,
  );
  const targets = [
    ...checkTargets(results, pgbench),
    ...checkOdmExportTargets(runs.flatMap((run) => (run.odmExport ? [run.odmExport] : []))),
  ];
  console.log('');
  console.log(formatReport(results, pgbench, targets));
  console.log('');
  console.log(
    'The copied subjects (all but the 31 templates) have no audit records; every other table is as the commands write it (bench/README.md).',
  );

  const directory = path.join(repositoryRoot, 'bench', options.resultsDirectory);
  mkdirSync(directory, { recursive: true });
  const stamp = startedAt.toISOString().replace(/[:.]/g, '-');
  for (const run of runs) {
    const file = path.join(directory, `${stamp}-${run.db}-${run.subjects}.json`);
    writeFileSync(
      file,
      `${JSON.stringify({ startedAt, machine: machine(), options, ...run, pgbench, targets }, null, 2)}\n`,
    );
    log(`wrote ${path.relative(repositoryRoot, file)}`);
  }

  const failed = results.filter((result) => result.errors > 0);
  for (const result of failed) {
    console.error(
      `ERROR: ${result.scenario} (${result.db}, ${result.subjects}, ${result.users} users): ${result.errors} responses outside 2xx, e.g.\n  ${result.errorSamples.join('\n  ')}`,
    );
  }
  const failedUploads = runs.filter((run) => run.uploads?.statuses.some((status) => status !== 201));
  for (const run of failedUploads)
    console.error(
      `ERROR: uploads (${run.db}, ${run.subjects}): statuses ${run.uploads?.statuses.join(', ')}`,
    );
  const failedInstalls = runs.filter(
    (run) =>
      run.definitionInstall &&
      (run.definitionInstall.status !== 200 ||
        run.definitionInstall.imports.some((done) => done.statuses.some((status) => status !== 200))),
  );
  for (const run of failedInstalls)
    console.error(
      `ERROR: definition install (${run.db}, ${run.subjects}): status ${run.definitionInstall?.status}, imports ${run.definitionInstall?.imports.map((done) => `${done.format} ${done.statuses.join(', ')}`).join('; ')}`,
    );
  return failed.length > 0 || failedUploads.length > 0 || failedInstalls.length > 0 ? 1 : 0;
}

/**
 * `--many-studies`: on each database, one study measured alone, then among the others (issue 45
 * item 6); one table of both, the targets, a JSON file per database.
 */
async function manyStudiesMain(
  options: BenchOptions,
  settings: { studies: number; subjectsPerStudy: number },
  startedAt: Date,
): Promise<number> {
  const runs: ManyStudiesResult[] = [];
  for (const db of options.databases) runs.push(await measureManyStudies(db, options, settings, log));
  const results = runs.flatMap((run) => [...run.alone, ...run.many]);
  const targets = checkManyStudiesTargets(runs);
  console.log('');
  console.log('subjects: in the whole database; the measured study has', settings.subjectsPerStudy);
  console.log(formatReport(results, null, targets));
  const directory = path.join(repositoryRoot, 'bench', options.resultsDirectory);
  mkdirSync(directory, { recursive: true });
  const stamp = startedAt.toISOString().replace(/[:.]/g, '-');
  for (const run of runs) {
    const file = path.join(directory, `${stamp}-${run.db}-many-studies.json`);
    writeFileSync(
      file,
      `${JSON.stringify({ startedAt, machine: machine(), options, ...run, targets }, null, 2)}\n`,
    );
    log(`wrote ${path.relative(repositoryRoot, file)}`);
  }
  const failed = results.filter((result) => result.errors > 0);
  for (const result of failed)
    console.error(
      `ERROR: ${result.scenario} (${result.db}, ${result.subjects}): ${result.errors} responses outside 2xx, e.g.\n  ${result.errorSamples.join('\n  ')}`,
    );
  return failed.length > 0 ? 1 : 0;
}

/** One size's database, built, with the servers that run on it. */
interface SizeDatabase {
  database: BenchDatabase;
  subjects: number;
  build: BuildReport;
  buildSeconds: number;
  workload: Workload;
}

/**
 * The sizes of one database kind, each in a database of its own, measured side by side (issue 46
 * item 1): every read scenario runs on all sizes in turn, in slices (A, B, B, A, …), so that each
 * ratio compares the same minutes of this shared machine; then each size's saves, export, uploads
 * and definition install on its own server. `--reuse A,B` names one kept database per size.
 */
async function measureDatabase(db: DatabaseKind, sizes: number[], options: BenchOptions): Promise<SizeRun[]> {
  const reused = db === 'postgres' && options.reuseDatabase ? options.reuseDatabase.split(',') : [];
  if (reused.length > 0 && reused.length !== sizes.length)
    throw new Error(
      `--reuse names ${reused.length} databases for ${sizes.length} sizes (${sizes.join(', ')})`,
    );
  const built: SizeDatabase[] = [];
  try {
    for (const [index, subjects] of sizes.entries()) {
      const name = reused[index]?.trim();
      const database = name
        ? reusedPostgresDatabase(options.postgresAdminUrl, name)
        : await createBenchDatabase(db, options.postgresAdminUrl, `${db}_${subjects}`);
      built.push(await buildSize(database, subjects, options));
    }
    return await measureSizes(db, built, options);
  } finally {
    for (const { database } of built) {
      if (options.keep) log(`kept ${database.where}`);
      else await dropBenchDatabase(database, options.postgresAdminUrl);
    }
  }
}

async function buildSize(
  database: BenchDatabase,
  subjects: number,
  options: BenchOptions,
): Promise<SizeDatabase> {
  log(`${database.kind}, ${subjects} subjects: building (${database.where})…`);
  const started = performance.now();
  const handle = await openBenchDatabase(database);
  try {
    const build = await buildBenchStudy(handle.db, {
      subjects,
      siteCount: options.siteCount,
      slotsPerSite: slotsFor(subjects, options.siteCount),
      log,
    });
    const workload = await loadWorkload(handle.db);
    const buildSeconds = (performance.now() - started) / 1000;
    log(
      `  built in ${buildSeconds.toFixed(1)} s (templates ${build.templateSeconds.toFixed(1)} s, ${build.copies} copies ${build.copySeconds.toFixed(1)} s, read model rebuilt ${build.readModelSeconds.toFixed(1)} s)`,
    );
    log(
      `  central monitoring run: ${build.monitoring.indicators} indicators and ${build.monitoring.signals} signals in ${build.monitoring.seconds.toFixed(1)} s (target under 10 s)`,
    );
    return { database, subjects: workload.subjects, build, buildSeconds, workload };
  } finally {
    await handle.close();
  }
}

async function measureSizes(
  db: DatabaseKind,
  sizes: SizeDatabase[],
  options: BenchOptions,
): Promise<SizeRun[]> {
  // Several processes share each database as in production (architecture.md "Scale-out"); started
  // one after another, so that only the first finds migrations to run.
  const serversBySize: RunningServer[][] = [];
  try {
    for (const size of sizes) {
      const servers: RunningServer[] = [];
      serversBySize.push(servers);
      for (let index = 0; index < options.servers; index += 1)
        servers.push(await startServer(size.database.env));
    }
    const allServers = serversBySize.flat();
    const idleRssMb = serversBySize.map(
      (servers) => residentBytes((servers[0] as RunningServer).pid) / 2 ** 20,
    );
    const durationMs = options.durationSeconds * 1000;
    const warmupMs = Math.min(2000, durationMs / 5);
    const rounds = Math.max(1, Math.floor(options.durationSeconds / SLICE_SECONDS));
    const chosen = (name: string) => options.scenarios === null || options.scenarios.includes(name);
    const readsBySize: ScenarioResult[][] = sizes.map(() => []);
    for (const scenario of readScenarios().filter((candidate) => chosen(candidate.name))) {
      // Every size's users on their own server, the sizes taking turns slice by slice.
      const results = await runScenariosInTurn(
        allServers,
        sizes.map((size, index) => boundTo(scenario, serversBySize[index] as RunningServer[], size.workload)),
        {
          db,
          workload: (sizes[0] as SizeDatabase).workload,
          durationMs,
          warmupMs,
          rounds: sizes.length > 1 ? rounds : 1,
        },
      );
      results.forEach((result, index) => {
        const size = sizes[index] as SizeDatabase;
        // Each size's figures are its own server's: the others idle meanwhile (their CPU, summed in,
        // is next to nothing).
        const own = { ...result, servers: options.servers, subjects: size.subjects };
        readsBySize[index]?.push(own);
        report(own);
      });
      const own = readsBySize.map((reads) => reads.at(-1) as ScenarioResult);
      if (own.length > 1) {
        const [first, last] = [own[0] as ScenarioResult, own.at(-1) as ScenarioResult];
        log(
          `    ${scenario.name}: p50 at ${last.subjects} ÷ at ${first.subjects}, median of ${rounds} rounds: × ${sliceRatio(first, last).toFixed(2)}`,
        );
      }
    }
    const runs: SizeRun[] = [];
    for (const [index, size] of sizes.entries()) {
      const servers = serversBySize[index] as RunningServer[];
      const rest = await measureOnOneSize(db, servers, size.workload, options);
      runs.push({
        db,
        subjects: size.subjects,
        build: size.build,
        buildSeconds: size.buildSeconds,
        idleRssMb: idleRssMb[index] ?? 0,
        results: [...(readsBySize[index] ?? []), ...rest.results],
        odmExport: rest.odmExport,
        uploads: rest.uploads,
        definitionInstall: rest.definitionInstall,
        amendmentImpact: rest.amendmentImpact,
        amendmentMigration: rest.amendmentMigration,
      });
      log(`  server resident set when idle (${size.subjects}): ${(idleRssMb[index] ?? 0).toFixed(0)} MB`);
    }
    return runs;
  } finally {
    await Promise.all(serversBySize.flat().map((running) => running.stop()));
  }
}

function report(result: ScenarioResult) {
  log(
    `  ${result.scenario}, ${result.subjects} subjects, ${result.users} user${result.users === 1 ? '' : 's'}: p50 ${result.p50Ms.toFixed(1)} ms, p95 ${result.p95Ms.toFixed(1)} ms, ${result.requestsPerSecond.toFixed(1)} req/s, CPU ${result.serverCpuMsPerRequest.toFixed(2)} ms server${result.postgresCpuMsPerRequest === null ? '' : ` + ${result.postgresCpuMsPerRequest.toFixed(2)} ms PostgreSQL`}${result.errors > 0 ? `, ${result.errors} ERRORS` : ''}`,
  );
}

/** What one size's servers measure alone: the saves in turn, the export, the uploads, the install. */
async function measureOnOneSize(
  db: DatabaseKind,
  servers: RunningServer[],
  workload: Workload,
  options: BenchOptions,
): Promise<
  Pick<
    SizeRun,
    'results' | 'odmExport' | 'uploads' | 'definitionInstall' | 'amendmentImpact' | 'amendmentMigration'
  >
> {
  const server = servers[0] as RunningServer;
  const durationMs = options.durationSeconds * 1000;
  const warmupMs = Math.min(2000, durationMs / 5);
  const chosen = (name: string) => options.scenarios === null || options.scenarios.includes(name);
  const chosenSaves: Scenario[] = chosen('form save') ? SAVER_COUNTS.map((users) => saveScenario(users)) : [];
  const results: ScenarioResult[] = [];
  let odmExport: OdmExportResult | null = null;
  let uploads: UploadsResult | null = null;
  let definitionInstall: DefinitionInstallResult | null = null;
  let amendmentImpact: AmendmentImpactResult | null = null;
  let amendmentMigration: AmendmentMigrationResult | null = null;
  if (chosenSaves.length > 0) {
    const rounds = Math.max(1, Math.floor(options.durationSeconds / SAVE_SLICE_SECONDS));
    if (rounds > 1) log(`  form save: 1, 8 and 32 users in turn, ${rounds} rounds…`);
    const context = { db, workload, durationMs, warmupMs, rounds };
    for (const result of await runScenariosInTurn(servers, chosenSaves, context)) {
      report(result);
      results.push(result);
    }
  }
  if (chosen('ODM export')) {
    odmExport = await measureOdmExport(server, workload, db);
    const reads = odmExport.concurrentReads;
    const download = odmExport.download;
    log(
      `  ODM export: ${odmExport.values} values in ${odmExport.seconds.toFixed(1)} s, ${odmExport.valuesPerSecond.toFixed(0)} values/s, CPU per 1,000 values ${odmExport.serverCpuMsPerThousandValues.toFixed(1)} ms server + ${odmExport.postgresCpuMsPerThousandValues?.toFixed(1) ?? '–'} ms PostgreSQL, peak RSS ${odmExport.peakRssMb.toFixed(0)} MB; subject-info beside it: ${reads.requests} reads, p50 ${reads.p50Ms.toFixed(1)} ms, p95 ${reads.p95Ms.toFixed(1)} ms, max ${reads.maxMs.toFixed(1)} ms${reads.errors > 0 ? `, ${reads.errors} ERRORS` : ''}; download ${(download.bytes / 2 ** 20).toFixed(0)} MB in ${download.seconds.toFixed(1)} s, peak RSS ${download.peakRssMb.toFixed(0)} MB`,
    );
  }
  if (chosen('uploads')) {
    uploads = await measureUploads(server, workload, db);
    log(
      `  uploads: ${uploads.uploads} × ${uploads.megabytes} MB at once in ${uploads.seconds.toFixed(1)} s (each ${uploads.eachSeconds.map((s) => s.toFixed(1)).join(', ')} s; statuses ${uploads.statuses.join(', ')}), server RSS ${uploads.idleRssMb.toFixed(0)} MB before, peak ${uploads.peakRssMb.toFixed(0)} MB, CPU ${(uploads.serverCpuMs / 1000).toFixed(1)} s`,
    );
  }
  if (chosen('definition install')) {
    definitionInstall = await measureDefinitionInstall(server, db);
    const install = definitionInstall;
    log(
      `  definition install: ${install.items} items in ${install.forms} forms (${(install.bytes / 1e6).toFixed(1)} MB) in ${install.seconds.toFixed(2)} s (status ${install.status}; target under 5 s); its download p50 ${install.readP50Ms.toFixed(1)} ms, max ${install.readMaxMs.toFixed(1)} ms`,
    );
    for (const done of install.imports)
      log(
        `  import of the same design as ${done.format} (${(done.bytes / 1e6).toFixed(1)} MB): preview ${done.previewSeconds.toFixed(2)} s, confirm ${done.confirmSeconds.toFixed(2)} s (statuses ${done.statuses.join(', ')}; target under 10 s), server RSS ${done.idleRssMb.toFixed(0)} MB before, peak ${done.peakRssMb.toFixed(0)} MB`,
      );
  }
  if (chosen('amendment impact')) {
    amendmentImpact = await measureAmendmentImpact(server, workload, db);
    const impact = amendmentImpact;
    log(
      `  amendment impact: ${impact.analyzedSubjects} subjects analyzed in ${impact.seconds.toFixed(1)} s (target under 30 s), ${impact.rows} rows, CPU ${impact.serverCpuSeconds.toFixed(1)} s server + ${impact.postgresCpuSeconds?.toFixed(1) ?? '–'} s PostgreSQL, peak RSS ${impact.peakRssMb.toFixed(0)} MB`,
    );
  }
  // Last: a published amendment changes the study's version for good.
  if (chosen('amendment migration')) {
    amendmentMigration = await measureAmendmentMigration(server, workload, db);
    const moved = amendmentMigration;
    log(
      `  amendment migration: ${moved.migrated} subjects moved in ${moved.seconds.toFixed(1)} s (target under 120 s), ${moved.subjectsPerSecond.toFixed(0)} subjects/s, held ${moved.held}, failed ${moved.failed}, CPU ${moved.serverCpuSeconds.toFixed(1)} s server + ${moved.postgresCpuSeconds?.toFixed(1) ?? '–'} s PostgreSQL, peak RSS ${moved.peakRssMb.toFixed(0)} MB`,
    );
    for (const [name, tables] of [
      ['as of the current version, none migrated yet', moved.tablesAsOfCurrentBeforeMigration],
      ['as entered, all migrated', moved.tablesAsEnteredAfterMigration],
    ] as const)
      log(
        `  tables export (CSV) ${name}: ${tables.values} values in ${tables.seconds.toFixed(1)} s, peak RSS ${tables.peakRssMb.toFixed(0)} MB`,
      );
  }
  return { results, odmExport, uploads, definitionInstall, amendmentImpact, amendmentMigration };
}

function machine() {
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: repositoryRoot, encoding: 'utf8' }).trim();
  } catch {
    // Not a git checkout: the figures stand without it.
  }
  return {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    memoryMb: Math.round(os.totalmem() / (1024 * 1024)),
    node: process.version,
    /** Other work on the machine skews every figure: the 1/5/15-minute load when the file was written. */
    loadAverage: os.loadavg().map((value) => Number(value.toFixed(2))),
    platform: `${os.platform()} ${os.release()}`,
    commit,
  };
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error('the benchmark failed:', error);
    process.exit(1);
  },
);
