import { expect, it } from 'vitest';
import { startPollingLoop } from './polling-loop.ts';

it('reports how long each turn that did work took, and not the idle ones', async () => {
  const durations: number[] = [];
  let jobs = 2;
  let idleTurns = 0;
  const loop = startPollingLoop({
    pollMs: 5,
    onWorkDone: (seconds) => durations.push(seconds),
    turn: async () => {
      if (jobs === 0) {
        idleTurns += 1;
        return false;
      }
      jobs -= 1;
      await new Promise((resolve) => setTimeout(resolve, 20));
      return true;
    },
  });
  await expect.poll(() => idleTurns).toBeGreaterThan(0);
  await loop.stop();
  expect(durations).toHaveLength(2);
  for (const seconds of durations) expect(seconds).toBeGreaterThanOrEqual(0.015);
});
