import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'server',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    // Builds the databases every test file gets a copy of (test/database-templates.ts).
    globalSetup: ['test/global-setup.ts'],
    // A worker imports the server's modules once for all the files it runs, not once per file (the
    // import was ~160 s of the suite's worker time). Each file still gets a database and app of its own.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
