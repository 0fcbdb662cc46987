import type { BrowserContext, Page } from '@playwright/test';

/**
 * The requests of a browser context still waiting for their answer, counted from Playwright's own
 * events: what `waitForLoadState('networkidle')` looks at, without its fixed half second of silence
 * after the last answer (~0.6 s a page, on every page the accessibility and layout checks open).
 */
interface NetworkTracker {
  inFlight: number;
  /** Date.now() of the last request started or answered. */
  lastChange: number;
}

const trackers = new WeakMap<BrowserContext, NetworkTracker>();

/** Starts counting a context's requests; test.ts does it for every context a test opens. */
export function trackNetwork(context: BrowserContext): void {
  if (trackers.has(context)) return;
  const tracker: NetworkTracker = { inFlight: 0, lastChange: Date.now() };
  trackers.set(context, tracker);
  const started = () => {
    tracker.inFlight += 1;
    tracker.lastChange = Date.now();
  };
  const ended = () => {
    tracker.inFlight = Math.max(0, tracker.inFlight - 1);
    tracker.lastChange = Date.now();
  };
  context.on('request', started);
  context.on('requestfinished', ended);
  context.on('requestfailed', ended);
}

/**
 * Resolves once no request of the page's context has been waiting for `quietMs` (the page has what
 * it asked for, and what it asked for next). A page asks for the next thing (a count after a list,
 * a chunk after a route) within milliseconds of an answer, so 150 ms of silence means it is done.
 */
export async function waitForQuietNetwork(page: Page, quietMs = 150, timeoutMs = 15_000): Promise<void> {
  const tracker = trackers.get(page.context());
  if (!tracker)
    throw new Error('waitForQuietNetwork: this context is not tracked (support/test.ts tracks them)');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const silentFor = Date.now() - tracker.lastChange;
    if (tracker.inFlight === 0 && silentFor >= quietMs) return;
    if (Date.now() > deadline) {
      throw new Error(
        `the network did not go quiet in ${timeoutMs} ms (${tracker.inFlight} requests waiting)`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, tracker.inFlight === 0 ? quietMs - silentFor : 25));
  }
}
