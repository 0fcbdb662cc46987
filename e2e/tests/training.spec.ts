import type { APIRequestContext, Page, TestInfo } from '@playwright/test';
import { DEMO_PASSWORD, logInAs, logInFromLanding } from '../support/auth.ts';
import { e2eServer } from '../support/servers.ts';
import { expect, test } from '../support/test.ts';

// eTraining (issue 18 item 5), as the people who use it: the system administrator adds a new
// coordinator at site 02 (through the admin API); the living demo requires training before data entry
// (issue 51), and the DM turns it off on /system-e-training; the new CRC opens a form (no banner: the
// gate is off), the DM turns the gate on again, and the CRC's save — made by a page that still
// believed the gate off — is refused with the way to the training page; the CRC passes the eCRF quiz
// there, and the save then goes through. The gate is turned on again (as the demo has it) and the
// new membership removed at the end, whatever happened: the e2e specs share one database.
// training-gate.spec.ts follows the demo's own untrained coordinator, whose page knows beforehand.
// Screenshots in ko and en at 1440 and 1000px are attached to the report.

const STUDY_ID = 1;
const dm = { email: 'dm@demo.cdms', name: '정데이' } as const;
const crcDemo = { email: 'crc@demo.cdms', name: '박코디' } as const;

/** A day in Korea (UTC+9) `days` before today, as YYYY-MM-DD. */
function koreanDate(daysAgo: number): string {
  return new Date(Date.now() + 9 * 3600_000 - daysAgo * 86_400_000).toISOString().slice(0, 10);
}

/** The window as shown (a full-page shot repeats the fixed header and menu mid-page). */
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

/** Signs `request` in as `email` and returns its CSRF token. */
async function apiLogIn(
  request: APIRequestContext,
  email: string,
  password = DEMO_PASSWORD,
): Promise<string> {
  const response = await request.post('/api/auth/login', { data: { email, password } });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { csrfToken: string }).csrfToken;
}

