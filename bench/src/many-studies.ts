import { type Kysely, sql } from 'kysely';
import type { Database } from '../../apps/server/src/db/schema.ts';
import {
  type BenchDatabase,
  createBenchDatabase,
  type DatabaseKind,
  dropBenchDatabase,
  openBenchDatabase,
  reusedPostgresDatabase,
} from './bench-database.ts';
import { type BuildReport, buildBenchStudy, slotsFor } from './build-study/build-bench-study.ts';
import { buildOtherStudies, type OtherStudiesReport } from './build-study/other-studies.ts';
import type { BenchOptions } from './options.ts';
import { boundTo, runScenariosInTurn, type ScenarioResult } from './run-scenario.ts';
import { readScenarios } from './scenarios.ts';
import { type RunningServer, startServer } from './server/start-server.ts';
import { loadWorkload, type Workload } from './workload.ts';

// The "many studies" measurement (issue 45 item 6): one server holds many studies, and a study's
// busiest reads must not slow down because the others exist. The bench study of 2,500 subjects is
// measured alone, and with the other studies (19 of 2,500 by default: 50,000 subjects in all) added
// to another copy of it and the same reads are measured on both in turn. The reads are the subject
// list, dashboard and form read scenarios, the very requests of the per-size runs.

/** The scenarios measured alone and among the other studies (names as in scenarios.ts). */
export const MANY_STUDIES_SCENARIOS = ['subject list', 'dashboard', 'form read'] as const;

