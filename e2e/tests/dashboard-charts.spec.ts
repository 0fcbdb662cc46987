import type { Locator, Page, TestInfo } from '@playwright/test';
import { logInAs } from '../support/auth.ts';
import { expect, test } from '../support/test.ts';

// The dashboard's charts as a coordinator sees them: the target-status doughnuts per gender and per
// age band add up to the subject total, subjects without demographics in a "not entered" doughnut of
// their own; screenshots in Korean and English at 1440 px.

const STUDY_ID = 1;
const crc = { email: 'crc@demo.cdms', name: '박코디' } as const;

async function screenshot(page: Page, testInfo: TestInfo, name: string) {
  const body = await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });
  await testInfo.attach(name, { body, contentType: 'image/png' });
}

/** The subjects counted in the doughnuts, from each chart's text alternative ("…: 전체 3명, …"). */
async function doughnutTotal(panel: Locator, pattern: RegExp): Promise<number> {
  const labels = await panel
    .getByRole('img')
    .evaluateAll((charts) => charts.map((chart) => chart.getAttribute('aria-label') ?? ''));
  expect(labels.length).toBeGreaterThan(0);
  return labels.reduce((sum, label) => sum + Number(pattern.exec(label)?.[1] ?? Number.NaN), 0);
}

test('the target-status doughnuts add up to the subject total, not-entered included (ko, en)', async ({
  page,
}, testInfo) => {
  test.setTimeout(90_000);
  await logInAs(page, crc);
  await page.goto(`/dashboard/${STUDY_ID}`);

  const facts = page.getByRole('region', { name: '대상자 정보' });
  await expect(facts).toContainText(/전체 \d+명/);
  const total = Number(/전체 (\d+)명/.exec((await facts.textContent()) ?? '')?.[1]);
  expect(total).toBeGreaterThan(0);

  const panel = page.getByRole('region', { name: '대상자 현황' });
  await expect(panel.getByRole('img').first()).toBeVisible();
  expect(await doughnutTotal(panel, /: 전체 (\d+)명/)).toBe(total);
  await expect(panel.getByRole('figure').filter({ hasText: '미입력' })).toHaveCount(1);
  await screenshot(page, testInfo, 'dashboard-gender-ko');

  await panel.getByRole('button', { name: '연령' }).click();
  await expect(panel.getByRole('figure').filter({ hasText: /세/ }).first()).toBeVisible();
  expect(await doughnutTotal(panel, /: 전체 (\d+)명/)).toBe(total);
  await expect(panel.getByRole('figure').filter({ hasText: '미입력' })).toHaveCount(1);
  await screenshot(page, testInfo, 'dashboard-age-ko');

  await page.getByRole('button', { name: 'EN', exact: true }).first().click();
  const panelEn = page.getByRole('region', { name: 'Subject status' });
  await panelEn.getByRole('button', { name: 'Age' }).click();
  await expect(panelEn.getByRole('figure').filter({ hasText: 'Not entered' })).toHaveCount(1);
  expect(await doughnutTotal(panelEn, /: (\d+) in total/)).toBe(total);
  await screenshot(page, testInfo, 'dashboard-age-en');
  await panelEn.getByRole('button', { name: 'Gender' }).click();
  await expect(panelEn.getByRole('figure').filter({ hasText: 'Not entered' })).toHaveCount(1);
  expect(await doughnutTotal(panelEn, /: (\d+) in total/)).toBe(total);
  await screenshot(page, testInfo, 'dashboard-gender-en');
  await page.getByRole('button', { name: 'KO', exact: true }).first().click();
});
