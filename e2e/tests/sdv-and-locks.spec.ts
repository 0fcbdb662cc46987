import type { Browser, Page, TestInfo } from '@playwright/test';
import { logInAs } from '../support/auth.ts';
import { e2eServer } from '../support/servers.ts';
import { expect, test } from '../support/test.ts';

// SDV, freezing and locking (issue 15), as the people who do them: a CRA verifies a V1 form of a
// subject at site 02 (the CRC's only site, one of the CRA's two); the CRC changes a verified value and
// its mark resets; the DM locks a subject and the CRC's save is refused with the server's message;
// the SDV page and the readiness board show the subjects. Screenshots in ko and en at 1440 and
// 1000px are attached to the report.

const STUDY_ID = 1;
const crc = { email: 'crc@demo.cdms', name: '박코디' } as const;
const cra = { email: 'cra@demo.cdms', name: '최모니' } as const;
const dm = { email: 'dm@demo.cdms', name: '정데이' } as const;
const si = { email: 'si@demo.cdms', name: '이부연' } as const;
const pi = { email: 'pi@demo.cdms', name: '김연구' } as const;
const DEMO_PASSWORD = 'cdms-demo-2026';

/** A day in Korea (UTC+9) `days` before today, as YYYY-MM-DD. */
function koreanDate(daysAgo: number): string {
  return new Date(Date.now() + 9 * 3600_000 - daysAgo * 86_400_000).toISOString().slice(0, 10);
}

async function screenshot(page: Page, testInfo: TestInfo, name: string) {
  const body = await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });
  await testInfo.attach(name, { body, contentType: 'image/png' });
}

/** Screenshots of the page as it is, in Korean and English, at 1440 and 1000px wide. */
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

async function newUser(browser: Browser, account: { email: string; name: string }): Promise<Page> {
  const context = await browser.newContext({
    baseURL: e2eServer().baseUrl,
    locale: 'ko-KR',
    timezoneId: 'Asia/Seoul',
  });
  const page = await context.newPage();
  await logInAs(page, account);
  return page;
}

interface SdvPlan {
  mode: 'all' | 'critical';
  firstSubjectsPerSite: number;
}

/**
 * The study's SDV plan as the DM left it, to put back after a test that changed it (the living demo
 * has a targeted plan: a new subject's demographics hold no critical item, nothing to verify).
 */
async function currentPlan(page: Page): Promise<SdvPlan> {
  const response = await page.request.get(`/api/studies/${STUDY_ID}/sdv/plan`);
  expect(response.status()).toBe(200);
  const { mode, firstSubjectsPerSite } = (await response.json()) as SdvPlan;
  return { mode, firstSubjectsPerSite };
}

async function putPlan(page: Page, plan: SdvPlan): Promise<void> {
  const me = await (await page.request.get('/api/auth/me')).json();
  const response = await page.request.put(`/api/studies/${STUDY_ID}/sdv/plan`, {
    headers: { 'X-CSRF-Token': me.csrfToken },
    data: plan,
  });
  // 409: the plan is that already.
  expect([200, 409], await response.text()).toContain(response.status());
}

/** The CRC registers a subject at site 02 (through the API) and saves V1 demographics in the form. */
async function subjectWithDemographics(page: Page, initials: string) {
  const me = await (await page.request.get('/api/auth/me')).json();
  const membership = me.memberships.find((m: { studyId: number }) => m.studyId === STUDY_ID);
  const created = await page.request.post(`/api/studies/${STUDY_ID}/subjects`, {
    headers: { 'X-CSRF-Token': me.csrfToken },
    data: { siteId: membership.sites[0].id, consentDate: koreanDate(4), initials },
  });
  expect(created.status(), await created.text()).toBe(201);
  const subject = (await created.json()) as { id: number; subjectId: string };
  const query = `subject-id=${subject.subjectId}&subject-pk=${subject.id}`;
  const formUrl = `/subject-list/subject/subject-detail/${STUDY_ID}?${query}&depth-1=v1&depth-2=demographicInfo`;
  const overviewUrl = `/subject-list/subject/${STUDY_ID}?${query}`;
  await page.goto(formUrl);
  const form = page.locator('[data-form="demographicInfo"]');
  await form.getByLabel(/생년월일/).fill('1990-05-15');
  await form.getByRole('radiogroup', { name: /성별/ }).getByRole('radio', { name: '남' }).check();
  await page.getByRole('button', { name: '저장', exact: true }).click();
  await expect(page.getByText('저장했습니다.', { exact: true }).first()).toBeVisible();
  return { ...subject, formUrl, overviewUrl };
}

