import { readFile } from 'node:fs/promises';
import {
  type APIRequestContext,
  type Browser,
  type Page,
  request as playwrightRequest,
} from '@playwright/test';
import { DEMO_PASSWORD, logInAs } from '../support/auth.ts';
import { expect, test } from '../support/test.ts';

// The subject lifecycle end to end: a CRC registers a subject, saves V1 as eligible, saves V2 as
// eligible and randomizes; the PI signs the casebook; the subject list and the dashboard show it.
// A second subject saved as not eligible becomes a screening failure.

const STUDY_ID = 1;
const pi = { email: 'pi@demo.cdms', name: '김연구', role: 'PI' } as const;
/**
 * A coordinator at site 01 (the PI's site), made for this test through the admin API. The address
 * is new on every attempt, so a retry does not trip over the account the first attempt made.
 */
const siteOneCrc = { email: `crc-lifecycle-${Date.now()}@demo.cdms`, name: '윤코디', role: 'CRC' } as const;

function koreanDate(daysAgo: number): string {
  return new Date(Date.now() + 9 * 3600_000 - daysAgo * 86_400_000).toISOString().slice(0, 10);
}

async function apiSession(baseURL: string, email: string): Promise<{ api: APIRequestContext; csrf: string }> {
  const api = await playwrightRequest.newContext({ baseURL });
  const login = await api.post('/api/auth/login', { data: { email, password: DEMO_PASSWORD } });
  expect(login.status()).toBe(200);
  const { csrfToken } = (await login.json()) as { csrfToken: string };
  return { api, csrf: csrfToken };
}

/** The admin gives the study a CRC at site 01, as an administrator would on the admin pages. */
async function createSiteOneCrc(baseURL: string): Promise<void> {
  const { api, csrf } = await apiSession(baseURL, 'admin@demo.cdms');
  const headers = { 'x-csrf-token': csrf };
  const { studies } = (await (await api.get('/api/admin/studies')).json()) as {
    studies: { id: number; sites: { id: number; institutionNumber: string }[] }[];
  };
  const study = studies.find((candidate) => candidate.id === STUDY_ID);
  const siteOne = study?.sites.find((site) => site.institutionNumber === '01');
  const user = await api.post('/api/admin/users', {
    headers,
    data: { email: siteOneCrc.email, name: siteOneCrc.name, password: DEMO_PASSWORD },
  });
  expect(user.status()).toBe(201);
  const { id: userId } = (await user.json()) as { id: number };
  const membership = await api.post(`/api/admin/studies/${STUDY_ID}/memberships`, {
    headers,
    data: { userId, role: 'CRC', siteIds: [siteOne?.id] },
  });
  expect(membership.status()).toBe(201);
  await api.dispose();
  // The demo study requires its training before data entry (issue 51): the new coordinator passes
  // the eCRF quiz first (its right answers as demo-training.ts writes them).
  const crc = await apiSession(baseURL, siteOneCrc.email);
  const { modules } = (await (await crc.api.get(`/api/studies/${STUDY_ID}/training`)).json()) as {
    modules: { id: number; required: boolean; questionCount: number }[];
  };
  for (const module of modules.filter((candidate) => candidate.required)) {
    const done =
      module.questionCount > 0
        ? await crc.api.post(`/api/studies/${STUDY_ID}/training/modules/${module.id}/quiz`, {
            data: { answers: [0, 1, 2] },
            headers: { 'x-csrf-token': crc.csrf },
          })
        : await crc.api.post(`/api/studies/${STUDY_ID}/training/modules/${module.id}/complete`, {
            headers: { 'x-csrf-token': crc.csrf },
          });
    expect(done.status(), await done.text()).toBe(200);
  }
  await crc.api.dispose();
}

/** "전체 33명 · 무작위 배정 22명" on the dashboard's subject information panel. */
async function dashboardCounts(page: Page): Promise<{ total: number; randomized: number }> {
  await page.goto(`/dashboard/${STUDY_ID}`);
  const text = await page
    .getByText(/전체 \d+명 · 무작위 배정 \d+명/)
    .first()
    .textContent();
  const [, total, randomized] = (text ?? '').match(/전체 (\d+)명 · 무작위 배정 (\d+)명/) ?? [];
  return { total: Number(total), randomized: Number(randomized) };
}

async function registerSubject(page: Page, initials: string): Promise<string> {
  await page.goto(`/subject-list/${STUDY_ID}`);
  await page.getByRole('button', { name: '+ 대상자 추가' }).click();
  const dialog = page.getByRole('dialog', { name: '대상자 추가' });
  await dialog.getByLabel('동의서 서명일').fill(koreanDate(20));
  await dialog.getByLabel('이니셜').fill(initials);
  await dialog.getByRole('button', { name: '등록' }).click();
  const number = dialog.getByTestId('screening-number');
  await expect(number).toHaveText(/^S01-\d{3}$/);
  const screeningNumber = (await number.textContent()) ?? '';
  await dialog.getByRole('button', { name: '대상자 열기' }).click();
  await expect(page).toHaveURL(/\/subject-list\/subject\/1\?/);
  return screeningNumber;
}

/**
 * From the overview, opens a form, answers "Eligible for the trial", saves, and waits for that save's
 * answer: the "saved" toast alone may still be the previous form's (the overview and the forms are one
 * page), and leaving while the save is on its way asks about unsaved changes.
 */
