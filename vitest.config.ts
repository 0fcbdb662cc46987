import { defineConfig } from 'vitest/config';

// One `vitest run` at the root runs every workspace's unit and database tests.
export default defineConfig({
  test: {
    projects: ['packages/contract', 'packages/study', 'apps/server', 'apps/web', 'bench'],
  },
});
