import { parseArgs } from 'node:util';
import { type DatabaseKind, DEFAULT_POSTGRES_ADMIN_URL } from './bench-database.ts';
import { DEFAULT_SITE_COUNT } from './build-study/bench-study.ts';

export interface BenchOptions {
  databases: DatabaseKind[];
  /** Study sizes on PostgreSQL, ascending: one database grown from each size to the next. */
  postgresSizes: number[];
  /** Study sizes on the embedded PGlite (smaller: it is the single-machine, small-study setup). */
  pgliteSizes: number[];
  siteCount: number;
  /** Measured seconds per scenario (after a warm-up of a fifth of it, at most 2 s). */
  durationSeconds: number;
  pgbench: { run: boolean; durationSeconds: number; scale: number };
  postgresAdminUrl: string;
  keep: boolean;
  /** A PostgreSQL bench database kept by an earlier run (--keep) to measure again, grown if smaller. */
  reuseDatabase: string | null;
  smoke: boolean;
  resultsDirectory: string;
  /** Only these scenarios (names as printed, e.g. "subject list", "form save", "ODM export"); null: all. */
  scenarios: string[] | null;
  /**
   * Server processes sharing the database (architecture.md "Scale-out"), each virtual user bound to
   * one of them in turn as a load balancer with sticky sessions would; 1 by default.
   */
  servers: number;
  /**
   * The many-studies measurement (issue 45 item 6) instead of the per-size runs: one study of
   * `subjectsPerStudy` measured alone, then among `studies` studies of as many subjects each; null:
   * not run.
   */
  manyStudies: { studies: number; subjectsPerStudy: number } | null;
}

export const USAGE = `npm run bench -- [options]
  --db postgres|pglite|both   databases to measure (default both)
  --sizes 500,5000            PostgreSQL study sizes, subjects (default 500,5000)
  --pglite-sizes 500          PGlite study sizes (default 500)
  --sites 20                  sites of the synthetic study (default 20)
  --duration 10               measured seconds per scenario (default 10)
  --pgbench-duration 10       seconds of the pgbench -N reference (default 10)
  --no-pgbench                skip the reference
  --postgres-url URL          a database of the PostgreSQL to use for admin statements
                              (default $BENCH_POSTGRES_URL or ${DEFAULT_POSTGRES_ADMIN_URL})
  --scenarios NAMES           only these scenarios, comma-separated names as printed
                              (e.g. "form save,ODM export,uploads,definition install,amendment impact,amendment migration"; default all)
  --servers 1                 server processes on the one database; virtual users are spread over
                              them in turn, as a load balancer would (default 1)
  --keep                      keep the bench databases (they are dropped by default)
  --reuse NAME                measure the PostgreSQL bench database NAME kept by an earlier run
                              (grown to the sizes asked; kept afterwards)
  --many-studies              instead of the per-size runs: the subject list, dashboard and form read
                              of one study measured alone, then among other studies in the same
                              database (issue 45: 20 studies, 50,000 subjects in all; ~15 min a database)
                              --reuse ALONE,MANY (PostgreSQL) measures again the two databases an
                              earlier --many-studies --keep left
  --studies 20                studies in the database with --many-studies (default 20)
  --study-subjects 2500       subjects of each study with --many-studies (default 2500)
  --smoke                     50 subjects, 1 s per scenario, both databases: proves the harness works
                              (CI); results go to bench/results/smoke/ (not committed)`;

function sizes(text: string): number[] {
  const values = text.split(',').map((part) => Number(part.trim()));
  if (values.some((value) => !Number.isInteger(value) || value < 1)) throw new Error(`bad sizes: ${text}`);
  return [...new Set(values)].sort((a, b) => a - b);
}

export function parseOptions(argv: string[]): BenchOptions | 'help' {
  const { values } = parseArgs({
    args: argv,
    options: {
      db: { type: 'string', default: 'both' },
      sizes: { type: 'string' },
      'pglite-sizes': { type: 'string' },
      sites: { type: 'string' },
      duration: { type: 'string' },
      'pgbench-duration': { type: 'string' },
      'no-pgbench': { type: 'boolean', default: false },
      'postgres-url': { type: 'string' },
      scenarios: { type: 'string' },
      reuse: { type: 'string' },
      servers: { type: 'string' },
      keep: { type: 'boolean', default: false },
      'many-studies': { type: 'boolean', default: false },
      studies: { type: 'string' },
      'study-subjects': { type: 'string' },
      smoke: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) return 'help';
  const smoke = values.smoke;
  const db = values.db;
  if (db !== 'postgres' && db !== 'pglite' && db !== 'both')
    throw new Error(`--db must be postgres, pglite or both`);
  const databases: DatabaseKind[] = db === 'both' ? ['postgres', 'pglite'] : [db];
  const durationSeconds = Number(values.duration ?? (smoke ? 1 : 10));
  if (!(durationSeconds > 0)) throw new Error('--duration must be a positive number of seconds');
  const servers = Number(values.servers ?? 1);
  if (!Number.isInteger(servers) || servers < 1) throw new Error('--servers must be a whole number ≥ 1');
  const studies = Number(values.studies ?? 20);
  const subjectsPerStudy = Number(values['study-subjects'] ?? 2500);
  if (!Number.isInteger(studies) || studies < 2) throw new Error('--studies must be a whole number ≥ 2');
  if (!Number.isInteger(subjectsPerStudy) || subjectsPerStudy < 100)
    throw new Error('--study-subjects must be a whole number ≥ 100');
  return {
    databases,
    postgresSizes: sizes(values.sizes ?? (smoke ? '50' : '500,5000')),
    pgliteSizes: sizes(values['pglite-sizes'] ?? (smoke ? '50' : '500')),
    siteCount: Number(values.sites ?? DEFAULT_SITE_COUNT),
    durationSeconds,
    pgbench: {
      // The many-studies measurement compares the server with itself: no reference needed.
      run: databases.includes('postgres') && !values['no-pgbench'] && !values['many-studies'],
      durationSeconds: Number(values['pgbench-duration'] ?? (smoke ? 2 : 10)),
      scale: smoke ? 1 : 10,
    },
    postgresAdminUrl: values['postgres-url'] ?? process.env.BENCH_POSTGRES_URL ?? DEFAULT_POSTGRES_ADMIN_URL,
    keep: values.keep || values.reuse !== undefined,
    reuseDatabase: values.reuse ?? null,
    smoke,
    resultsDirectory: smoke ? 'results/smoke' : 'results',
    scenarios: values.scenarios ? values.scenarios.split(',').map((name) => name.trim()) : null,
    servers,
    manyStudies: values['many-studies'] ? { studies, subjectsPerStudy } : null,
  };
}