async function saveEligibility(page: Page, visitLabel: string, answer: '예' | '아니오') {
  await page
    .getByRole('link', { name: new RegExp(`^${escapeRegExp(visitLabel)} · 선정/제외기준 평가`) })
    .click();
  const form = page.locator('[data-form="inclusionExclusionEval"]');
  await form
    .getByRole('radiogroup', { name: /임상시험 참여 적합 여부/ })
    .getByRole('radio', { name: answer })
    .check();
  const saved = page.waitForResponse(
    (response) =>
      response.request().method() === 'PUT' && /\/forms\/[^/]+\/inclusionExclusionEval$/.test(response.url()),
  );
  await page.getByRole('button', { name: '저장', exact: true }).click();
  expect((await saved).status()).toBe(200);
  await expect(page.getByText('저장했습니다.', { exact: true }).first()).toBeVisible();
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

async function backToOverview(page: Page) {
  await page.getByRole('link', { name: 'eCRF 현황판' }).click();
}

async function listRow(page: Page, screeningNumber: string) {
  await page.goto(`/subject-list/${STUDY_ID}?search=${screeningNumber}`);
  const row = page.getByRole('row').filter({ hasText: screeningNumber });
  await expect(row).toHaveCount(1);
  return row;
}

async function newPage(browser: Browser, baseURL: string): Promise<Page> {
  const context = await browser.newContext({ baseURL, locale: 'ko-KR', timezoneId: 'Asia/Seoul' });
  return context.newPage();
}

test.describe('subject lifecycle', () => {
  test('CRC registers, V1 and V2 eligible, randomizes; PI signs; list and dashboard follow', async ({
    page,
    browser,
    baseURL,
    consoleGuard,
  }) => {
    test.setTimeout(180_000);
    consoleGuard.allowFailedRequest(
      /\/api\/studies\/1\/subjects\/\d+\/signature$/,
      422,
      'a wrong password, on purpose',
    );
    await createSiteOneCrc(baseURL as string);

    await logInAs(page, pi);
    const before = await dashboardCounts(page);

    const crcPage = await newPage(browser, baseURL as string);
    await logInAs(crcPage, siteOneCrc);
    const screeningNumber = await registerSubject(crcPage, 'LCY');
    await saveEligibility(crcPage, '스크리닝 (V1)', '예');
    await backToOverview(crcPage);
    await saveEligibility(crcPage, '기저 방문 (V2)', '예');
    await backToOverview(crcPage);

    // V2 randomization form: the Randomize button, a confirmation, the number.
    await crcPage.getByRole('link', { name: /^기저 방문 \(V2\) · 무작위 배정 번호/ }).click();
    await crcPage.getByRole('button', { name: '무작위 배정', exact: true }).click();
    const confirm = crcPage.getByRole('dialog', { name: '대상자 무작위 배정' });
    await confirm.getByRole('button', { name: '무작위 배정', exact: true }).click();
    await expect(
      crcPage.getByText(`${screeningNumber} 대상자가 무작위 배정되었습니다.`).first(),
    ).toBeVisible();
    const numberCell = crcPage.getByText(/^R01\d{3}$/).first();
    await expect(numberCell).toBeVisible();
    const randomizationNumber = (await numberCell.textContent()) ?? '';

    // The list as the CRC sees it: Ongoing, the R number, signature pending.
    let row = await listRow(crcPage, screeningNumber);
    await expect(row).toContainText('진행 중');
    await expect(row).toContainText(randomizationNumber);
    await expect(row).toContainText('미완료');

    // The PI signs the casebook with the password.
    row = await listRow(page, screeningNumber);
    await row.getByRole('link', { name: screeningNumber }).click();
    await page.getByRole('link', { name: /^전체 · 시험책임자 서명/ }).click();
    await page.getByRole('button', { name: '서명', exact: true }).click();
    const signDialog = page.getByRole('dialog', { name: '증례기록서 서명' });
    await signDialog.getByLabel('비밀번호').fill('not-the-password-1');
    await signDialog.getByRole('button', { name: '서명', exact: true }).click();
    await expect(signDialog.getByText('비밀번호가 올바르지 않습니다.', { exact: false })).toBeVisible();
    await signDialog.getByLabel('비밀번호').fill(DEMO_PASSWORD);
    await signDialog.getByRole('button', { name: '서명', exact: true }).click();
    await expect(page.getByText('서명 완료').first()).toBeVisible();
    await expect(page.getByText(pi.name).first()).toBeVisible();

    row = await listRow(page, screeningNumber);
    await expect(row).toContainText('완료');
    await expect(row).not.toContainText('미완료');

    const after = await dashboardCounts(page);
    expect(after).toEqual({ total: before.total + 1, randomized: before.randomized + 1 });

    // A subject saved as not eligible at V1 becomes a screening failure.
    const failed = await registerSubject(crcPage, 'NEL');
    await saveEligibility(crcPage, '스크리닝 (V1)', '아니오');
    row = await listRow(crcPage, failed);
    await expect(row).toContainText('스크리닝 탈락');
    await crcPage.context().close();

    // The data manager downloads the filtered list as CSV.
    const dmPage = await newPage(browser, baseURL as string);
    await logInAs(dmPage, { email: 'dm@demo.cdms', name: '정데이' });
    await dmPage.goto(`/subject-list/${STUDY_ID}?search=${screeningNumber}`);
    await dmPage.getByRole('button', { name: /^다운로드/ }).click();
    const [download] = await Promise.all([
      dmPage.waitForEvent('download'),
      dmPage.getByRole('menuitem', { name: 'CSV (Excel에서 열림)' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^TMP-2026_subjects_\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await readFile((await download.path()) as string, 'utf8');
    expect(csv).toContain(screeningNumber);
    expect(csv).toContain(randomizationNumber);
    expect(csv.trim().split('\n')).toHaveLength(2);
    await dmPage.context().close();
  });
});
