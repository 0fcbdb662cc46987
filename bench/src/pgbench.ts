import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { promisify } from 'node:util';
import { databaseUrl, runOnAdminDatabase } from './bench-database.ts';

const run = promisify(execFile);

export interface PgbenchResult {
  /** Transactions per second of `pgbench -N` (simple updates, no branch/teller contention). */
  tps: number;
  clients: number;
  threads: number;
  scale: number;
  durationSeconds: number;
  command: string;
}

function findPgbench(): string {
  for (const directory of (process.env.PATH ?? '').split(':')) {
    if (directory && existsSync(`${directory}/pgbench`)) return `${directory}/pgbench`;
  }
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    for (const version of readdirSync(root).sort().reverse()) {
      const candidate = `${root}/${version}/bin/pgbench`;
      if (existsSync(candidate)) return candidate;
    }
  }
  throw new Error('pgbench not found (Debian: the postgresql-client package)');
}

/**
 * The reference: what the same PostgreSQL does with pgbench's simple-update transactions
 * (`pgbench -N`, 8 clients, 2 threads) on a scratch database of its own, dropped afterwards.
 */
export async function runPgbench(
  adminUrl: string,
  options: { durationSeconds: number; scale: number },
): Promise<PgbenchResult> {
  const pgbench = findPgbench();
  const name = `cdms_bench_pgbench_${process.pid}`;
  await runOnAdminDatabase(adminUrl, `drop database if exists ${name}`);
  await runOnAdminDatabase(adminUrl, `create database ${name}`);
  const url = databaseUrl(adminUrl, name);
  try {
    await run(pgbench, ['-i', '-q', '-s', String(options.scale), url]);
    const args = ['-N', '-c', '8', '-j', '2', '-T', String(options.durationSeconds), url];
    const { stdout } = await run(pgbench, args);
    const match =
      stdout.match(/tps = ([\d.]+) \(without initial connection time\)/) ?? stdout.match(/tps = ([\d.]+)/);
    if (!match?.[1]) throw new Error(`pgbench printed no tps:\n${stdout}`);
    return {
      tps: Number(match[1]),
      clients: 8,
      threads: 2,
      scale: options.scale,
      durationSeconds: options.durationSeconds,
      command: `pgbench ${args.slice(0, -1).join(' ')}`,
    };
  } finally {
    await runOnAdminDatabase(adminUrl, `drop database if exists ${name} with (force)`);
  }
}
