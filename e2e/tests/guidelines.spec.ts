import type { Browser, Page, TestInfo } from '@playwright/test';
import { type DemoAccount, demoAccount, logInAs } from '../support/auth.ts';
import { expect, test } from '../support/test.ts';

/** Study TMP-2026: id 1 in the fresh database the global setup starts. */
const STUDY_ID = 1;

/** A small but real PDF (one empty page): what the server sniffs as application/pdf. */
const PDF = Buffer.from(
  [
    '%PDF-1.4',
    '1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj',
    '2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj',
    '3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >> endobj',
    'trailer << /Root 1 0 R >>',
    '%%EOF',
    '',
  ].join('\n'),
);

async function pageAs(browser: Browser, role: DemoAccount['role'], width = 1440): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  await logInAs(page, demoAccount(role));
  return page;
}

async function screenshot(page: Page, testInfo: TestInfo, name: string) {
  const body = await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });
  await testInfo.attach(name, { body, contentType: 'image/png' });
}

async function switchLanguage(page: Page, language: 'KO' | 'EN') {
  await page.getByRole('button', { name: language, exact: true }).first().click();
}

test.describe('guidelines and task notices', () => {
  test('the CRA publishes a guideline with a PDF; the CRC sees it and downloads the PDF', async ({
    page,
    browser,
  }, testInfo) => {
    test.setTimeout(120_000);
    const title = `모니터링 계획서 ${Date.now()}`;
    await logInAs(page, demoAccount('CRA'));
    await page.goto(`/guideline/${STUDY_ID}?menu-type=CRA`);
    await expect(page.getByRole('heading', { level: 1, name: '가이드라인' })).toBeVisible();
    // The living demo: the protocol is in its alarm period, so the reminder shows.
    await expect(page.getByTestId('guideline-reminder')).toContainText('고막 천공 치료 임상시험계획서');
    await page.getByRole('link', { name: '가이드라인 등록' }).click();
    await expect(page.getByRole('heading', { level: 1, name: '가이드라인 등록' })).toBeVisible();

    await page.getByLabel('가이드 유형').selectOption('other');
    await page.getByRole('textbox', { name: '제목', exact: true }).fill(title);
    await page.getByRole('textbox', { name: '버전', exact: true }).fill('1.0');
    const editor = page.getByRole('textbox', { name: '내용' });
    await editor.click();
    await editor.pressSequentially('모니터링 방문 절차를 정리했습니다.');
    await page
      .getByLabel('첨부파일')
      .setInputFiles({ name: '모니터링계획서.pdf', mimeType: 'application/pdf', buffer: PDF });
    await expect(page.getByText('모니터링계획서.pdf')).toBeVisible();
    await screenshot(page, testInfo, 'guideline-register-ko-1440');
    await page.getByRole('button', { name: '저장', exact: true }).click();

    await expect(page).toHaveURL(new RegExp(`/guideline/detail/${STUDY_ID}\\?guideline-pk=\\d+`));
    await expect(page.getByRole('heading', { level: 2, name: new RegExp(title) })).toBeVisible();
    await expect(page.locator('article')).toHaveAttribute('data-state', 'draft');
    await screenshot(page, testInfo, 'guideline-draft-ko-1440');

    // Not yet for the CRC: a draft.
    const crc = await pageAs(browser, 'CRC');
    await crc.goto(`/guideline/${STUDY_ID}`);
    await expect(crc.getByRole('row').nth(1)).toBeVisible();
    await expect(crc.getByRole('link', { name: title })).toHaveCount(0);

    await page.getByRole('button', { name: '게시', exact: true }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: '게시', exact: true }).click();
    await expect(page.locator('article')).toHaveAttribute('data-state', 'published');

    // The CRC now sees it (no register button), opens it and downloads the PDF.
    await crc.reload();
    await expect(crc.getByRole('link', { name: '가이드라인 등록' })).toHaveCount(0);
    const row = crc.getByRole('row').filter({ hasText: title });
    await expect(row).toContainText('기타');
    await expect(row).toContainText('게시');
    await expect(row).toContainText(demoAccount('CRA').name);
    await row.getByRole('link', { name: title }).click();
    await expect(crc.getByRole('heading', { level: 2, name: new RegExp(title) })).toBeVisible();
    const downloading = crc.waitForEvent('download');
    await crc.getByRole('link', { name: '모니터링계획서.pdf' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('모니터링계획서.pdf');
    const path = await download.path();
    const fs = await import('node:fs');
    expect(fs.readFileSync(path).equals(PDF)).toBe(true);
    await expect(crc.getByRole('button', { name: '새 버전 작성' })).toHaveCount(0);
    await screenshot(crc, testInfo, 'guideline-detail-crc-ko-1440');

    // The list in both languages and widths.
    for (const width of [1440, 1000]) {
      await crc.setViewportSize({ width, height: 900 });
      await crc.goto(`/guideline/${STUDY_ID}`);
      await expect(crc.getByRole('row').filter({ hasText: title })).toBeVisible();
      await screenshot(crc, testInfo, `guideline-list-ko-${width}`);
      await switchLanguage(crc, 'EN');
      await expect(crc.getByRole('heading', { level: 1, name: 'Guidelines' })).toBeVisible();
      await screenshot(crc, testInfo, `guideline-list-en-${width}`);
      await switchLanguage(crc, 'KO');
    }
    await crc.context().close();
  });

  test('the DM discards a draft that was never published; it leaves the list', async ({ page }) => {
    const title = `폐기할 초안 ${Date.now()}`;
    await logInAs(page, demoAccount('DM'));
    await page.goto(`/guideline/register/${STUDY_ID}?menu-type=CRA`);
    await page.getByRole('textbox', { name: '제목', exact: true }).fill(title);
    await page.getByRole('textbox', { name: '버전', exact: true }).fill('0.1');
    const editor = page.getByRole('textbox', { name: '내용' });
    await editor.click();
    await editor.pressSequentially('잘못 작성한 초안');
    await page.getByRole('button', { name: '저장', exact: true }).click();
    await expect(page.locator('article')).toHaveAttribute('data-state', 'draft');

    await page.getByRole('button', { name: '초안 삭제' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: '초안 삭제' }).click();
    await expect(page).toHaveURL(new RegExp(`/guideline/${STUDY_ID}`));
    await expect(page.getByRole('heading', { level: 1, name: '가이드라인' })).toBeVisible();
    await expect(page.getByRole('row').nth(1)).toBeVisible();
    await expect(page.getByRole('link', { name: title })).toHaveCount(0);
  });

  test('the DM sends a task notice to the coordinators of a site; it is sent and traced in the alarm log', async ({
    page,
  }, testInfo) => {
    test.setTimeout(90_000);
    const title = `입력 마감 안내 ${Date.now()}`;
    await logInAs(page, demoAccount('DM'));
    await page.goto(`/notice/${STUDY_ID}`);
    await page.getByRole('link', { name: '업무 알림' }).click();
    await expect(page.getByRole('heading', { level: 1, name: '업무 알림' })).toBeVisible();
    // The living demo's notice, delivered by this server's worker to the suite's mail server (seeded queued).
    await expect(page.getByRole('row').filter({ hasText: '방문 2 데이터 입력 마감 안내' })).toContainText(
      '발송 완료',
    );

    await page.getByRole('button', { name: '업무 알림 등록' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('알림 유형').selectOption('data_entry');
    await dialog.getByRole('textbox', { name: '제목' }).fill(title);
    await dialog.getByRole('textbox', { name: '내용' }).fill('이번 주 금요일까지 입력을 마쳐 주세요.');
    await dialog.getByRole('checkbox', { name: 'CRC' }).check();
    await dialog.getByRole('checkbox', { name: /새봄병원/ }).check();
    await screenshot(page, testInfo, 'task-notice-form-ko-1440');
    await dialog.getByRole('button', { name: '등록', exact: true }).click();
    await expect(page.getByText('업무 알림을 등록하고 발송했습니다.', { exact: true })).toBeVisible();

    const row = page.getByRole('row').filter({ hasText: title });
    await expect(row).toBeVisible();
    await expect(row).toHaveAttribute('data-state', /^(queued|sent|partly_sent|failed)$/);
    await expect(row).toContainText('데이터 입력');
    await expect(row).toContainText(demoAccount('DM').name);
    // The e2e server's e-mails leave over SMTP (global-setup.ts): the worker delivers the notice's
    // e-mail to site 02's coordinator, the list shows it sent and the alarm log has the trace.
    await expect(async () => {
      await page.reload();
      await expect(page.getByRole('row').filter({ hasText: title })).toHaveAttribute('data-state', 'sent', {
        timeout: 2_000,
      });
    }).toPass({ timeout: 45_000 });
    await page.goto(`/alarm-log/${STUDY_ID}?eventType=task_notice`);
    // Site 02 has two coordinators in the living demo (crc@ and the newcomer crc-new@): one row each.
    const logged = page.locator('tbody tr').filter({ hasText: title }).filter({ hasText: 'crc@demo.cdms' });
    await expect(logged).toHaveCount(1);
    await expect(logged.locator('[data-status]')).toHaveText('발송');
    await page.goto(`/notice/tasks/${STUDY_ID}`);
    await expect(row).toBeVisible();
    for (const width of [1440, 1000]) {
      await page.setViewportSize({ width, height: 900 });
      await screenshot(page, testInfo, `task-notices-ko-${width}`);
      await switchLanguage(page, 'EN');
      await expect(page.getByRole('heading', { level: 1, name: 'Task notices' })).toBeVisible();
      await screenshot(page, testInfo, `task-notices-en-${width}`);
      await switchLanguage(page, 'KO');
    }
  });
});
