import type { Page, TestInfo } from '@playwright/test';
import { DEMO_PASSWORD } from '../support/auth.ts';
import { expect, test } from '../support/test.ts';

// The /test review page: the generic form renderer with the rules engine live, on the demo study's
// definition (GET /api/studies/1/definition). /test is behind login, so each test signs in through the API.

async function openPreview(page: Page, query = '') {
  const response = await page.request.post('/api/auth/login', {
    data: { email: 'crc@demo.cdms', password: DEMO_PASSWORD },
  });
  expect(response.ok(), await response.text()).toBe(true);
  await page.goto(`/test${query}`);
  await expect(page.getByRole('heading', { level: 1, name: '양식 미리보기' })).toBeVisible();
}

async function chooseForm(page: Page, visit: string, form: string) {
  await page.getByLabel('방문', { exact: true }).selectOption(visit);
  await page.getByLabel('양식', { exact: true }).selectOption(form);
}

async function switchLanguage(page: Page, language: 'KO' | 'EN') {
  const group = page.getByRole('group', { name: language === 'EN' ? '양식 언어' : 'Form language' });
  await group.getByRole('button', { name: language }).click();
}

async function screenshot(page: Page, testInfo: TestInfo, name: string) {
  const body = await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });
  await testInfo.attach(name, { body, contentType: 'image/png' });
}

test.describe('form renderer on /test', () => {
  test('V1 body measurement: typing height and weight shows the BMI', async ({ page }, testInfo) => {
    await openPreview(page);
    await chooseForm(page, 'v1', 'bodyMeasurement');
    const form = page.locator('[data-form="bodyMeasurement"]');
    await expect(form.getByRole('heading', { level: 2, name: '신체 계측' })).toBeVisible();
    await form.getByLabel(/신장/).pressSequentially('17a0');
    await expect(form.getByLabel(/신장/)).toHaveValue('170');
    await form.getByLabel(/체중/).pressSequentially('65');
    const bmi = form.getByLabel(/체질량지수/);
    await expect(bmi).toHaveValue('22.5');
    await expect(bmi).toHaveAttribute('readonly', '');
    await expect(page.getByRole('complementary', { name: '규칙 엔진 결과' })).toContainText('22.5');

    // "Not done" disables the section's inputs.
    await form.getByRole('checkbox', { name: /ND/ }).check();
    await expect(form.getByLabel(/신장/)).toBeDisabled();
    await screenshot(page, testInfo, 'v1-bodyMeasurement-nd-ko');
  });

  test('V2 device application answered no directs to the end of study', async ({ page }, testInfo) => {
    await openPreview(page);
    await chooseForm(page, 'v2', 'deviceApplication');
    const form = page.locator('[data-form="deviceApplication"]');
    await form
      .getByRole('radiogroup', { name: /시험기기 적용 여부/ })
      .getByRole('radio', { name: '아니오' })
      .check();
    await expect(form.getByRole('status')).toContainText('종료 방문 작성');
    await screenshot(page, testInfo, 'v2-deviceApplication-outcome-ko');
  });

  test('V1 inclusion/exclusion: a reconfirm message appears when eligible and V1 ear discharge is yes', async ({
    page,
  }) => {
    await openPreview(page);
    await page.getByRole('button', { name: '예시 데이터 채우기' }).click();
    await chooseForm(page, 'v1', 'inclusionExclusionEval');
    const eligible = page.locator('[data-item="eligible"]');
    await expect(eligible.getByRole('radio', { name: '예' })).toBeChecked();
    await expect(eligible).not.toContainText('재확인');

    // The sample subject has no ear discharge at V1: answer yes there.
    await chooseForm(page, 'v1', 'diseaseBasicInfo');
    await page
      .getByRole('radiogroup', { name: /이루\(귀 분비물\)/ })
      .getByRole('radio', { name: '예' })
      .check();
    await expect(page.getByRole('heading', { level: 3, name: '이루 양상' })).toBeVisible();

    await chooseForm(page, 'v1', 'inclusionExclusionEval');
    const message = eligible.locator('[data-severity="query"]');
    await expect(message).toContainText(
      'V1 질병 기본 정보에서 이루가 "예"입니다. 적합 여부를 재확인하십시오.',
    );

    // Switching to English changes labels and messages.
    await switchLanguage(page, 'EN');
    await expect(
      page.getByRole('heading', { level: 2, name: 'Inclusion / exclusion evaluation' }),
    ).toBeVisible();
    await expect(eligible).toContainText('Eligible for the trial');
    await expect(message).toContainText('Ear discharge is "Yes" in the V1 disease information.');
    await expect(eligible.getByRole('radio', { name: 'Yes' })).toBeChecked();
  });

  test('screenshots of several forms in Korean and English at 1440 px', async ({ page }, testInfo) => {
    test.setTimeout(60_000);
    await page.setViewportSize({ width: 1440, height: 900 });
    await openPreview(page);
    await page.getByRole('button', { name: '예시 데이터 채우기' }).click();

    const shots: [visit: string, form: string][] = [
      ['v1', 'demographicInfo'],
      ['v1', 'labTest'],
      ['v1', 'ptaTest'],
    ];
    for (const [visit, form] of shots) {
      await chooseForm(page, visit, form);
      await expect(page.locator(`[data-form="${form}"]`)).toBeVisible();
      await screenshot(page, testInfo, `${visit}-${form}-ko`);
    }

    // Adverse events with two rows.
    await chooseForm(page, 'all', 'adverseEvent');
    const aeForm = page.locator('[data-form="adverseEvent"]');
    await aeForm
      .getByRole('radiogroup', { name: /이상사례 발생 여부/ })
      .getByRole('radio', { name: '예' })
      .check();
    await aeForm.getByRole('button', { name: /행 추가/ }).click();
    await aeForm.getByRole('button', { name: /행 추가/ }).click();
    await expect(aeForm.locator('[data-row]')).toHaveCount(2);
    await aeForm
      .getByLabel(/이상사례명/)
      .first()
      .fill('이명 악화');
    await aeForm
      .getByLabel(/발현일/)
      .first()
      .fill('2025-04-02');
    await screenshot(page, testInfo, 'all-adverseEvent-ko');

    await switchLanguage(page, 'EN');
    await expect(aeForm.getByRole('heading', { level: 2, name: 'Adverse events' })).toBeVisible();
    await screenshot(page, testInfo, 'all-adverseEvent-en');
    for (const [visit, form] of shots) {
      await page.getByLabel('Visit', { exact: true }).selectOption(visit);
      await page.getByLabel('Form', { exact: true }).selectOption(form);
      await expect(page.locator(`[data-form="${form}"]`)).toBeVisible();
      await screenshot(page, testInfo, `${visit}-${form}-en`);
    }
  });
});
