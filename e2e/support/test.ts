import type { Browser, BrowserContext, ConsoleMessage } from '@playwright/test';
import { test as base, expect } from '@playwright/test';
import { trackNetwork } from './network.ts';
import { e2eServer } from './servers.ts';

/**
 * A request a test makes fail on purpose (a wrong password, a refused call it checks). Chromium
 * logs "Failed to load resource: … status of 401" for it as a console error of its own, which no
 * code of ours can avoid; the test names it, with the reason, and only that one message passes.
 */
interface ExpectedFailedRequest {
  /** Path of the request (`/api/auth/login`), or a pattern matched against the whole URL. */
  path: string | RegExp;
  status: number;
  why: string;
}

export interface ConsoleGuard {
  /** Lets the browser's own log line for this failing request through (see ExpectedFailedRequest). */
  allowFailedRequest(path: string | RegExp, status: number, why: string): void;
}

/**
 * Messages allowed in every test: only what is outside our control. Each entry says why.
 * (Empty: nothing of the browser's or the app's own is tolerated.)
 */
const allowedEverywhere: { pattern: RegExp; why: string }[] = [];

function failedRequestMatches(message: ConsoleMessage, expected: ExpectedFailedRequest): boolean {
  const text = message.text();
  if (!text.startsWith('Failed to load resource:') || !text.includes(`status of ${expected.status} `)) {
    return false;
  }
  const url = message.location().url;
  return typeof expected.path === 'string'
    ? new URL(url).pathname === expected.path
    : expected.path.test(url);
}

function describe(message: ConsoleMessage): string {
  const { url, lineNumber } = message.location();
  return `console.${message.type()}: ${message.text()}${url ? ` (${url}:${lineNumber})` : ''}`;
}

/**
 * Playwright's `test` with baseURL pointing at the server global-setup.ts started for this worker
 * (e2eServer, servers.ts), and a clean console required: any console error or warning and any
 * uncaught page error in any page of the test (its own context and the ones it opens with
 * `browser.newContext`) fails the test when it ends, with the messages listed. The same contexts'
 * requests are counted for waitForQuietNetwork (network.ts).
 */
export const test = base.extend<{ consoleGuard: ConsoleGuard }>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads fixture dependencies from this pattern.
  baseURL: async ({}, use) => {
    await use(e2eServer().baseUrl);
  },

  consoleGuard: [
    async ({ context, browser }, use) => {
      const problems: string[] = [];
      const expectedFailures: ExpectedFailedRequest[] = [];
      const watch = (watched: BrowserContext) => {
        watched.on('console', (message) => {
          if (message.type() !== 'error' && message.type() !== 'warning') return;
          if (allowedEverywhere.some((allowed) => allowed.pattern.test(message.text()))) return;
          if (expectedFailures.some((expected) => failedRequestMatches(message, expected))) return;
          problems.push(describe(message));
        });
        watched.on('weberror', (error) => {
          problems.push(`uncaught page error: ${error.error().stack ?? error.error().message}`);
        });
      };
      watch(context);
      trackNetwork(context);
      // Contexts a test opens itself (a second user) are watched too.
      const newContext = browser.newContext;
      (browser as { newContext: Browser['newContext'] }).newContext = async (options) => {
        const opened = await newContext.call(browser, options);
        watch(opened);
        trackNetwork(opened);
        return opened;
      };
      try {
        await use({
          allowFailedRequest: (path, status, why) => expectedFailures.push({ path, status, why }),
        });
      } finally {
        (browser as { newContext: Browser['newContext'] }).newContext = newContext;
      }
      expect(problems, 'the browser console must stay clean (errors, warnings, uncaught errors)').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
