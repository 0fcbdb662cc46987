import type { Page, TestInfo } from '@playwright/test';
import { logInAs } from '../support/auth.ts';
import { axeViolations } from '../support/axe.ts';
import { layoutProblems } from '../support/layout.ts';
import { waitForQuietNetwork } from '../support/network.ts';
import { expect, test } from '../support/test.ts';

// Medical coding (issue 51 item 2): the coder opens the coding page from the menu, finds the living
// demo's queue (auto-coded terms, pending ones, one sent back as a query), picks a pending adverse
// event, searches the fictional MedDRA, sees the chosen term's path up to the SOC and codes it; the
// dictionaries section lists the loaded versions and previews the switch to 90.1. The page is checked
// for layout and accessibility in ko and en at 1440 and 1000 px, with screenshots in the report.

const STUDY_ID = 1;
const coder = { email: 'coder@demo.cdms', name: '윤코딩' } as const;

async function screenshot(page: Page, testInfo: TestInfo, name: string) {
  const body = await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });
  await testInfo.attach(name, { body, contentType: 'image/png' });
}

test.describe('medical coding', () => {
  test('the coder codes a pending adverse event from the queue', async ({ page }, testInfo) => {
    test.setTimeout(180_000);
    await logInAs(page, coder);
    await page.goto(`/coding/${STUDY_ID}?status=pending&kind=meddra`);
    const table = page.getByRole('table', { name: '코딩 대기열' });
    await expect(table).toBeVisible();
    const rows = table.locator('tbody tr[data-status="pending"]');
    await expect(rows.first()).toBeVisible();
    const before = await rows.count();

    // The first pending term: search its dictionary and pick the first result.
    const first = rows.first().getByRole('button').first();
    const verbatim = (await first.textContent()) ?? '';
    await first.click();
    const panel = page.getByRole('region', { name: verbatim, exact: true });
    await panel.getByLabel('사전 검색').fill('통증');
    await panel.getByRole('button', { name: '검색', exact: true }).click();
    const results = panel.getByRole('list');
    await expect(results.getByRole('radio').first()).toBeVisible();
    await results.getByRole('radio').first().check();
    await expect(panel.getByText('SOC', { exact: true }).first()).toBeVisible();
    await panel.getByRole('button', { name: '이 용어로 코딩' }).click();
    await expect(page.getByText(/코딩했습니다/).first()).toBeVisible();
    await expect(rows).toHaveCount(before - 1);

    // The whole queue and the dictionaries, in both languages and widths.
    await page.goto(`/coding/${STUDY_ID}`);
    await expect(page.getByRole('table', { name: '코딩 대기열' })).toBeVisible();
    await page.locator('tbody tr[data-status="query"]').first().getByRole('button').first().click();
    for (const language of ['ko', 'en'] as const) {
      if (language === 'en') await page.getByRole('button', { name: 'EN', exact: true }).first().click();
      for (const width of [1440, 1000]) {
        await page.setViewportSize({ width, height: 900 });
        await waitForQuietNetwork(page);
        await expect
          .poll(() => layoutProblems(page), { message: `coding page ${language} ${width}px` })
          .toEqual([]);
        await screenshot(page, testInfo, `coding-${language}-${width}`);
        if (language === 'ko' && width === 1440)
          expect.soft(await axeViolations(page), 'coding page').toEqual([]);
      }
    }
    // The version loaded but not in use: what switching to it changes.
    await page.getByRole('button', { name: 'What switching changes' }).click();
    await expect(page.getByText('Codes that change from 90.0 to 90.1')).toBeVisible();
    await screenshot(page, testInfo, 'coding-upgrade-preview-en-1000');
  });
});