/**
 * The CRC saves V1 demographics; the CRA verifies the form; the CRC changes a verified value and its
 * mark resets; the CRA verifies it again, withdraws another with a reason, and finds the form on the
 * SDV page.
 */
async function verifyAndReset(page: Page, browser: Browser, testInfo: TestInfo) {
  await logInAs(page, crc);
  const subject = await subjectWithDemographics(page, 'SV');

  // The CRA opens the form: a box per entered item (the derived age has none) and "verify form".
  const craPage = await newUser(browser, cra);
  await craPage.goto(subject.formUrl);
  const craForm = craPage.locator('[data-form="demographicInfo"]');
  const craBirth = craForm.locator('[data-item="birthDate"]');
  const craGender = craForm.locator('[data-item="gender"]');
  await expect(craBirth.getByRole('checkbox', { name: 'SDV' })).not.toBeChecked();
  await expect(craForm.locator('[data-item="age"]').getByRole('checkbox', { name: 'SDV' })).toHaveCount(0);
  await craPage.getByRole('button', { name: '양식 SDV' }).click();
  await expect(craPage.getByText('양식의 항목을 SDV 확인했습니다.').first()).toBeVisible();
  await expect(craBirth.getByRole('checkbox', { name: 'SDV' })).toBeChecked();
  await expect(craGender.getByRole('checkbox', { name: 'SDV' })).toBeChecked();
  await expect(craPage.getByText('SDV 완료', { exact: true }).first()).toBeVisible();
  // Nothing left to verify: the button is off.
  await expect(craPage.getByRole('button', { name: '양식 SDV' })).toBeDisabled();
  // The overview's cell carries the SDV mark beside its icon.
  await craPage.goto(subject.overviewUrl);
  await expect(
    craPage.getByRole('link', { name: '스크리닝 (V1) · 인구학적 정보: 완료 · SDV 완료' }),
  ).toBeVisible();

  // The CRC sees the marks, changes the verified birth date with a reason: its mark resets.
  await page.goto(subject.formUrl);
  const form = page.locator('[data-form="demographicInfo"]');
  const birth = form.locator('[data-item="birthDate"]');
  await expect(birth.getByText('SDV 완료', { exact: true })).toBeVisible();
  await expect(birth.getByRole('checkbox')).toHaveCount(0);
  await birth.getByLabel(/생년월일/).fill('1990-05-16');
  await page.getByRole('button', { name: '저장', exact: true }).click();
  const reasonDialog = page.getByRole('dialog', { name: '변경 사유 입력' });
  await reasonDialog.getByLabel('생년월일 변경 사유').fill('원자료 재확인 결과 생일 오기');
  await reasonDialog.getByRole('button', { name: '사유와 함께 저장' }).click();
  await expect(page.getByText('저장했습니다.', { exact: true }).first()).toBeVisible();
  await expect(birth.getByText('SDV 후 변경됨')).toBeVisible();
  await expect(form.locator('[data-item="gender"]').getByText('SDV 완료', { exact: true })).toBeVisible();

  // The CRA sees the box empty again, with "changed since verified"; verifies it again, and
  // withdraws the sex's mark with a reason.
  await craPage.goto(subject.formUrl);
  await expect(craBirth.getByRole('checkbox', { name: 'SDV' })).not.toBeChecked();
  await expect(craBirth.getByText('SDV 후 변경됨')).toBeVisible();
  // The box follows the server's answer, not the click: clicked, then seen ticked.
  await craBirth.getByRole('checkbox', { name: 'SDV' }).click();
  await expect(craBirth.getByRole('checkbox', { name: 'SDV' })).toBeChecked();
  await expect(craBirth.getByText('SDV 후 변경됨')).toHaveCount(0);
  await craGender.getByRole('checkbox', { name: 'SDV' }).click();
  const withdraw = craPage.getByRole('dialog', { name: 'SDV 확인 취소' });
  await withdraw.getByRole('button', { name: 'SDV 확인 취소' }).click();
  await expect(withdraw.getByRole('alert')).toHaveText('사유를 입력하세요.');
  await withdraw.getByLabel('취소 사유').fill('원자료 사본이 흐려 다시 확인 예정');
  await withdraw.getByRole('button', { name: 'SDV 확인 취소' }).click();
  await expect(withdraw).toBeHidden();
  await expect(craGender.getByRole('checkbox', { name: 'SDV' })).not.toBeChecked();
  await expect(craPage.getByText('SDV 진행 중', { exact: true }).first()).toBeVisible();
  await screenshot(craPage, testInfo, 'form-sdv-cra-ko');

  // The SDV page: the subject found by its number, unfolded to the form, which links to it.
  await craPage.goto(`/sdv/${STUDY_ID}?subject=${subject.subjectId}`);
  await expect(craPage.getByRole('heading', { level: 1, name: 'SDV' })).toBeVisible();
  const row = craPage.locator(`tr[data-subject="${subject.subjectId}"]`);
  // The subject's percentage counts every saved form in the plan (the consent form too).
  await expect(row).toContainText(/\d+%/);
  await row.getByRole('button', { name: subject.subjectId }).click();
  await expect(craPage).toHaveURL(/open=\d+/);
  const demographics = craPage.locator('li[data-form-state]').filter({ hasText: '인구학적 정보' });
  await expect(demographics).toContainText('SDV 진행 중');
  await expect(demographics).toContainText('1/2 항목');
  // The monitor verifies what is left of V1 from here: the sex again, the form complete.
  await craPage.locator('[data-visit="v1"]').getByRole('button', { name: '스크리닝 (V1) 방문 SDV' }).click();
  await expect(craPage.getByText(/^\d+개 항목을 SDV 확인했습니다\.$/).first()).toBeVisible();
  await expect(demographics).toContainText('SDV 완료');
  await expect(demographics).toContainText('2/2 항목');
  await demographics.getByRole('link', { name: '인구학적 정보' }).click();
  await expect(craPage).toHaveURL(/depth-1=v1&depth-2=demographicInfo/);
  await craPage.goto(`/sdv/${STUDY_ID}`);
  await expect(craPage.getByRole('link', { name: /^다음 SDV 양식: S\d+-\d{3}$/ })).toBeVisible();
  await screenshotsBothWays(craPage, testInfo, 'sdv', async () => {
    await expect(craPage.getByRole('heading', { level: 1, name: 'SDV' })).toBeVisible();
    await expect(craPage.getByRole('table', { name: /SDV progress by site/ })).toBeVisible();
  });
  await craPage.context().close();
}

