import { defineConfig } from '@playwright/test';
import { testBrowserPath } from './support/chromium-path.ts';
import { E2E_WORKERS } from './support/servers.ts';

/**
 * End-to-end tests drive Debian's Chromium (never a downloaded browser) against the real built
 * server. global-setup.ts starts one server per worker, each on a free port with a throw-away data
 * directory and mailbox of its own: the tests change the server's data, so a worker never shares its
 * server. Every test is independent of the others, in its own file too: a test that writes makes
 * its own subject (or notice, user, guideline) and finds it by what it made; a test that reads reads
 * what no test changes. So the tests are dealt to the workers one by one (fullyParallel), not file
 * by file, and the workers finish together. E2E_WORKERS sets the number of workers (default 2;
 * support/servers.ts).
 */
export default defineConfig({
  testDir: './tests',
  outputDir: './artifacts/test-results',
  globalSetup: './support/global-setup.ts',
  fullyParallel: true,
  workers: E2E_WORKERS,
  retries: process.env.CI ? 1 : 0,
  // A test's budget, not a speed target: on a day this shared 2-core machine ran at half its usual
  // speed (pgbench 2,400 against 5,350 TPS), two tests that take ~12 s ran past 30 s.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [
    ['list'],
    ['html', { outputFolder: './artifacts/report', open: 'never' }],
    ['./support/slowest-files-reporter.ts'],
  ],
  use: {
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1440, height: 900 },
    locale: 'ko-KR',
    // The product honours the preference (modal, toast, the landing page's spinning rings): without
    // it every page behind a login spent compositor time on the landing page's endless animation and
    // every dialog waited for its entrance. What is tested is the page, not the motion.
    reducedMotion: 'reduce',
    timezoneId: 'Asia/Seoul',
    screenshot: 'only-on-failure',
    // Recording a trace snapshots the page at every action: a fifth of a test's CPU. CI records one
    // when a failed test is run again (retries: 1), a developer's run keeps the failed test's.
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
    launchOptions: {
      executablePath: testBrowserPath(),
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        // No GPU here: without this flag Chromium still composites through its GPU process on
        // SwiftShader (GL emulated on the CPU); the software compositor draws the same pages for
        // ~10 % less CPU in total.
        '--disable-gpu-compositing',
      ],
    },
  },
});
