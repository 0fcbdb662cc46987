import { readFile } from 'node:fs/promises';
import type { Page, TestInfo } from '@playwright/test';
import { logInAs } from '../support/auth.ts';
import { expect, test } from '../support/test.ts';

// The standard reports (issue 17), as the data manager uses them: the page from the CRA menu, the
// enrollment table equal to what the API counts, a switch to the adverse event listing (serious
// events highlighted) and to the protocol deviations, and the CSV of the listing. Screenshots in ko
// and en at 1440 and 1000px are attached to the report.

const STUDY_ID = 1;
const dm = { email: 'dm@demo.cdms', name: '정데이' } as const;

interface EnrollmentSite {
  siteCode: string;
  screened: number;
  screeningFailures: number;
  randomized: number;
  targetIsDefault: boolean;
}

async function screenshot(page: Page, testInfo: TestInfo, name: string) {
  const body = await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });
  await testInfo.attach(name, { body, contentType: 'image/png' });
}

async function screenshots(
  page: Page,
  testInfo: TestInfo,
  name: string,
  heading: { ko: string; en: string },
) {
  await page.setViewportSize({ width: 1440, height: 900 });
  await screenshot(page, testInfo, `${name}-ko-1440`);
  await page.setViewportSize({ width: 1000, height: 900 });
  await screenshot(page, testInfo, `${name}-ko-1000`);
  await page.getByRole('button', { name: 'EN', exact: true }).first().click();
  await expect(page.getByRole('heading', { name: heading.en, level: 1 })).toBeVisible();
  await screenshot(page, testInfo, `${name}-en-1000`);
  await page.setViewportSize({ width: 1440, height: 900 });
  await screenshot(page, testInfo, `${name}-en-1440`);
  await page.getByRole('button', { name: 'KO', exact: true }).first().click();
  await expect(page.getByRole('heading', { name: heading.ko, level: 1 })).toBeVisible();
}

test('a DM opens the reports, reads enrollment, switches to adverse events and deviations, downloads the CSV', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  await logInAs(page, dm);
  await page.goto(`/dashboard/${STUDY_ID}?menu-type=CRA`);
  await page.getByRole('link', { name: '리포트' }).click();
  await expect(page).toHaveURL(new RegExp(`/report/${STUDY_ID}`));
  const heading = { ko: '리포트', en: 'Reports' };
  await expect(page.getByRole('heading', { name: heading.ko, level: 1 })).toBeVisible();

  // Enrollment (the default): one row per site with the API's counts, and the cumulative chart.
  const enrollment = (await (
    await page.request.get(`/api/studies/${STUDY_ID}/reports/enrollment`)
  ).json()) as {
    sites: EnrollmentSite[];
  };
  expect(enrollment.sites.length).toBeGreaterThan(0);
  const siteTable = page.getByRole('region', { name: '기관별 등록 현황' });
  for (const site of enrollment.sites) {
    const row = siteTable.locator('tbody tr').filter({ hasText: site.siteCode });
    await expect(row.locator('td').nth(1)).toHaveText(String(site.screened));
    await expect(row.locator('td').nth(2)).toHaveText(String(site.screeningFailures));
    await expect(row.locator('td').nth(3)).toHaveText(String(site.randomized));
  }
  await expect(page.getByRole('img', { name: /누적 스크리닝/ })).toBeVisible();

  // The DM gives a site on the study default its own target, sees it in the table, and puts it back.
  const onDefault = enrollment.sites.find((site) => site.targetIsDefault);
  expect(onDefault).toBeDefined();
  const defaultRow = siteTable.locator('tbody tr').filter({ hasText: onDefault?.siteCode ?? '' });
  await expect(defaultRow.locator('td').nth(4)).toContainText('(기본값)');
  await defaultRow.getByRole('button', { name: /등록 목표 변경/ }).click();
  const targetDialog = page.getByRole('dialog', { name: /등록 목표 변경/ });
  await targetDialog.getByLabel(/연구 기본값 사용/).uncheck();
  await targetDialog.getByLabel('등록 목표(무작위 배정 대상자 수)').fill('9');
  await screenshot(page, testInfo, 'enrollment-target-dialog-ko');
  await targetDialog.getByRole('button', { name: '저장' }).click();
  await expect(targetDialog).toBeHidden();
  await expect(defaultRow.locator('td').nth(4)).toHaveText(/^변경\s*9$/);
  await defaultRow.getByRole('button', { name: /등록 목표 변경/ }).click();
  await targetDialog.getByLabel(/연구 기본값 사용/).check();
  await targetDialog.getByRole('button', { name: '저장' }).click();
  await expect(defaultRow.locator('td').nth(4)).toContainText('(기본값)');
  await screenshots(page, testInfo, 'report-enrollment', heading);

  // Adverse events: the listing's rows as the API pages them, serious ones marked.
  await page.getByRole('button', { name: /이상사례 목록/ }).click();
  await expect(page).toHaveURL(/report=adverseEvents/);
  const events = (await (
    await page.request.get(`/api/studies/${STUDY_ID}/reports/adverseEvents`)
  ).json()) as {
    total: number;
    rows: { subjectId: string; serious: boolean }[];
  };
  expect(events.total).toBeGreaterThan(0);
  await expect(page.getByText(`총 ${events.total}건`)).toBeVisible();
  const listing = page.getByRole('region', { name: '이상사례 목록' }).first().locator('tbody tr');
  await expect(listing).toHaveCount(events.rows.length);
  await expect(listing.filter({ hasText: '중대한 이상사례' })).toHaveCount(
    events.rows.filter((row) => row.serious).length,
  );
  await screenshots(page, testInfo, 'report-adverse-events', heading);

  // Protocol deviations: the counts per kind are the API's.
  await page.getByRole('button', { name: /프로토콜 위반/ }).click();
  await expect(page).toHaveURL(/report=protocolDeviations/);
  const deviations = (await (
    await page.request.get(`/api/studies/${STUDY_ID}/reports/protocolDeviations`)
  ).json()) as { total: number };
  await expect(page.getByText(`총 ${deviations.total}건`)).toBeVisible();
  await screenshots(page, testInfo, 'report-deviations', heading);

  // Back to adverse events and its CSV: the BOM, the header, one line per event.
  await page.getByRole('button', { name: /이상사례 목록/ }).click();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'CSV 내려받기' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^TMP-2026_adverse-events_\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = await readFile((await download.path()) as string, 'utf8');
  expect(csv.startsWith('\uFEFF기관,스크리닝 번호,번호,이상사례명')).toBe(true);
  expect(csv.slice(1).trimEnd().split('\r\n')).toHaveLength(events.total + 1);
});