test.describe('SDV, freezing and locking', () => {
  test('the CRA verifies a form; the CRC changes a verified value and its mark resets', async ({
    page,
    browser,
  }, testInfo) => {
    test.setTimeout(300_000);
    // The DM makes every item count (the plan editor on the SDV page); the demo's plan comes back after.
    const dmPage = await newUser(browser, dm);
    const demoPlan = await currentPlan(dmPage);
    try {
      await dmPage.goto(`/sdv/${STUDY_ID}`);
      const plan = dmPage.getByRole('region', { name: 'SDV 계획' });
      if (demoPlan.mode !== 'all') {
        await plan.getByRole('button', { name: '계획 변경' }).click();
        await plan.getByRole('radio', { name: '모든 항목' }).check();
        await plan.getByRole('button', { name: '계획 저장' }).click();
        await expect(dmPage.getByText('SDV 계획을 저장했습니다.').first()).toBeVisible();
      }
      await expect(plan).toContainText('모든 대상자의 모든 항목을 SDV합니다.');
      await expect(plan).toContainText('정데이');
      await verifyAndReset(page, browser, testInfo);
    } finally {
      await putPlan(dmPage, demoPlan);
      await dmPage.context().close();
    }
  });

  test('the DM locks a subject; the CRC’s save is refused with the message, and the form says why', async ({
    page,
    browser,
    consoleGuard,
  }, testInfo) => {
    test.setTimeout(240_000);
    await logInAs(page, crc);
    const subject = await subjectWithDemographics(page, 'LK');
    // The CRC keeps working on the form while the DM locks the subject.
    const form = page.locator('[data-form="demographicInfo"]');
    await form.getByLabel(/생년월일/).fill('1990-06-15');

    const dmPage = await newUser(browser, dm);
    await dmPage.goto(subject.overviewUrl);
    await dmPage.getByRole('button', { name: '대상자 잠금' }).click();
    const lockDialog = dmPage.getByRole('dialog', { name: '잠금' });
    await expect(lockDialog).toContainText(`대상: 대상자 ${subject.subjectId}`);
    await lockDialog.getByLabel('사유').fill('중간 분석 전 데이터 확정');
    await lockDialog.getByRole('button', { name: '대상자 잠금' }).click();
    await expect(dmPage.getByText('잠갔습니다.').first()).toBeVisible();
    await expect(dmPage.getByTestId('subject-header').getByText('잠금 (대상자)')).toBeVisible();
    await expect(
      dmPage.getByRole('link', { name: /^스크리닝 \(V1\) · 인구학적 정보: 완료 · .*잠금 \(대상자\)$/ }),
    ).toBeVisible();

    // The CRC's save meets the lock: the server's message in Korean, then the form shows the lock.
    consoleGuard.allowFailedRequest(
      new RegExp(`/api/studies/${STUDY_ID}/subjects/${subject.id}/forms/v1/demographicInfo$`),
      423,
      'the DM locked the subject while the CRC had the form open',
    );
    await page.getByRole('button', { name: '저장', exact: true }).click();
    const reasonDialog = page.getByRole('dialog', { name: '변경 사유 입력' });
    await reasonDialog.getByLabel('생년월일 변경 사유').fill('원자료 재확인');
    await reasonDialog.getByRole('button', { name: '사유와 함께 저장' }).click();
    const refusal = page.getByRole('alertdialog');
    await expect(refusal).toContainText('잠금 상태여서 아무것도 변경할 수 없습니다.');
    await refusal.getByRole('button', { name: '확인' }).click();
    const banner = page.locator('[data-hold-banner="locked"]');
    await expect(banner).toContainText('잠금 상태입니다 (대상자 단위).');
    await expect(banner).toContainText('정데이');
    await expect(banner).toContainText('중간 분석 전 데이터 확정');
    await expect(form.getByLabel(/생년월일/)).toBeDisabled();
    // The form shows what is saved; the refused edit is not offered as an unsaved change.
    await expect(form.getByLabel(/생년월일/)).toHaveValue('1990-05-15');
    await expect(page.getByText('저장하지 않은 변경 사항이 있습니다.')).toBeHidden();
    await expect(page.getByRole('button', { name: '저장', exact: true })).toHaveCount(0);
    await screenshotsBothWays(page, testInfo, 'form-locked', async () => {
      await expect(page.locator('[data-hold-banner="locked"]')).toContainText('Locked (Subject level).');
    });

    // The board shows the subject locked; the DM unlocks it there with a reason.
    await dmPage.goto(`/freezing/${STUDY_ID}?subject=${subject.subjectId}`);
    const row = dmPage.locator(`tr[data-subject="${subject.subjectId}"]`);
    await expect(row).toContainText('잠금 (대상자)');
    await row.getByRole('checkbox').check();
    await dmPage
      .getByRole('group', { name: '선택한 대상자' })
      .getByRole('button', { name: '잠금 해제' })
      .click();
    const unlock = dmPage.getByRole('dialog', { name: '잠금 해제' });
    await expect(unlock.getByRole('radio', { name: '선택한 대상자 (1명)' })).toBeChecked();
    await unlock.getByLabel('사유').fill('확정 범위 재검토');
    await expect(unlock.getByRole('radio', { name: '잠금 해제' })).toBeChecked();
    await unlock.getByRole('button', { name: '잠금 해제' }).click();
    await expect(dmPage.getByText('잠금을 해제했습니다.').first()).toBeVisible();
    await expect(row).not.toContainText('잠금 (대상자)');
    await screenshotsBothWays(dmPage, testInfo, 'freezing', async () => {
      await expect(
        dmPage.getByRole('heading', { level: 1, name: 'Freezing · lock readiness' }),
      ).toBeVisible();
    });
    await dmPage.context().close();
  });

  test('the board shows a subject ready once its query is closed and its casebook signed', async ({
    page,
    browser,
  }) => {
    test.setTimeout(240_000);
    // The SI registers a subject at site 01 today: its consent form is its only saved form.
    await logInAs(page, si);
    const siMe = await (await page.request.get('/api/auth/me')).json();
    const siSites = siMe.memberships.find((m: { studyId: number }) => m.studyId === STUDY_ID).sites;
    const created = await page.request.post(`/api/studies/${STUDY_ID}/subjects`, {
      headers: { 'X-CSRF-Token': siMe.csrfToken },
      data: { siteId: siSites[0].id, consentDate: koreanDate(0), initials: 'RD' },
    });
    expect(created.status(), await created.text()).toBe(201);
    const subject = (await created.json()) as { id: number; subjectId: string };
    const consentUrl = `/subject-list/subject/subject-detail/${STUDY_ID}?subject-id=${subject.subjectId}&subject-pk=${subject.id}&depth-1=consentScreening&depth-2=consentScreening`;

    // Every item counts while this test runs (the demo's targeted plan leaves a new consent form
    // with nothing to verify); the demo's plan comes back after.
    const dmPage = await newUser(browser, dm);
    const demoPlan = await currentPlan(dmPage);
    await putPlan(dmPage, { mode: 'all', firstSubjectsPerSite: 0 });
    try {
      await readyOnceClosedAndSigned(browser, dmPage, subject, consentUrl);
    } finally {
      await putPlan(dmPage, demoPlan);
      await dmPage.context().close();
    }
  });
});

