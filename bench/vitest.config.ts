import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'bench',
    include: ['src/**/*.test.ts'],
    environment: 'node',
    // The identity test builds the same small study twice through the commands: minutes, not seconds.
    testTimeout: 600_000,
    hookTimeout: 120_000,
  },
});
