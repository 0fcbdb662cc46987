import { test as base, expect } from '@playwright/test';

/** Playwright's `test` with baseURL pointing at the server global-setup.ts started. */
export const test = base.extend({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads fixture dependencies from this pattern.
  baseURL: async ({}, use) => {
    const url = process.env.CDMS_E2E_BASE_URL;
    if (!url) throw new Error('CDMS_E2E_BASE_URL is not set: the global setup did not run.');
    await use(url);
  },
});

export { expect };
