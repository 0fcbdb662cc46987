import { defineConfig } from '@playwright/test';
import { chromiumPath } from './support/chromium-path.ts';
import { E2E_WORKERS } from './support/servers.ts';

/**
 * End-to-end tests drive Debian's Chromium (never a downloaded browser) against the real built
 * server. global-setup.ts starts one server per worker, each on a free port with a throw-away data
 * directory and mailbox of its own: the tests change the server's data, so a worker never shares its
 * server, and the files a worker is given run one after another (not fullyParallel). E2E_WORKERS
 * sets the number of workers (default 2; support/servers.ts).
 */
export default defineConfig({
  testDir: './tests',
  outputDir: './artifacts/test-results',
  globalSetup: './support/global-setup.ts',
  fullyParallel: false,
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
    timezoneId: 'Asia/Seoul',
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: chromiumPath(),
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