export interface ManyStudiesResult {
  db: DatabaseKind;
  /** Studies in the second database, the measured one included. */
  studies: number;
  subjectsPerStudy: number;
  /** Subjects in the second database, every study's. */
  totalSubjects: number;
  /** How the databases were built; null when an earlier run's were measured again (`--reuse`). */
  benchStudyBuild: BuildReport | null;
  otherStudiesBuild: OtherStudiesReport | null;
  /**
   * The measured study's reads with it alone in its database, and in the database of the others, in
   * turn. A result's `subjects` is its whole database's count (the measured study always has
   * `subjectsPerStudy`).
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
  // Two databases, the bench study built alike in both, the other studies added to the second: the
  // reads alone and among many are then measured in turn over the same minutes. Measured one after
  // the other, minutes apart, they would compare two states of this shared machine, whose speed
  // drifts by more than the 30 % the target allows (bench/README.md "Scenarios").
  if (db === 'postgres' && options.reuseDatabase) return remeasure(options, options.reuseDatabase, log);
  const aloneDatabase = await createBenchDatabase(db, options.postgresAdminUrl, `${db}_alone`);
  const manyDatabase = await createBenchDatabase(db, options.postgresAdminUrl, `${db}_many`);
  try {
    const buildBenchStudyIn = (database: BenchDatabase) => {
      log(`${db}: the bench study of ${settings.subjectsPerStudy} subjects (${database.where})…`);
      return withDatabase(database, (handle) =>
        buildBenchStudy(handle, {
          subjects: settings.subjectsPerStudy,
          siteCount: options.siteCount,
          slotsPerSite: slotsFor(settings.subjectsPerStudy, options.siteCount),
          log,
        }),
      );
    };
    const benchStudyBuild = await buildBenchStudyIn(aloneDatabase);
    await buildBenchStudyIn(manyDatabase);
    const others = settings.studies - 1;
    log(`  adding ${others} studies of ${settings.subjectsPerStudy} subjects (${manyDatabase.where})…`);
    const otherStudiesBuild = await withDatabase(manyDatabase, (handle) =>
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
    const aloneWorkload = await withDatabase(aloneDatabase, loadWorkload);
    const manyWorkload = await withDatabase(manyDatabase, loadWorkload);
    const totalSubjects = manyWorkload.subjects + otherStudiesBuild.subjects;
    log(
      `  measuring in turn: ${aloneWorkload.subjects} subjects in 1 study, and among ${settings.studies} studies of ${totalSubjects} subjects in all`,
    );
    const { alone, many } = await measureInTurn(
      db,
      { database: aloneDatabase, workload: aloneWorkload, subjects: aloneWorkload.subjects },
      { database: manyDatabase, workload: manyWorkload, subjects: totalSubjects },
      options,
      log,
    );
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
    for (const database of [aloneDatabase, manyDatabase]) {
      if (options.keep) log(`kept ${database.where}`);
      else await dropBenchDatabase(database, options.postgresAdminUrl);
    }
  }
}

/**
 * `--reuse ALONE,MANY`: the two PostgreSQL databases an earlier `--many-studies --keep` left,
 * measured again as they are (a server change measured in minutes, not rebuilt in a quarter of an
 * hour). `VACUUM ANALYZE` first, as the build ends, so that what the earlier run's servers left
 * behind does not weigh on this run.
 */
async function remeasure(
  options: BenchOptions,
  names: string,
  log: (message: string) => void,
): Promise<ManyStudiesResult> {
  const [aloneName, manyName] = names.split(',').map((name) => name.trim());
  if (!aloneName || !manyName) throw new Error('--many-studies --reuse takes two names: ALONE,MANY');
  const aloneDatabase = reusedPostgresDatabase(options.postgresAdminUrl, aloneName);
  const manyDatabase = reusedPostgresDatabase(options.postgresAdminUrl, manyName);
  const prepare = (database: BenchDatabase) =>
    withDatabase(database, async (handle) => {
      await sql`vacuum analyze`.execute(handle);
      const workload = await loadWorkload(handle);
      const counts = await sql<{ studies: number; subjects: number }>`
        select count(distinct study_id)::int as studies, count(*)::int as subjects from subjects`.execute(
        handle,
      );
      return { workload, studies: counts.rows[0]?.studies ?? 0, subjects: counts.rows[0]?.subjects ?? 0 };
    });
  const alone = await prepare(aloneDatabase);
  const many = await prepare(manyDatabase);
  log(
    `postgres: measuring ${aloneName} (${alone.subjects} subjects) and ${manyName} (${many.subjects}) in turn`,
  );
  const measured = await measureInTurn(
    'postgres',
    { database: aloneDatabase, workload: alone.workload, subjects: alone.subjects },
    { database: manyDatabase, workload: many.workload, subjects: many.subjects },
    options,
    log,
  );
  log(`kept ${aloneName} and ${manyName}`);
  return {
    db: 'postgres',
    studies: many.studies,
    subjectsPerStudy: alone.subjects,
    totalSubjects: many.subjects,
    benchStudyBuild: null,
    otherStudiesBuild: null,
    ...measured,
  };
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

interface Side {
  database: BenchDatabase;
  workload: Workload;
  /** Subjects in the whole database, as the results name it. */
  subjects: number;
}

/** The seconds of each measured slice: alone and among many take turns this often. */
const SLICE_SECONDS = 2;

/**
 * A server on each database; each scenario's users sign in on both, warm up, then the measured time
 * comes in slices of `SLICE_SECONDS`, alone and among many in turn (alone, many, many, alone, …:
 * `runScenariosInTurn`), `--duration` seconds each in all.
 */
async function measureInTurn(
  db: DatabaseKind,
  aloneSide: Side,
  manySide: Side,
  options: BenchOptions,
  log: (message: string) => void,
): Promise<{ alone: ScenarioResult[]; many: ScenarioResult[] }> {
  const scenarios = readScenarios().filter((scenario) =>
    (MANY_STUDIES_SCENARIOS as readonly string[]).includes(scenario.name),
  );
  const aloneServer: RunningServer = await startServer(aloneSide.database.env);
  const manyServer: RunningServer = await startServer(manySide.database.env);
  const durationMs = options.durationSeconds * 1000;
  const rounds = Math.max(1, Math.floor(options.durationSeconds / SLICE_SECONDS));
  // The context's workload is only read by the result (`subjects`, set below); each side's users
  // get their own database's study and subjects.
  const context = {
    db,
    workload: aloneSide.workload,
    durationMs,
    warmupMs: Math.min(2000, durationMs / 5),
    rounds,
  };
  const alone: ScenarioResult[] = [];
  const many: ScenarioResult[] = [];
  try {
    for (const scenario of scenarios) {
      const [aloneResult, manyResult] = await runScenariosInTurn(
        [aloneServer, manyServer],
        [
          boundTo(scenario, [aloneServer], aloneSide.workload),
          boundTo(scenario, [manyServer], manySide.workload),
        ],
        context,
      );
      if (!aloneResult || !manyResult) continue;
      // Each side's figures are its own server's: the other server idles meanwhile (its CPU, summed
      // in, is next to nothing; the peak RSS is the larger of the two).
      alone.push({ ...aloneResult, servers: 1, subjects: aloneSide.subjects });
      many.push({ ...manyResult, servers: 1, subjects: manySide.subjects });
      const figures = (result: ScenarioResult) =>
        `p50 ${result.p50Ms.toFixed(1)} ms, p95 ${result.p95Ms.toFixed(1)} ms${result.errors > 0 ? `, ${result.errors} ERRORS` : ''}`;
      log(
        `    ${scenario.name}: alone ${figures(aloneResult)}; among many ${figures(manyResult)}; p50 × ${(manyResult.p50Ms / aloneResult.p50Ms).toFixed(2)}`,
      );
    }
  } finally {
    await Promise.all([aloneServer.stop(), manyServer.stop()]);
  }
  return { alone, many };
}
