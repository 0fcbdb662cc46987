import type { Response } from '@playwright/test';
import { logInAs, signInThroughApi } from '../support/auth.ts';
import {
  DASHBOARD_JS_BUDGET_GZIP_BYTES,
  gzipBytes,
  kilobytes,
  LANDING_JS_BUDGET_GZIP_BYTES,
  scriptsAroundFirstHeading,
  totalBytes,
} from '../support/javascript-size.ts';
import { expect, test } from '../support/test.ts';

/**
 * The first load (issue 13, issue 43 item 12): compressed files, the landing page's and the
 * dashboard's JavaScript within their budgets, and a loading state from the first paint until the
 * page is there. `npm run lighthouse` measures the
 * scores; these checks are fast enough for every run.
 */
test.describe('first load', () => {
  test('JavaScript comes compressed: brotli for the browser, gzip for a client that takes only gzip', async ({
    page,
    request,
  }) => {
    const scripts: Response[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script') scripts.push(response);
    });
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const entry = scripts.find((response) => /\/assets\/index-[\w-]+\.js$/.test(response.url()));
    expect(entry, 'the entry script').toBeDefined();
    const headers = await (entry as Response).allHeaders();
    expect(headers['content-encoding']).toBe('br');
    expect(headers.vary).toContain('accept-encoding');
    expect(headers['content-type']).toContain('javascript');
    expect(headers['cache-control']).toBe('public, max-age=31536000, immutable');

    const gzip = await request.get((entry as Response).url(), { headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers()['content-encoding']).toBe('gzip');
    const page1 = await request.get('/', { headers: { 'accept-encoding': 'gzip, br' } });
    expect(page1.headers()['cache-control']).toBe('no-cache');
  });

  test(`the landing page loads at most ${kilobytes(LANDING_JS_BUDGET_GZIP_BYTES)} of JavaScript (gzip)`, async ({
    page,
  }, testInfo) => {
    const scripts: Response[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script') scripts.push(response);
    });
    await page.goto('/', { waitUntil: 'networkidle' });
    await expect(page.getByRole('button', { name: '로그인' })).toBeVisible();
    let total = 0;
    for (const script of scripts) total += gzipBytes(await script.body());
    testInfo.annotations.push({
      type: 'landing JavaScript',
      description: `${scripts.length} files, ${total} bytes gzip (${kilobytes(total)})`,
    });
    expect(total).toBeLessThanOrEqual(LANDING_JS_BUDGET_GZIP_BYTES);
    // Nothing of the signed-in app comes along: no charts, no rich-text editor, no form engine.
    const names = scripts.map((script) => new URL(script.url()).pathname).join(' ');
    expect(names).not.toMatch(/dashboard|study-pages|notice-register|crf-form|subject-detail|chart/);
  });

  test(`the signed-in dashboard is usable with at most ${kilobytes(DASHBOARD_JS_BUDGET_GZIP_BYTES)} of JavaScript (gzip); the charts come after`, async ({
    page,
  }, testInfo) => {
    // Signed in through the API: the browser's first page is the dashboard, nothing is cached yet.
    await signInThroughApi(page, { email: 'pi@demo.cdms' });
    const scripts = await scriptsAroundFirstHeading(page, '/dashboard/1?type=PI', async () => {
      // Settled once both chart panels have drawn (the doughnuts and the monthly bars).
      await expect(page.getByRole('region', { name: '대상자 현황' }).getByRole('img').first()).toBeVisible();
      await expect(page.getByRole('region', { name: '월별 등록 현황' }).getByRole('img')).toBeVisible();
    });
    await expect(page.getByRole('heading', { level: 1 })).toContainText('고막');
    const usable = totalBytes(scripts.untilUsable);
    const afterwards = totalBytes(scripts.afterwards);
    testInfo.annotations.push({
      type: 'dashboard JavaScript',
      description: `until usable ${scripts.untilUsable.length} files, ${usable} bytes gzip (${kilobytes(usable)}); afterwards (charts) ${scripts.afterwards.length} files, ${afterwards} bytes (${kilobytes(afterwards)})`,
    });
    // The ceiling, below the 200 kB target (support/javascript-size.ts).
    expect(usable).toBeLessThanOrEqual(DASHBOARD_JS_BUDGET_GZIP_BYTES);
    // Chart.js is what the page loads on demand, not before it is there; no editor comes at all.
    const names = (list: typeof scripts.untilUsable) =>
      list.map((script) => new URL(script.url).pathname).join(' ');
    expect(names(scripts.untilUsable)).not.toMatch(/dashboard-charts|rich-text-editor|crf-form/);
    expect(names(scripts.afterwards)).toMatch(/dashboard-charts/);
  });

  test.describe('before any script runs', () => {
    test.use({ javaScriptEnabled: false });

    test('index.html itself shows the loading state', async ({ page }) => {
      await page.goto('/dashboard/1');
      const status = page.getByRole('status');
      await expect(status).toContainText('불러오는 중…');
      await expect(status).toContainText('Loading…');
    });
  });

  test('the page is never blank while the code and the signed-in user load', async ({ page }) => {
    await logInAs(page, { email: 'pi@demo.cdms', name: '김연구' });
    // Watch #root from the first paint: a moment with nothing in it would be a blank page. (A string:
    // the e2e project has no DOM types.)
    await page.addInitScript({
      content: `document.addEventListener('DOMContentLoaded', () => {
        const root = document.getElementById('root');
        const record = () => { if (root.textContent.trim() === '') window.blankSeen = true; };
        record();
        new MutationObserver(record).observe(root, { childList: true, subtree: true, characterData: true });
      });`,
    });
    // A slow answer to "who is signed in": the page says it is loading meanwhile.
    await page.route('**/api/auth/me', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue();
    });
    await page.goto('/task-list');
    await expect(page.getByRole('status')).toContainText(/불러오는 중…|인증 중입니다…/);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 15_000 });
    expect(await page.evaluate('window.blankSeen === true')).toBe(false);
  });
});
