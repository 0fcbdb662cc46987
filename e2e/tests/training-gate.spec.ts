import type { APIRequestContext, Page, TestInfo } from '@playwright/test';
import { DEMO_PASSWORD, logInAs } from '../support/auth.ts';
import { e2eServer } from '../support/servers.ts';
import { expect, test } from '../support/test.ts';

// The training gate of the living demo (issue 51 item 4/5): TMP-2026 requires the eCRF training before
// data entry, and the demo's new coordinator at site 02 (crc-new@demo.cdms, 신코디) has not done it.
// Signed in, they see a banner with the way to the training above the subject list and the form, with
// adding and saving disabled (the server's `trainingPending`, not a refused save); they pass the quiz
// on the training page, come back, and the save goes through. Screenshots in ko and en at 1440 and
// 1000px are attached. The coordinator stays trained afterwards: the specs share one database, and no
// other spec signs in as them.

const STUDY_ID = 1;
const newcomer = { email: 'crc-new@demo.cdms', name: '신코디' } as const;

/** A day in Korea (UTC+9) `days` before today, as YYYY-MM-DD. */
function koreanDate(daysAgo: number): string {
  return new Date(Date.now() + 9 * 3600_000 - daysAgo * 86_400_000).toISOString().slice(0, 10);
}

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

async function apiLogIn(request: APIRequestContext, email: string): Promise<string> {
  const response = await request.post('/api/auth/login', { data: { email, password: DEMO_PASSWORD } });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { csrfToken: string }).csrfToken;
}

test.describe('training gate', () => {
  test('the new coordinator reads but cannot enter data until trained, then saves', async ({
    page,
    playwright,
  }, testInfo) => {
    test.setTimeout(180_000);
    const baseURL = e2eServer().baseUrl;
    // A subject at site 02, registered by the site's trained coordinator.
    const crc = await playwright.request.newContext({ baseURL });
    const csrf = await apiLogIn(crc, 'crc@demo.cdms');
    const me = (await (await crc.get('/api/auth/me')).json()) as {
      memberships: { studyId: number; sites: { id: number; institutionNumber: string }[] }[];
    };
    const site02 = me.memberships
      .find((membership) => membership.studyId === STUDY_ID)
      ?.sites.find((site) => site.institutionNumber === '02');
    const created = await crc.post(`/api/studies/${STUDY_ID}/subjects`, {
      data: { siteId: site02?.id, consentDate: koreanDate(0), initials: 'GTE' },
      headers: { 'x-csrf-token': csrf },
    });
    expect(created.status(), await created.text()).toBe(201);
    const { id: subjectPk, subjectId } = (await created.json()) as { id: number; subjectId: string };
    await crc.dispose();

    await logInAs(page, newcomer);
    // The subject list: the banner, and "add subject" disabled.
    await page.goto(`/subject-list/${STUDY_ID}`);
    const banner = page.locator('[data-training-pending]');
    await expect(banner).toContainText('필수 교육을 마치기 전에는 자료를 볼 수만 있고');
    await expect(page.getByRole('button', { name: '+ 대상자 추가' })).toBeDisabled();

    // The form: readable, the banner with the way to the training, save and reset disabled.
    const formUrl = `/subject-list/subject/subject-detail/${STUDY_ID}?subject-id=${subjectId}&subject-pk=${subjectPk}&depth-1=v1&depth-2=demographicInfo`;
    await page.goto(formUrl);
    await expect(page.locator('[data-form="demographicInfo"]')).toBeVisible();
    await expect(banner).toContainText('필수 교육 미이수');
    await expect(page.getByRole('button', { name: '저장', exact: true })).toBeDisabled();
    await expect(page.locator('[data-form="demographicInfo"]').getByLabel(/생년월일/)).not.toBeEditable();
    await screenshotsBothWays(page, testInfo, 'training-gate-form', async () => {
      await expect(banner).toContainText('Required training not completed.');
      await expect(page.getByRole('button', { name: 'Save', exact: true })).toBeDisabled();
    });

    // The link leads to the training page; the eCRF quiz passed there.
    await banner.getByRole('link', { name: '교육 페이지로 이동' }).click();
    await expect(page).toHaveURL(new RegExp(`/system-e-training/${STUDY_ID}$`));
    await page.getByRole('button', { name: 'eCRF 입력 교육' }).click();
    const reader = page.getByRole('article', { name: /eCRF 입력 교육/ });
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

    // Back on the form: no banner, and the save goes through.
    await page.goto(formUrl);
    const form = page.locator('[data-form="demographicInfo"]');
    await expect(form).toBeVisible();
    await expect(banner).toHaveCount(0);
    await form.getByLabel(/생년월일/).fill('1988-02-03');
    await page.getByRole('button', { name: '저장', exact: true }).click();
    await expect(page.getByText('저장했습니다.', { exact: true }).first()).toBeVisible();
    await screenshot(page, testInfo, 'training-gate-saved-ko-1440');
  });
});
