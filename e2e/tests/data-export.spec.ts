import fs from 'node:fs';
import type { Page, TestInfo } from '@playwright/test';
import { logInAs } from '../support/auth.ts';
import { expect, test } from '../support/test.ts';

// Data out (issue 16), as the data manager: on /data they start an export of the whole study as
// CDISC ODM 1.3.2, follow it on its progress bar until it is done, and download the file. A monitor
// sees the page but may not export. An export with personal data masked (issue 47) holds none of the
// items the definition flags as personal. The tables can give the values as entered, in the codes
// their sites entered before an amendment re-coded them (issue 49). Screenshots in ko and en at 1440
// and 1000px are attached.

const STUDY_ID = 1;
const dm = { email: 'dm@demo.cdms', name: '정데이' } as const;
const cra = { email: 'cra@demo.cdms', name: '최모니' } as const;

async function screenshotsBothWays(page: Page, testInfo: TestInfo, name: string) {
  for (const language of ['ko', 'en'] as const) {
    if (language === 'en') {
      await page.getByRole('button', { name: 'EN', exact: true }).first().click();
      await expect(page.getByRole('heading', { name: 'Data export', level: 1 })).toBeVisible();
    }
    for (const width of [1440, 1000]) {
      await page.setViewportSize({ width, height: 900 });
      const body = await page.screenshot({
        path: testInfo.outputPath(`${name}-${language}-${width}.png`),
        fullPage: true,
      });
      await testInfo.attach(`${name}-${language}-${width}`, { body, contentType: 'image/png' });
    }
  }
  await page.getByRole('button', { name: 'KO', exact: true }).first().click();
  await page.setViewportSize({ width: 1440, height: 900 });
}

test('the DM exports ODM 1.3.2 with a visible progress bar and downloads it', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  await logInAs(page, dm);
  await page.goto(`/data/${STUDY_ID}`);
  await expect(page.getByRole('heading', { name: '데이터 내보내기', level: 1 })).toBeVisible();

  await page.getByRole('radio', { name: 'CDISC ODM 1.3.2 (XML)' }).check();
  await page.getByRole('checkbox', { name: '감사 추적 포함', exact: true }).check();
  const started = page.waitForResponse(
    (response) =>
      response.url().endsWith(`/api/studies/${STUDY_ID}/data-exports`) &&
      response.request().method() === 'POST',
  );
  await page.getByRole('button', { name: '내보내기 시작' }).click();
  const { id } = (await (await started).json()) as { id: number };
  expect((await started).status()).toBe(201);

  const row = page.locator(`tr[data-export="${id}"]`);
  const bar = row.getByRole('progressbar');
  await expect(bar).toBeVisible();
  // Polled until done: the bar ends full, values done equal to the total.
  await expect(row.getByText('완료', { exact: true })).toBeVisible({ timeout: 60_000 });
  const total = await bar.getAttribute('aria-valuemax');
  expect(Number(total)).toBeGreaterThan(0);
  await expect(bar).toHaveAttribute('aria-valuenow', total ?? '');

  const downloading = page.waitForEvent('download');
  await row.getByRole('link', { name: '내려받기' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^TMP-2026_odm-1\.3\.2_\d+\.xml$/);
  const text = fs.readFileSync((await download.path()) ?? '', 'utf8');
  expect(text.startsWith('<?xml')).toBe(true);
  expect(text).toContain('<ODM');

  await screenshotsBothWays(page, testInfo, 'data-export');
});

test('the DM exports the form tables as CSV in a ZIP, as entered, with English labels', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  await logInAs(page, dm);
  await page.goto(`/data/${STUDY_ID}`);
  await page.getByRole('radio', { name: '양식별 표 (CSV, ZIP)' }).check();
  // The tables hold current values: the audit-trail choice gives way to the value labels.
  await expect(page.getByRole('checkbox', { name: '감사 추적 포함', exact: true })).toHaveCount(0);
  await page.getByRole('radio', { name: 'English' }).check();
  // After AM-01, values as of the current version (the default) or as entered: each says what it gives.
  await expect(page.getByRole('radio', { name: '현재 버전 기준' })).toBeChecked();
  await page.getByRole('radio', { name: '입력된 그대로' }).check();
  await expect(page.getByText('이관이 바꾼 값은 바뀌기 전 값으로')).toBeVisible();
  await screenshotsBothWays(page, testInfo, 'data-export-tables-form');
  await page.getByRole('radio', { name: '양식별 표 (CSV, ZIP)' }).check();
  await page.getByRole('radio', { name: 'English' }).check();
  await page.getByRole('radio', { name: '입력된 그대로' }).check();
  const started = page.waitForResponse(
    (response) =>
      response.url().endsWith(`/api/studies/${STUDY_ID}/data-exports`) &&
      response.request().method() === 'POST',
  );
  await page.getByRole('button', { name: '내보내기 시작' }).click();
  const { id } = (await (await started).json()) as { id: number };

  const row = page.locator(`tr[data-export="${id}"]`);
  await expect(row.getByText('완료', { exact: true })).toBeVisible({ timeout: 60_000 });
  await expect(row.getByText('라벨: English')).toBeVisible();
  await expect(row.getByText('입력된 그대로')).toBeVisible();
  const downloading = page.waitForEvent('download');
  await row.getByRole('link', { name: '내려받기' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^TMP-2026_tables-csv_\d+\.zip$/);
  const bytes = fs.readFileSync((await download.path()) ?? '');
  expect(bytes.subarray(0, 2).toString()).toBe('PK');

  await screenshotsBothWays(page, testInfo, 'data-export-tables');
});

test('the DM exports ODM with personal data masked: no initials or birth date in the file', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await logInAs(page, dm);
  await page.goto(`/data/${STUDY_ID}`);
  await page.getByRole('radio', { name: 'CDISC ODM 1.3.2 (XML)' }).check();
  await page.getByRole('checkbox', { name: '개인정보 가리기' }).check();
  await expect(page.getByText('연구 정의에서 개인정보로 지정한 항목')).toBeVisible();
  const started = page.waitForResponse(
    (response) =>
      response.url().endsWith(`/api/studies/${STUDY_ID}/data-exports`) &&
      response.request().method() === 'POST',
  );
  await page.getByRole('button', { name: '내보내기 시작' }).click();
  const { id, maskPersonalData } = (await (await started).json()) as {
    id: number;
    maskPersonalData: boolean;
  };
  expect(maskPersonalData).toBe(true);

  const row = page.locator(`tr[data-export="${id}"]`);
  await expect(row.getByText('완료', { exact: true })).toBeVisible({ timeout: 60_000 });
  await expect(row.getByText('개인정보 가림')).toBeVisible();
  const downloading = page.waitForEvent('download');
  await row.getByRole('link', { name: '내려받기' }).click();
  const download = await downloading;
  const text = fs.readFileSync((await download.path()) ?? '', 'utf8');
  // The items are described, but no value of theirs is written; the other demographics are.
  expect(text).toContain('<ItemDef OID="I.demographicInfo.birthDate"');
  expect(text).not.toContain('<ItemData ItemOID="I.demographicInfo.birthDate"');
  expect(text).not.toContain('<ItemData ItemOID="I.consentScreening.initials"');
  expect(text).toContain('<ItemData ItemOID="I.demographicInfo.gender"');
});

test('a monitor sees the data page but may not export', async ({ page }) => {
  await logInAs(page, cra);
  await page.goto(`/data/${STUDY_ID}`);
  await expect(
    page.getByText('데이터관리자와 시스템 관리자만 연구 데이터를 내보낼 수 있습니다.'),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: '내보내기 시작' })).toHaveCount(0);
});
