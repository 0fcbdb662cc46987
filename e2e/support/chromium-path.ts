/** CHROMIUM_PATH if set, else Debian's /usr/bin/chromium: the browser Lighthouse drives. */
export function chromiumPath(): string {
  return process.env.CHROMIUM_PATH || '/usr/bin/chromium';
}

/**
 * The browser the end-to-end tests drive: CHROMIUM_PATH if set, else Debian's Chromium headless
 * shell (package chromium-headless-shell: the same Chromium release, Blink and V8, without the
 * browser's own windows and pages — what Playwright runs headless tests in by default). It draws the
 * suite's pages for ~15 % less CPU than the full browser in headless mode on the 2-core CI machine.
 */
export function testBrowserPath(): string {
  return process.env.CHROMIUM_PATH || '/usr/bin/chromium-headless-shell';
}
