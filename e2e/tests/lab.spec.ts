import { readFile } from 'node:fs/promises';
import type { Page, TestInfo } from '@playwright/test';
import { logInAs } from '../support/auth.ts';
import { e2eServer } from '../support/servers.ts';
import { expect, test } from '../support/test.ts';

// Lab normal ranges (issue 17 item 3), as the people who use them: the DM enters a WBC range for site
// 02 on /lab; the CRC of site 02 types a result above it on a new subject's V1 lab form and sees the
// H flag as they type, saves, and sees the system query; the DM finds the result in the out-of-range
// listing. Screenshots in ko and en at 1440 and 1000px are attached to the report.

const STUDY_ID = 1;
const crc = { email: 'crc@demo.cdms', name: '박코디' } as const;
const dm = { email: 'dm@demo.cdms', name: '정데이' } as const;

/** A day in Korea (UTC+9) `days` before today, as YYYY-MM-DD. */
function koreanDate(daysAgo: number): string {
  return new Date(Date.now() + 9 * 3600_000 - daysAgo * 86_400_000).toISOString().slice(0, 10);
}

/** The window as shown (the lab form is long: a full-page shot of it takes long on a busy machine). */
async function screenshot(page: Page, testInfo: TestInfo, name: string) {
  const body = await page.screenshot({ path: testInfo.outputPath(`${name}.png`) });
  await testInfo.attach(name, { body, contentType: 'image/png' });
}

/** Screenshots in Korean and English at 1440 and 1000px; back to Korean at 1440 afterwards. */
async function screenshotsBothWays(page: Page, testInfo: TestInfo, name: string, ready: () => Promise<void>) {
  for (const language of ['ko', 'en'] as const) {
    if (language === 'en') {
      await page.getByRole('button', { name: 'EN', exact: true }).first().click();
      await ready();
    }
    for (const width of [1440, 1000]) {
      await page.setViewportSize({ width, height: 900 });
      await screenshot(page, testInfo, `${name}-${language}-${width}`);
    }
  }
  await page.getByRole('button', { name: 'KO', exact: true }).first().click();
  await page.setViewportSize({ width: 1440, height: 900 });
}

async function csrf(page: Page): Promise<string> {
  return ((await (await page.request.get('/api/auth/me')).json()) as { csrfToken: string }).csrfToken;
}

test.describe('lab normal ranges', () => {
  test('the DM enters a range, the CRC sees H and the query, the listing shows it', async ({
    page,
    browser,
  }, testInfo) => {
    test.setTimeout(240_000);
    // The CRC of site 02 and a new subject there, for the lab form below.
    const context = await browser.newContext({
      baseURL: e2eServer().baseUrl,
      locale: 'ko-KR',
      timezoneId: 'Asia/Seoul',
    });
    const crcPage = await context.newPage();
    await logInAs(crcPage, crc);
    const me = (await (await crcPage.request.get('/api/auth/me')).json()) as {
      memberships: { studyId: number; sites: { id: number }[] }[];
    };
    const siteId = me.memberships.find((m) => m.studyId === STUDY_ID)?.sites[0]?.id ?? 0;
    const created = await crcPage.request.post(`/api/studies/${STUDY_ID}/subjects`, {
      headers: { 'x-csrf-token': await csrf(crcPage) },
      data: { siteId, consentDate: koreanDate(0), initials: 'LAB' },
    });
    expect(created.status(), await created.text()).toBe(201);
    const subject = (await created.json()) as { id: number; subjectId: string };

    // The DM: a new WBC range at that site, in force from yesterday (newer than the demo's).
    await logInAs(page, dm);
    await page.goto(`/lab/${STUDY_ID}`);
    await expect(page.getByRole('heading', { level: 1, name: '실험실 정상 범위' })).toBeVisible();
    await page.getByRole('button', { name: '정상 범위 추가' }).click();
    const dialog = page.getByRole('dialog', { name: '정상 범위 추가' });
    await dialog.getByLabel('기관').selectOption(String(siteId));
    await dialog.getByLabel('검사 항목').selectOption('wbc');
    await expect(dialog.getByLabel('단위')).toHaveValue('10³/µL');
    await dialog.getByLabel('하한').fill('4.5');
    await dialog.getByLabel('상한').fill('9.5');
    await dialog.getByLabel('적용 시작일').fill(koreanDate(1));
    await screenshot(page, testInfo, 'range-dialog-ko');
    await dialog.getByRole('button', { name: '저장' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('cell', { name: '4.5–9.5', exact: true })).toBeVisible();

    // The CRC types a result above the range on the V1 lab form.
    await crcPage.goto(
      `/subject-list/subject/subject-detail/${STUDY_ID}?subject-id=${subject.subjectId}&subject-pk=${subject.id}&depth-1=v1&depth-2=labTest`,
    );
    const form = crcPage.locator('[data-form="labTest"]');
    const flag = crcPage.getByTestId('lab-flag-wbcResult');
    // A specimen from before the new range: the demo's range in force then applies, as it is typed.
    await form.getByLabel(/^검체 채취일/).fill(koreanDate(3));
    await expect(flag).toContainText('4–10');
    await form.getByLabel(/^검체 채취일/).fill(koreanDate(0));
    await expect(flag).toContainText('4.5–9.5');
    await form.getByRole('textbox', { name: '백혈구(WBC) 결과 (필수)', exact: true }).fill('9.5');
    await expect(flag.getByRole('status')).toHaveCount(0); // the high limit itself is normal
    await form.getByRole('textbox', { name: '백혈구(WBC) 결과 (필수)', exact: true }).fill('12.3');
    await flag.scrollIntoViewIfNeeded();
    await expect(flag.getByRole('status')).toHaveText(/H/);
    await crcPage.getByRole('button', { name: '저장', exact: true }).click();
    await expect(crcPage.getByText('저장했습니다.', { exact: true }).first()).toBeVisible();
    await expect(
      crcPage.getByText(/기관 정상 범위\(4\.5–9\.5 10³\/µL\)보다 높습니다\(H\)/).first(),
    ).toBeVisible();
    await screenshotsBothWays(crcPage, testInfo, 'lab-form', async () => {
      await expect(crcPage.getByTestId('lab-flag-wbcResult')).toContainText('Normal range');
    });
    await context.close();

    // The DM: the result in the listing, with its open query.
    await page.goto(`/lab/${STUDY_ID}?subject=${subject.subjectId}`);
    const row = page.getByRole('row', { name: new RegExp(subject.subjectId) });
    await expect(row).toContainText('12.3');
    await expect(row).toContainText('H');
    await expect(row.getByRole('cell').last()).toHaveText('1');
    // Its download: the listing under the same filter, as CSV.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'CSV 내려받기' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^TMP-2026_lab_results_\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = (await readFile((await download.path()) as string, 'utf8')).replace(/^\uFEFF/, '');
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toMatch(/^기관,스크리닝 번호,방문,검체 채취일,검사,결과/);
    expect(lines.slice(1)).toEqual([expect.stringMatching(new RegExp(`${subject.subjectId},.*,12\\.3,`))]);
    await row.scrollIntoViewIfNeeded();
    await screenshotsBothWays(page, testInfo, 'lab-page', async () => {
      await expect(page.getByRole('heading', { level: 1, name: 'Laboratory normal ranges' })).toBeVisible();
    });
  });
});
