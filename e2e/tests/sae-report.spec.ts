import type { Page, TestInfo } from '@playwright/test';
import { logInAs, signInThroughApi } from '../support/auth.ts';
import { layoutProblems } from '../support/layout.ts';
import { waitForQuietNetwork } from '../support/network.ts';
import { e2eServer } from '../support/servers.ts';
import { expect, test } from '../support/test.ts';

// The SAE fast path (issue 51 item 1) over the living demo: the PI of site 01 opens the SAE report of
// the demo's serious adverse event there (submitted, followed up, acknowledged), starts a new follow-up,
// fills it, and submits it with an electronic signature (password again); the safety desk acknowledges
// it. The demo's report in progress is at site 03, which has no investigator account: its clock is
// checked on the list. The list and report pages are checked for layout in ko and en at 1440 and
// 1000 px, with screenshots attached to the report.

const STUDY_ID = 1;
const pi = { email: 'pi@demo.cdms', name: '김연구' } as const;
const safety = { email: 'safety@demo.cdms', name: '서안전' } as const;

async function screenshot(page: Page, testInfo: TestInfo, name: string) {
  const body = await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });
  await testInfo.attach(name, { body, contentType: 'image/png' });
}

test.describe('SAE reports', () => {
  test('the PI signs a follow-up; the safety desk acknowledges it', async ({
    page,
    browser,
    consoleGuard,
  }, testInfo) => {
    test.setTimeout(240_000);
    await logInAs(page, pi);
    await page.goto(`/safety/${STUDY_ID}`);
    await expect(page.getByRole('heading', { level: 1, name: 'SAE 보고' })).toBeVisible();
    const row = page.locator('tr[data-report-id][data-status="acknowledged"]').first();
    await expect(row).toBeVisible();
    await row.getByRole('link').click();
    await expect(page.getByRole('heading', { level: 1, name: /SAE 보고: .* 이상사례 #\d+/ })).toBeVisible();
    await expect(page.getByRole('button', { name: '추적 보고 1' })).toBeVisible();

    // A new follow-up: a draft holding the last content.
    await page.getByRole('button', { name: '추적 보고 시작' }).click();
    await expect(page.getByRole('heading', { level: 2, name: '추적 보고 2 · 작성 중' })).toBeVisible();
    const form = page.getByRole('form', { name: 'SAE 보고 내용' });
    await expect(form.getByLabel('결과', { exact: true })).toHaveValue('회복됨 (후유증 없음)');
    await form.getByLabel('결과', { exact: true }).fill('회복됨 — 3개월 추적 관찰 이상 없음');
    await form.getByLabel('경과 기술').fill('퇴원 후 3개월 추적 관찰에서 재발 없음.');
    await form.getByRole('button', { name: '임시 저장' }).click();
    await expect(page.getByText('임시 저장했습니다.').first()).toBeVisible();

    // A wrong password is refused inside the dialog; the right one signs and submits.
    consoleGuard.allowFailedRequest(/\/sae-reports\/\d+\/submission$/, 422, 'a wrong password, on purpose');
    await page.getByRole('button', { name: '전자서명하여 제출' }).click();
    const dialog = page.getByRole('dialog', { name: 'SAE 보고 제출' });
    await expect(dialog).toContainText('시험책임자로서');
    await dialog.getByLabel('비밀번호').fill('not-the-password-1');
    await dialog.getByRole('button', { name: '서명하고 제출' }).click();
    await expect(dialog.getByRole('alert')).toBeVisible();
    await dialog.getByLabel('비밀번호').fill('cdms-demo-2026');
    await dialog.getByRole('button', { name: '서명하고 제출' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText('보고에 서명하여 의뢰자에게 제출했습니다.').first()).toBeVisible();
    await expect(page.locator('[data-status="submitted"]').first()).toBeVisible();
    const reportUrl = page.url();

    // The safety desk acknowledges it.
    const deskContext = await browser.newContext({
      baseURL: e2eServer().baseUrl,
      locale: 'ko-KR',
      timezoneId: 'Asia/Seoul',
    });
    const desk = await deskContext.newPage();
    await signInThroughApi(desk, safety);
    await desk.goto(reportUrl);
    await expect(desk.getByRole('heading', { level: 2, name: '추적 보고 2' })).toBeVisible();
    await desk.getByRole('button', { name: '접수 확인' }).click();
    await expect(desk.getByText('접수를 확인했습니다.').first()).toBeVisible();
    await expect(desk.locator('[data-status="acknowledged"]').first()).toBeVisible();
    await expect(desk.getByText(/접수 확인, 서안전/).first()).toBeVisible();

    // The list as the safety desk sees it: both reports, the one in progress on its clock.
    await desk.goto(`/safety/${STUDY_ID}`);
    const open = desk.locator('tr[data-report-id][data-status="draft"]').first();
    await expect(open).toContainText(/남음|초과/);
    await expect(open).toContainText('KST');

    // Both pages in both languages and widths.
    for (const language of ['ko', 'en'] as const) {
      if (language === 'en') await desk.getByRole('button', { name: 'EN', exact: true }).first().click();
      for (const width of [1440, 1000] as const) {
        await desk.setViewportSize({ width, height: 900 });
        for (const [name, url] of [
          ['list', `/safety/${STUDY_ID}`],
          ['report', reportUrl],
        ] as const) {
          await desk.goto(url);
          await expect(
            desk.locator(name === 'list' ? 'tr[data-report-id]' : '[data-status]').first(),
          ).toBeVisible();
          await waitForQuietNetwork(desk);
          await expect
            .poll(() => layoutProblems(desk), { message: `SAE ${name} ${language} ${width}px` })
            .toEqual([]);
          await screenshot(desk, testInfo, `sae-${name}-${language}-${width}`);
        }
      }
    }
    await desk.getByRole('button', { name: 'KO', exact: true }).first().click();
    await deskContext.close();
  });
});
