import type { PgbenchResult } from './pgbench.ts';
import type { ScenarioResult } from './run-scenario.ts';
import type { TargetCheck } from './targets.ts';

const COLUMNS = [
  'scenario',
  'db',
  'subjects',
  'users',
  'servers',
  'requests',
  'p50 ms',
  'p95 ms',
  'p99 ms',
  'req/s',
  'server CPU ms/req',
  'pg CPU ms/req',
  'load CPU ms/req',
  'server cores',
  'peak RSS MB',
  'errors',
] as const;

function row(result: ScenarioResult): string[] {
  return [
    result.scenario,
    result.db,
    String(result.subjects),
    String(result.users),
    String(result.servers),
    String(result.requests),
    result.p50Ms.toFixed(1),
    result.p95Ms.toFixed(1),
    result.p99Ms.toFixed(1),
    result.requestsPerSecond.toFixed(1),
    result.serverCpuMsPerRequest.toFixed(2),
    result.postgresCpuMsPerRequest === null ? '-' : result.postgresCpuMsPerRequest.toFixed(2),
    result.loadGeneratorCpuMsPerRequest.toFixed(2),
    result.busiestServerCores.toFixed(2),
    result.peakRssMb.toFixed(0),
    String(result.errors),
  ];
}

/** One table of every scenario of the run, the pgbench reference, then the targets. */
export function formatReport(
  results: ScenarioResult[],
  pgbench: PgbenchResult | null,
  targets: TargetCheck[],
): string {
  const rows = [COLUMNS.map(String), ...results.map(row)];
  const widths = COLUMNS.map((_, column) => Math.max(...rows.map((cells) => (cells[column] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) =>
        column <= 1 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0),
      )
      .join(' | ');
  const out = [
    line(rows[0] ?? []),
    widths.map((width) => '-'.repeat(width)).join('-|-'),
    ...rows.slice(1).map(line),
  ];
  out.push('');
  out.push(
    pgbench
      ? `reference: ${pgbench.command} (scale ${pgbench.scale}) on the same PostgreSQL: ${pgbench.tps.toFixed(1)} TPS`
      : 'reference: pgbench not run (no PostgreSQL in this run)',
  );
  out.push('');
  out.push('targets');
  for (const check of targets) {
    const verdict = check.met === null ? 'not measured' : check.met ? 'met' : 'NOT met';
    out.push(`  ${verdict.padEnd(12)} ${check.target}: ${check.measured}`);
    if (check.why) out.push(`  ${''.padEnd(12)}   why: ${check.why}`);
  }
  return out.join('\n');
}