/** The CRA verifies and raises a query, the board says not ready; closed and signed, it says ready. */
async function readyOnceClosedAndSigned(
  browser: Browser,
  dmPage: Page,
  subject: { id: number; subjectId: string },
  consentUrl: string,
) {
  // The CRA verifies the consent form in the browser and raises a query on it (through the API:
  // raising is the query feature's own test).
  const craPage = await newUser(browser, cra);
  await craPage.goto(consentUrl);
  await craPage.getByRole('button', { name: '양식 SDV' }).click();
  await expect(craPage.getByText('양식의 항목을 SDV 확인했습니다.').first()).toBeVisible();
  const craMe = await (await craPage.request.get('/api/auth/me')).json();
  const raised = await craPage.request.post(`/api/studies/${STUDY_ID}/queries`, {
    headers: { 'X-CSRF-Token': craMe.csrfToken },
    data: {
      subjectPk: subject.id,
      visitKey: 'consentScreening',
      formKey: 'consentScreening',
      itemPath: '',
      text: '동의서 원본의 서명 면을 확인해 주세요.',
    },
  });
  expect(raised.status(), await raised.text()).toBe(201);
  const queryId = ((await raised.json()) as { id: number }).id;

  // The DM's board: one open query and no signature stand in the way.
  await dmPage.goto(`/freezing/${STUDY_ID}?subject=${subject.subjectId}`);
  const row = dmPage.locator(`tr[data-subject="${subject.subjectId}"]`);
  await expect(row).toContainText('미준비');
  await expect(row).toContainText('서명 없음');
  await expect(row.locator('[data-count="openQueries"]')).toHaveText('1');

  // The CRA closes the query; the PI signs the casebook with the password again.
  const closed = await craPage.request.post(`/api/studies/${STUDY_ID}/queries/${queryId}/close`, {
    headers: { 'X-CSRF-Token': craMe.csrfToken },
    data: { text: '원본 확인 완료' },
  });
  expect(closed.status(), await closed.text()).toBe(200);
  const piPage = await newUser(browser, pi);
  const piMe = await (await piPage.request.get('/api/auth/me')).json();
  const signed = await piPage.request.post(`/api/studies/${STUDY_ID}/subjects/${subject.id}/signature`, {
    headers: { 'X-CSRF-Token': piMe.csrfToken },
    data: { password: DEMO_PASSWORD },
  });
  expect(signed.status(), await signed.text()).toBeLessThan(300);

  // The board, read again, shows the subject ready; the "ready" filter finds it.
  await dmPage.goto(`/freezing/${STUDY_ID}?subject=${subject.subjectId}&state=ready`);
  await expect(row).toContainText('준비됨');
  await expect(row).toContainText('서명됨');
  await expect(row).not.toContainText('미준비');
  await expect(row.locator('[data-count="openQueries"]')).toHaveText('0');
  for (const context of [craPage, piPage]) await context.context().close();
}
