import type { Kysely } from 'kysely';
import type { Database } from '../../apps/server/src/db/schema.ts';
import {
  type BenchDatabase,
  createBenchDatabase,
  type DatabaseKind,
  dropBenchDatabase,
  openBenchDatabase,
} from './bench-database.ts';
import { type BuildReport, buildBenchStudy, slotsFor } from './build-study/build-bench-study.ts';
import { buildOtherStudies, type OtherStudiesReport } from './build-study/other-studies.ts';
import type { BenchOptions } from './options.ts';
import { runScenariosInTurn, type ScenarioResult } from './run-scenario.ts';
import { readScenarios } from './scenarios.ts';
import { type RunningServer, startServer } from './server/start-server.ts';
import { loadWorkload, type Workload } from './workload.ts';

// The "many studies" measurement (issue 45 item 6): one server holds many studies, and a study's
// busiest reads must not slow down because the others exist. The bench study of 2,500 subjects is
// measured alone, then the other studies (19 of 2,500 by default: 50,000 subjects in all) are added
// to the same database and the same reads are measured again. The reads are the subject list,
// dashboard and form read scenarios, the very requests of the per-size runs.

/** The scenarios measured alone and among the other studies (names as in scenarios.ts). */
export const MANY_STUDIES_SCENARIOS = ['subject list', 'dashboard', 'form read'] as const;

export interface ManyStudiesResult {
  db: DatabaseKind;
  /** Studies in the database at the second measurement, the measured one included. */
  studies: number;
  subjectsPerStudy: number;
  /** Subjects in the database at the second measurement, every study's. */
  totalSubjects: number;
  benchStudyBuild: BuildReport;
  otherStudiesBuild: OtherStudiesReport;
  /**
   * The measured study's reads with it alone in the database, then among the others. A result's
   * `subjects` is the count in the whole database (the measured study always has `subjectsPerStudy`).
   */
  alone: ScenarioResult[];
  many: ScenarioResult[];
}

export async function measureManyStudies(
  db: DatabaseKind,
  options: BenchOptions,
  settings: { studies: number; subjectsPerStudy: number },
  log: (message: string) => void,
): Promise<ManyStudiesResult> {
  const database = await createBenchDatabase(db, options.postgresAdminUrl, `${db}_many`);
  try {
    log(`${db}, many studies: the bench study of ${settings.subjectsPerStudy} subjects (${database.where})…`);
    const benchStudyBuild = await withDatabase(database, (handle) =>
      buildBenchStudy(handle, {
        subjects: settings.subjectsPerStudy,
        siteCount: options.siteCount,
        slotsPerSite: slotsFor(settings.subjectsPerStudy, options.siteCount),
        log,
      }),
    );
    const workload = await withDatabase(database, loadWorkload);
    log(`  alone: ${workload.subjects} subjects in 1 study`);
    const alone = await measureReads(db, database, workload, workload.subjects, options, log);

    const others = settings.studies - 1;
    log(`  adding ${others} studies of ${settings.subjectsPerStudy} subjects…`);
    const otherStudiesBuild = await withDatabase(database, (handle) =>
      buildOtherStudies(handle, {
        studies: others,
        subjectsPerStudy: settings.subjectsPerStudy,
        siteCount: options.siteCount,
        log,
      }),
    );
    log(
      `  built: studies ${otherStudiesBuild.createSeconds.toFixed(0)} s, copies ${otherStudiesBuild.copySeconds.toFixed(0)} s, read model and statistics ${otherStudiesBuild.readModelSeconds.toFixed(0)} s`,
    );
    const totalSubjects = workload.subjects + otherStudiesBuild.subjects;
    log(`  among ${settings.studies} studies: ${totalSubjects} subjects in all`);
    const many = await measureReads(db, database, workload, totalSubjects, options, log);
    return {
      db,
      studies: settings.studies,
      subjectsPerStudy: settings.subjectsPerStudy,
      totalSubjects,
      benchStudyBuild,
      otherStudiesBuild,
      alone,
      many,
    };
  } finally {
    if (options.keep) log(`kept ${database.where}`);
    else await dropBenchDatabase(database, options.postgresAdminUrl);
  }
}

async function withDatabase<T>(
  database: BenchDatabase,
  work: (db: Kysely<Database>) => Promise<T>,
): Promise<T> {
  const handle = await openBenchDatabase(database);
  try {
    return await work(handle.db);
  } finally {
    await handle.close();
  }
}

/**
 * The chosen reads on a freshly started server, one after another as the per-size runs measure
 * them (warm-up, then `--duration` seconds each).
 */
async function measureReads(
  db: DatabaseKind,
  database: BenchDatabase,
  workload: Workload,
  subjectsInDatabase: number,
  options: BenchOptions,
  log: (message: string) => void,
): Promise<ScenarioResult[]> {
  const scenarios = readScenarios().filter((scenario) =>
    (MANY_STUDIES_SCENARIOS as readonly string[]).includes(scenario.name),
  );
  const server: RunningServer = await startServer(database.env);
  const durationMs = options.durationSeconds * 1000;
  const context = { db, workload, durationMs, warmupMs: Math.min(2000, durationMs / 5), rounds: 1 };
  const results: ScenarioResult[] = [];
  try {
    for (const scenario of scenarios) {
      const [result] = await runScenariosInTurn([server], [scenario], context);
      if (!result) continue;
      log(
        `    ${result.scenario}: p50 ${result.p50Ms.toFixed(1)} ms, p95 ${result.p95Ms.toFixed(1)} ms, ${result.requestsPerSecond.toFixed(1)} req/s${result.errors > 0 ? `, ${result.errors} ERRORS` : ''}`,
      );
      results.push({ ...result, subjects: subjectsInDatabase });
    }
  } finally {
    await server.stop();
  }
  return results;
}
