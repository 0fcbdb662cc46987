import { describe, expect, it } from 'vitest';
import type { VirtualUser } from './load/run-load.ts';
import { runScenariosInTurn } from './run-scenario.ts';
import type { Scenario } from './scenarios.ts';
import type { RunningServer } from './server/start-server.ts';
import type { Workload } from './workload.ts';

// How scenarios measured in turn are sliced and added up, with virtual users that answer at once:
// no timing is asserted, only which scenario ran when and what the slices add up to.

const workload: Workload = { studyId: 1, subjects: 50, readSubjects: [], saverSubjects: [] };
/** This process stands in for the server: its CPU and memory are read from /proc like a server's. */
const server: RunningServer = {
  process: null as never,
  pid: process.pid,
  url: 'http://127.0.0.1:1',
  stop: async () => {},
};

/** A scenario whose users log which scenario answered, and how often its users were refreshed. */
function loggingScenario(users: number, log: number[], refreshes: Map<number, number>): Scenario {
  return {
    name: 'form save',
    users,
    async prepare() {
      const virtualUsers: VirtualUser[] = Array.from({ length: users }, () => async () => {
        if (log.at(-1) !== users) log.push(users);
        await new Promise((resolve) => setImmediate(resolve));
        return { status: 200 };
      });
      return {
        users: virtualUsers,
        refresh: async () => {
          refreshes.set(users, (refreshes.get(users) ?? 0) + 1);
        },
        close: () => {},
      };
    },
  };
}

describe('runScenariosInTurn', () => {
  it('gives each scenario a slice per round, in order and then in reverse, and adds the slices up', async () => {
    const log: number[] = [];
    const refreshes = new Map<number, number>();
    const scenarios = [1, 8, 32].map((users) => loggingScenario(users, log, refreshes));
    const results = await runScenariosInTurn([server], scenarios, {
      db: 'pglite',
      workload,
      durationMs: 120,
      warmupMs: 5,
      rounds: 3,
    });
    // Warm-ups 1, 8, 32; then rounds 1, 8, 32 | 32, 8, 1 | 1, 8, 32 (a scenario twice in a row is one entry).
    expect(log).toEqual([1, 8, 32, 1, 8, 32, 8, 1, 8, 32]);
    // Before each warm-up and each slice: the users re-read what others changed.
    expect(Object.fromEntries(refreshes)).toEqual({ 1: 4, 8: 4, 32: 4 });
    expect(results.map((result) => [result.users, result.rounds, result.errors])).toEqual([
      [1, 3, 0],
      [8, 3, 0],
      [32, 3, 0],
    ]);
    for (const result of results) {
      expect(result.requests).toBeGreaterThan(0);
      // Three slices of ~40 ms each: the measured time is theirs together, not one slice's.
      expect(result.durationSeconds).toBeGreaterThanOrEqual(0.12);
      expect(result.requestsPerSecond).toBeCloseTo(result.requests / result.durationSeconds, 6);
      expect(result.p50Ms).toBeLessThanOrEqual(result.p95Ms);
      expect(result.postgresCpuMsPerRequest).toBeNull();
    }
  });
});