test.describe('eTraining', () => {
  test('a new CRC must complete the required training before saving a form', async ({
    page,
    browser,
    playwright,
    consoleGuard,
  }, testInfo) => {
    test.setTimeout(240_000);
    const baseURL = e2eServer().baseUrl;
    const admin = await playwright.request.newContext({ baseURL });
    const adminCsrf = await apiLogIn(admin, 'admin@demo.cdms');
    const headers = { 'x-csrf-token': adminCsrf };
    let membershipId: number | null = null;
    try {
      // The new coordinator, at site 02, and a subject there registered by the demo's coordinator.
      const { studies } = (await (await admin.get('/api/admin/studies')).json()) as {
        studies: { id: number; sites: { id: number; institutionNumber: string }[] }[];
      };
      const site02 = studies
        .find((study) => study.id === STUDY_ID)
        ?.sites.find((site) => site.institutionNumber === '02');
      expect(site02).toBeDefined();
      const email = `e2e.training.${Date.now()}@hospital.kr`;
      const password = 'Training-first-2026';
      const user = await admin.post('/api/admin/users', {
        data: { email, name: '신입코디', password },
        headers,
      });
      expect(user.status(), await user.text()).toBe(201);
      const membership = await admin.post(`/api/admin/studies/${STUDY_ID}/memberships`, {
        data: { userId: ((await user.json()) as { id: number }).id, role: 'CRC', siteIds: [site02?.id] },
        headers,
      });
      expect(membership.status(), await membership.text()).toBe(201);
      membershipId = ((await membership.json()) as { id: number }).id;
      const demoCrc = await playwright.request.newContext({ baseURL });
      const subject = await demoCrc.post(`/api/studies/${STUDY_ID}/subjects`, {
        data: { siteId: site02?.id, consentDate: koreanDate(0), initials: 'TRN' },
        headers: { 'x-csrf-token': await apiLogIn(demoCrc, crcDemo.email) },
      });
      expect(subject.status(), await subject.text()).toBe(201);
      const { id: subjectPk, subjectId } = (await subject.json()) as { id: number; subjectId: string };
      await demoCrc.dispose();

      // The demo requires training before data entry; the DM turns it off, on the training page.
      await logInAs(page, dm);
      await page.goto(`/system-e-training/${STUDY_ID}`);
      await expect(page.getByRole('heading', { level: 1, name: '시스템 eTraining' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'eCRF 입력 교육' })).toBeVisible();
      const gate = page.getByLabel('필수 교육을 이수해야 자료 입력 가능');
      await expect(gate).toBeChecked();
      // A controlled checkbox: it changes once the DM confirms.
      const toggleGate = async (checked: boolean) => {
        await gate.click();
        const confirm = page.getByRole('alertdialog', { name: '교육 이수 요건' });
        await confirm.getByRole('button', { name: '변경' }).click();
        await expect(page.getByText('설정을 저장했습니다.', { exact: true })).toBeVisible();
        if (checked) await expect(gate).toBeChecked();
        else await expect(gate).not.toBeChecked();
      };
      await toggleGate(false);
      // The completion matrix: the new coordinator has not done the eCRF training.
      const newRow = page.getByRole('row').filter({ hasText: '신입코디' });
      await expect(newRow).toContainText('미이수');
      // The module dialog as the DM writes one (looked at, then cancelled: the demo keeps its two).
      await page.getByRole('button', { name: '교육 등록' }).click();
      const moduleDialog = page.getByRole('dialog', { name: '교육 등록' });
      await moduleDialog.getByLabel('퀴즈 포함').check();
      await expect(moduleDialog.getByLabel('합격 기준 (%)')).toHaveValue('80');
      await screenshot(page, testInfo, 'training-module-dialog-ko-1440');
      await moduleDialog.getByRole('button', { name: '취소', exact: true }).click();
      await expect(moduleDialog).toBeHidden();
      await screenshotsBothWays(page, testInfo, 'training-dm', async () => {
        await expect(page.getByRole('heading', { level: 1, name: 'System eTraining' })).toBeVisible();
      });

      // The new CRC opens the subject's demographics and saves: refused, with the way to the training.
      const context = await browser.newContext({ baseURL, locale: 'ko-KR', timezoneId: 'Asia/Seoul' });
      const crcPage = await context.newPage();
      consoleGuard.allowFailedRequest(
        new RegExp(`/api/studies/${STUDY_ID}/subjects/${subjectPk}/forms/v1/demographicInfo$`),
        403,
        'the training gate refuses the untrained coordinator’s save (what this test checks)',
      );
      await logInFromLanding(crcPage, email, password);
      await expect(crcPage.getByRole('button', { name: '신입코디 님' })).toBeVisible();
      await crcPage.goto(
        `/subject-list/subject/subject-detail/${STUDY_ID}?subject-id=${subjectId}&subject-pk=${subjectPk}&depth-1=v1&depth-2=demographicInfo`,
      );
      const demographics = crcPage.locator('[data-form="demographicInfo"]');
      await expect(demographics).toBeVisible();
      await expect(crcPage.locator('[data-training-pending]')).toHaveCount(0);
      // Meanwhile the DM turns the gate on again (another window): the CRC’s page does not know yet.
      await toggleGate(true);
      await demographics.getByLabel(/생년월일/).fill('1988-02-03');
      await crcPage.getByRole('button', { name: '저장', exact: true }).click();
      const refusal = crcPage.getByRole('alertdialog', { name: '필수 교육 미이수' });
      await expect(refusal).toContainText('필수 교육을 아직 이수하지 않아');
      await screenshot(crcPage, testInfo, 'training-refusal-ko-1440');
      await refusal.getByRole('button', { name: '교육 페이지로 이동' }).click();
      // The form still holds the typed value: leaving asks first (the draft stays in this tab).
      await crcPage
        .getByRole('alertdialog', { name: '저장하지 않은 변경 사항' })
        .getByRole('button', { name: '떠나기' })
        .click();
      await expect(crcPage).toHaveURL(new RegExp(`/system-e-training/${STUDY_ID}$`));
      await expect(crcPage.getByRole('status').filter({ hasText: '필수 교육이 1건' })).toBeVisible();

      // The quiz: the right answers are only known to the server until it is submitted.
      await crcPage.getByRole('button', { name: 'eCRF 입력 교육' }).click();
      const reader = crcPage.getByRole('article', { name: /eCRF 입력 교육/ });
      await expect(reader).toContainText('원자료(source document)에 기록된 값만 입력');
      await reader
        .getByRole('group', { name: /저장한 값을 수정할 때/ })
        .getByLabel('변경 사유')
        .check();
      await reader
        .getByRole('group', { name: /입력하는 값의 근거/ })
        .getByLabel('원자료(source document)')
        .check();
      await reader
        .getByRole('group', { name: /무작위 배정을 할 수 있는 때/ })
        .getByLabel('적격성 평가 저장 후')
        .check();
      await reader.getByRole('button', { name: '답안 제출' }).click();
      await expect(reader.getByText('합격입니다. 점수 100%')).toBeVisible();
      await expect(reader.getByRole('button', { name: '이수증 PDF' })).toBeVisible();
      const [certificate] = await Promise.all([
        crcPage.waitForEvent('download'),
        reader.getByRole('button', { name: '이수증 PDF' }).click(),
      ]);
      expect(certificate.suggestedFilename()).toMatch(/^TMP-2026_training_\d+_v1\.pdf$/);
      await reader.getByRole('button', { name: '답안 제출' }).scrollIntoViewIfNeeded();
      await screenshotsBothWays(crcPage, testInfo, 'training-crc', async () => {
        await expect(crcPage.getByRole('heading', { level: 1, name: 'System eTraining' })).toBeVisible();
      });

      // Back on the form: the save goes through now.
      await crcPage.goto(
        `/subject-list/subject/subject-detail/${STUDY_ID}?subject-id=${subjectId}&subject-pk=${subjectPk}&depth-1=v1&depth-2=demographicInfo`,
      );
      await crcPage
        .locator('[data-form="demographicInfo"]')
        .getByLabel(/생년월일/)
        .fill('1988-02-03');
      await crcPage.getByRole('button', { name: '저장', exact: true }).click();
      await expect(crcPage.getByText('저장했습니다.', { exact: true }).first()).toBeVisible();
      await context.close();
    } finally {
      // Other specs share this database: the gate on again (as the demo has it) and the coordinator's
      // membership removed.
      const dmApi = await playwright.request.newContext({ baseURL });
      const off = await dmApi.put(`/api/studies/${STUDY_ID}/training/settings`, {
        data: { gatesDataEntry: true },
        headers: { 'x-csrf-token': await apiLogIn(dmApi, dm.email) },
      });
      expect(off.status()).toBe(200);
      await dmApi.dispose();
      if (membershipId !== null)
        await admin.delete(`/api/admin/studies/${STUDY_ID}/memberships/${membershipId}`, { headers });
      await admin.dispose();
    }
  });
});
