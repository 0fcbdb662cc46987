import type { APIRequestContext, Page, TestInfo } from '@playwright/test';
import { DEMO_PASSWORD, demoAccount, logInAs } from '../support/auth.ts';
import { expect, test } from '../support/test.ts';

/** Logs in through the API; when given the page's request context, the session cookie is the page's too. */
async function logIn(request: APIRequestContext, email: string, password = DEMO_PASSWORD) {
  return request.post('/api/auth/login', { data: { email, password } });
}

async function logInPage(page: Page, email: string) {
  const response = await logIn(page.request, email);
  expect(response.ok(), await response.text()).toBe(true);
}

async function screenshot(page: Page, testInfo: TestInfo, name: string) {
  const body = await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });
  await testInfo.attach(name, { body, contentType: 'image/png' });
}

test.describe('administration', () => {
  test('an administrator creates a user, gives them a CRC role, then deactivates them', async ({
    page,
    request,
  }) => {
    test.setTimeout(60_000);
    const email = `e2e.crc.${Date.now()}@hospital.kr`;
    const name = '테스트코디';
    const password = 'Tympanic-2026';

    // The administrator logs in as a person would, through the login dialog.
    const admin = demoAccount('ADMIN');
    await logInAs(page, admin);
    await page.goto('/admin/users');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('시스템 관리');
    await expect(page.getByRole('heading', { name: '사용자', exact: true })).toBeVisible();

    // Create the user; the password rules give feedback while typing.
    await page.getByRole('button', { name: '사용자 추가' }).click();
    const createDialog = page.getByRole('dialog', { name: '사용자 추가' });
    await createDialog.getByLabel('이름').fill(name);
    await createDialog.getByLabel('이메일').fill(email);
    await createDialog.getByLabel('연락처').fill('010-1234-5678');
    await createDialog.getByLabel('초기 비밀번호').fill('short');
    await createDialog.getByRole('button', { name: '사용자 추가' }).click();
    await expect(createDialog.getByText('비밀번호가 아래 규칙에 맞지 않습니다.')).toBeVisible();
    await createDialog.getByLabel('초기 비밀번호').fill(password);
    await createDialog.getByRole('button', { name: '사용자 추가' }).click();
    await expect(createDialog).toBeHidden();
    await page.getByLabel('사용자 검색').fill(email);
    const row = page.getByRole('row').filter({ hasText: email });
    await expect(row).toContainText(name);
    await expect(row).toContainText('활성');

    // Give them the CRC role at one site of the demo study.
    await page.getByRole('link', { name: '연구 역할' }).click();
    await expect(page).toHaveURL(/\/admin\/memberships/);
    await page.getByRole('button', { name: '역할 추가' }).click();
    const roleDialog = page.getByRole('dialog', { name: '연구 역할 추가' });
    await roleDialog.getByLabel('사용자').selectOption({ label: `${name} (${email})` });
    await roleDialog.getByLabel('역할').selectOption('CRC');
    await roleDialog.getByRole('button', { name: '저장' }).click();
    await expect(roleDialog.getByText('이 역할에는 기관을 하나 이상 선택하세요.')).toBeVisible();
    await roleDialog.getByLabel(/^HBU-1Y/).check();
    await roleDialog.getByRole('button', { name: '저장' }).click();
    await expect(roleDialog).toBeHidden();
    const membershipRow = page.getByRole('row').filter({ hasText: email });
    await expect(membershipRow).toContainText('CRC');
    await expect(membershipRow).toContainText('HBU-1Y');

    // The new user logs in (a separate cookie jar) and sees that membership.
    const login = await logIn(request, email, password);
    expect(login.status()).toBe(200);
    const me = await (await request.get('/api/auth/me')).json();
    expect(me.user.email).toBe(email);
    const study = me.memberships.find(
      (membership: { studyCode: string }) => membership.studyCode === 'TMP-2026',
    );
    expect(study.roles).toEqual(['CRC']);
    expect(study.sites.map((site: { code: string }) => site.code)).toEqual(['HBU-1Y']);

    // Deactivate, with a confirmation; the user's session ends and the next login is refused.
    await page.getByRole('link', { name: '사용자', exact: true }).click();
    await page.getByLabel('사용자 검색').fill(email);
    await page.getByRole('button', { name: `${name} 수정` }).click();
    const editDialog = page.getByRole('dialog', { name: '사용자 수정' });
    await editDialog.getByRole('button', { name: '계정 비활성화' }).click();
    const confirm = page.getByRole('alertdialog', { name: `${name} 계정을 비활성화할까요?` });
    await confirm.getByRole('button', { name: '계정 비활성화' }).click();
    await expect(confirm).toBeHidden();
    await expect(editDialog.getByText('비활성화된 계정으로, 로그인할 수 없습니다.')).toBeVisible();
    await editDialog.getByRole('button', { name: '취소' }).click();
    await expect(page.getByRole('row').filter({ hasText: email })).toContainText('비활성');

    // The deactivated user's session has ended: nobody is signed in with its cookie.
    expect(await (await request.get('/api/auth/me')).json()).toEqual({ user: null });
    const refused = await logIn(request, email, password);
    expect(refused.status()).toBe(401);
  });

  test('a password reset shows the temporary password once, and it works', async ({
    page,
    request,
  }, testInfo) => {
    // Reset a user of this test's own, never a demo account other tests log in with.
    const login = await logIn(page.request, 'admin@demo.cdms');
    const { csrfToken } = await login.json();
    const email = `e2e.reset.${Date.now()}@hospital.kr`;
    const created = await page.request.post('/api/admin/users', {
      data: { email, name: '초기화대상', password: 'Before-reset-2026' },
      headers: { 'x-csrf-token': csrfToken },
    });
    expect(created.status(), await created.text()).toBe(201);

    await page.goto('/admin/users');
    // More accounts than one page holds: find the user as a person would, by the search box.
    await page.getByRole('searchbox', { name: '사용자 검색' }).fill(email);
    await page.getByRole('button', { name: '초기화대상의 비밀번호 초기화' }).click();
    const dialog = page.getByRole('alertdialog');
    await expect(dialog).toHaveAccessibleName('초기화대상의 비밀번호를 초기화할까요?');
    await dialog.getByRole('button', { name: '비밀번호 초기화' }).click();
    const secret = dialog.getByLabel('임시 비밀번호');
    await expect(secret).toHaveValue(/^\S{16}$/);
    await expect(dialog.getByText('이 비밀번호는 지금 한 번만 표시됩니다.', { exact: false })).toBeVisible();
    await screenshot(page, testInfo, 'admin-reset-password-ko');
    const temporaryPassword = await secret.inputValue();
    await dialog.getByRole('button', { name: '닫기' }).click();
    await expect(dialog).toBeHidden();
    expect((await logIn(request, email, temporaryPassword)).status()).toBe(200);
    expect((await logIn(request, email, 'Before-reset-2026')).status()).toBe(401);
  });

  test('a user who is not a system administrator sees "no permission"', async ({ page }, testInfo) => {
    await logInPage(page, 'cra@demo.cdms');
    await page.goto('/admin/users');
    await expect(page.getByRole('heading', { name: '접근 권한이 없습니다' })).toBeVisible();
    await expect(page.getByRole('link', { name: '과제 목록으로' }).first()).toBeVisible();
    await expect(page.getByRole('table')).toHaveCount(0);
    await screenshot(page, testInfo, 'admin-no-permission-ko');
    await page.getByRole('button', { name: 'EN', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'No permission' })).toBeVisible();
    await screenshot(page, testInfo, 'admin-no-permission-en');
  });

  test('screenshots of every admin page in Korean and English', async ({ page }, testInfo) => {
    test.setTimeout(60_000);
    await logInPage(page, 'admin@demo.cdms');
    for (const language of ['ko', 'en'] as const) {
      await page.goto('/admin/users');
      await page.getByRole('button', { name: language.toUpperCase(), exact: true }).click();
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      await expect(page.getByRole('table')).toBeVisible();
      await screenshot(page, testInfo, `admin-users-${language}`);

      await page.getByRole('button', { name: language === 'ko' ? '사용자 추가' : 'Add user' }).click();
      await page
        .getByRole('dialog')
        .getByLabel(language === 'ko' ? '초기 비밀번호' : 'Initial password')
        .fill('abc');
      await screenshot(page, testInfo, `admin-users-create-${language}`);
      await page.keyboard.press('Escape');

      await page.getByRole('link', { name: language === 'ko' ? '기관' : 'Sites', exact: true }).click();
      await expect(page.getByRole('cell', { name: 'HBU-1Y', exact: true })).toBeVisible();
      await screenshot(page, testInfo, `admin-sites-${language}`);

      await page.getByRole('link', { name: language === 'ko' ? '연구 역할' : 'Study roles' }).click();
      await expect(page.getByRole('cell', { name: 'cra@demo.cdms', exact: true })).toBeVisible();
      await screenshot(page, testInfo, `admin-memberships-${language}`);
      await page.getByRole('button', { name: language === 'ko' ? '역할 추가' : 'Add role' }).click();
      await expect(page.getByRole('dialog').getByRole('checkbox')).toHaveCount(3);
      await screenshot(page, testInfo, `admin-memberships-add-${language}`);
      await page.keyboard.press('Escape');
    }
    // A search that matches nobody: the table says so (prototype-spec §8).
    await page.getByRole('link', { name: 'Users', exact: true }).click();
    await page.getByLabel('Search users').fill('nobody-by-this-name');
    await expect(page.getByRole('cell', { name: 'No data available.' })).toBeVisible();
    await screenshot(page, testInfo, 'admin-users-empty-en');
  });
});

test.describe('administration without a session', () => {
  test('/admin/users asks to log in first', async ({ page }) => {
    await page.goto('/admin/users');
    await expect(page.getByRole('alertdialog', { name: '로그인 필요' })).toBeVisible();
    await expect(page.getByRole('heading', { name: '시스템 관리' })).toHaveCount(0);
  });
});
