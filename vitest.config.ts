import os from 'node:os';
import { defineConfig } from 'vitest/config';

// One `vitest run` at the root runs every workspace's unit and database tests.
export default defineConfig({
  test: {
    // The default report, then the 20 slowest test files (scripts/vitest-slowest-files.ts).
    reporters: ['default', './scripts/vitest-slowest-files.ts'],
    projects: [
      'packages/contract',
      'packages/study',
      'apps/server',
      'apps/web',
      'bench',
      // The repository's own scripts (the Node preflight); no workspace of their own.
      { test: { name: 'scripts', include: ['scripts/**/*.test.ts'], environment: 'node' } },
    ],
    // Vitest's default is one worker per core but one, which is a single worker on the 2-core CI
    // machine. The database tests spend much of their time waiting for PostgreSQL and for the
    // server processes they start, so two workers overlap that waiting: on that machine the whole
    // suite took 11.8 min with two against 21.7 min with one (2026-11-27).
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
  },
});
