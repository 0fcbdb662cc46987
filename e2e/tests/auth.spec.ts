import type { Page, TestInfo } from '@playwright/test';
import { type DemoAccount, demoAccounts, logInAs, logInFromLanding } from '../support/auth.ts';
import { expect, test } from '../support/test.ts';

const pi = demoAccounts[1];
const cra = demoAccounts[4];

async function screenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const body = await page.screenshot({ path: testInfo.outputPath(`${name}.png`) });
  await testInfo.attach(name, { body, contentType: 'image/png' });
}

/** A toast (Radix also copies its text into a hidden live region: look in the toast list only). */
function toast(page: Page, text: string) {
  return page.getByRole('region').getByRole('listitem').filter({ hasText: text });
}

/** Opens the header's user popup on a signed-in page and returns it. */
async function openUserPopup(page: Page, account: DemoAccount) {
  await page
    .getByRole('banner')
    .getByRole('button', { name: `${account.name} 님` })
    .click();
  const popup = page.getByRole('dialog', { name: '사용자 정보' });
  await expect(popup).toBeVisible();
  return popup;
}

test.describe('login and logout', () => {
  for (const account of demoAccounts) {
    test(`${account.role} (${account.email}) logs in, sees their name, and logs out`, async ({ page }) => {
      // The login goes on to the task list (issue 43 item 8), not back to the start page.
      await logInAs(page, account);
      await expect(page.getByRole('button', { name: '로그인' })).toBeHidden();

      // On the start page, signed in, the start button leads to the task list.
      await page.goto('/');
      await page.getByRole('link', { name: '시작하기' }).click();
      await expect(page).toHaveURL(/\/task-list$/);
      const popup = await openUserPopup(page, account);
      await expect(popup.getByTestId('account-name')).toHaveText(account.name);
      await expect(popup).toContainText(account.email);
      await expect(popup).toContainText('TMP-2026');
      await expect(popup.getByText(account.role, { exact: true }).first()).toBeVisible();
      // Each demo account logs in more than once over the suite, so the last access is a time.
      await expect(popup.getByText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$|^이전 접속 기록 없음$/)).toBeVisible();
      if (account.role === 'ADMIN') await expect(popup).toContainText('시스템 관리자');

      await popup.getByRole('button', { name: '로그아웃' }).click();
      await expect(page).toHaveURL(/\/$/);
      await expect(toast(page, '로그아웃되었습니다.')).toBeVisible();
      await expect(page.getByRole('button', { name: '로그인' })).toBeVisible();

      // Signed out, the task list asks for a login again.
      await page.goto('/task-list');
      await expect(page.getByRole('alertdialog', { name: '로그인 필요' })).toBeVisible();
    });
  }

  test('logging in from the start page goes on to the task list', async ({ page }) => {
    await logInFromLanding(page, pi.email);
    await expect(page).toHaveURL(/\/task-list$/);
    await expect(page.getByTestId('study-card').first()).toBeVisible();
  });

  test('logs out from the account menu of the landing page', async ({ page }) => {
    await logInAs(page, pi);
    await page.goto('/');
    await page.getByRole('button', { name: `${pi.name} 님` }).click();
    await page.getByRole('menuitem', { name: '로그아웃' }).click();
    await expect(page.getByRole('button', { name: '로그인' })).toBeVisible();
  });

  test('account settings open the account dialog from the landing page', async ({ page }) => {
    await logInAs(page, cra);
    await page.goto('/');
    await page.getByRole('button', { name: `${cra.name} 님` }).click();
    await page.getByRole('menuitem', { name: '계정 설정' }).click();
    const dialog = page.getByRole('dialog', { name: '사용자 정보' });
    await expect(dialog.getByTestId('account-name')).toHaveText(cra.name);
    // A modal on top of a modal: the change-password dialog stacks over the account dialog.
    await dialog.getByRole('button', { name: '비밀번호 변경' }).click();
    const password = page.getByRole('dialog', { name: '비밀번호 변경' });
    await expect(password).toBeVisible();
    // Escape closes the dialog that has focus: wait until focus has moved into the new one.
    await expect(password.locator(':focus')).toHaveCount(1);
    await page.keyboard.press('Escape');
    await expect(password).toBeHidden();
    await expect(dialog).toBeVisible();
  });

  test('a wrong password, an empty form and the Korean and English messages', async ({
    page,
    consoleGuard,
  }, testInfo) => {
    consoleGuard.allowFailedRequest('/api/auth/login', 401, 'two wrong passwords, on purpose');
    await page.goto('/');
    await page.getByRole('button', { name: '로그인' }).click();
    const dialog = page.getByRole('dialog', { name: '로그인' });
    await dialog.getByRole('button', { name: '로그인' }).click();
    await expect(dialog.getByText('이메일을 입력하세요.', { exact: true })).toBeVisible();
    await expect(dialog.getByText('비밀번호를 입력하세요.', { exact: true })).toBeVisible();
    await page.keyboard.press('Escape');

    await logInFromLanding(page, pi.email, 'not-the-password-1');
    await expect(page.getByRole('dialog', { name: '로그인' }).getByRole('alert')).toHaveText(
      '이메일 또는 비밀번호가 올바르지 않습니다.',
    );
    await screenshot(page, testInfo, 'login-error-ko');

    // A string: the e2e project has no DOM types.
    await page.evaluate("localStorage.setItem('cdms.language', 'en')");
    await page.goto('/');
    await page.getByRole('button', { name: 'Log in' }).click();
    const english = page.getByRole('dialog', { name: 'Log in' });
    await english.getByLabel('Email').fill(pi.email);
    await english.getByLabel('Password').fill('not-the-password-2');
    await english.getByLabel('Password').press('Enter');
    await expect(english.getByRole('alert')).toHaveText('The email or password is incorrect.');
    await screenshot(page, testInfo, 'login-error-en');

    // The right password still works (two failures are below the lockout) and clears the count.
    await english.getByLabel('Password').fill('cdms-demo-2026');
    await english.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByRole('button', { name: pi.name, exact: true })).toBeVisible();
  });
});

test.describe('protected pages and the session', () => {
  test('without a session a protected page asks to log in, then comes back to it after login', async ({
    page,
  }) => {
    // Not the task list, where every login now goes: the page that asked is where the user returns.
    await page.goto('/notice/1');
    const prompt = page.getByRole('alertdialog', { name: '로그인 필요' });
    await expect(prompt).toContainText('로그인이 필요한 화면입니다.');
    await prompt.getByRole('button', { name: '로그인' }).click();
    await expect(page).toHaveURL(/\/$/);
    const login = page.getByRole('dialog', { name: '로그인' });
    await login.getByLabel('이메일').fill(pi.email);
    await login.getByLabel('비밀번호').fill('cdms-demo-2026');
    await login.getByLabel('비밀번호').press('Enter');
    await expect(page).toHaveURL(/\/notice\/1$/);
    await expect(page.getByRole('banner').getByRole('button', { name: `${pi.name} 님` })).toBeVisible();
  });

  test('cancelling the login confirmation goes to the start page', async ({ page }) => {
    await page.goto('/task-end-list');
    await page
      .getByRole('alertdialog', { name: '로그인 필요' })
      .getByRole('button', { name: '취소' })
      .click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page.getByRole('button', { name: '로그인' })).toBeVisible();
  });

  test('an expired session says so and goes back to the start page', async ({
    page,
    context,
    consoleGuard,
  }) => {
    consoleGuard.allowFailedRequest(
      /\/api\//,
      401,
      'the test deletes the session cookie: the calls in flight are refused until the start page',
    );
    await logInAs(page, pi);
    await page.goto('/task-list');
    await expect(page.getByTestId('session-timer')).toBeVisible();

    // The server no longer knows this browser: the next call fails, renewing fails too.
    await context.clearCookies();
    await page.getByRole('button', { name: '연장' }).click();
    const alert = page.getByRole('alertdialog', { name: '로그인 만료' });
    await expect(alert).toContainText('로그인이 만료되었습니다. 다시 로그인해 주세요.');
    await expect(page).toHaveURL(/\/$/);
    await alert.getByRole('button', { name: '확인' }).click();
    await expect(page.getByRole('button', { name: '로그인' })).toBeVisible();
  });

  test('after the session is gone, reloading a page asks for login', async ({ page, context }) => {
    await logInAs(page, pi);
    await page.goto('/task-list');
    await expect(page.getByTestId('session-timer')).toBeVisible();
    await context.clearCookies();
    await page.reload();
    await expect(page.getByRole('alertdialog', { name: '로그인 필요' })).toBeVisible();
  });

  test('the session timer counts down from 50:00 and can be extended', async ({ page }) => {
    await logInAs(page, pi);
    await page.goto('/task-list');
    const timer = page.getByTestId('session-timer');
    await expect(timer).toHaveText(/^(49|50):\d{2}$/);
    const seconds = (text: string | null) => {
      const [minutes, rest] = (text ?? '').split(':').map(Number);
      return (minutes ?? 0) * 60 + (rest ?? 0);
    };
    const first = seconds(await timer.textContent());
    await expect.poll(async () => seconds(await timer.textContent()), { timeout: 5000 }).toBeLessThan(first);

    await page.getByRole('button', { name: '연장' }).click();
    await expect(toast(page, '로그인 시간을 연장했습니다.')).toBeVisible();
    await expect(timer).toHaveText(/^(49:5\d|50:00)$/);
  });
});

test.describe('user popup', () => {
  test('the version popup and the user popup replace each other', async ({ page }) => {
    await logInAs(page, pi);
    await page.goto('/task-list');
    await page.getByRole('button', { name: '버전 정보' }).click();
    const version = page.getByRole('dialog', { name: '버전 정보' });
    await expect(version.getByTestId('product-version')).toHaveText(/^\d+\.\d+\.\d+$/);
    await expect(version).toContainText(/\d{4}-\d{2}-\d{2}/);
    await page
      .getByRole('banner')
      .getByRole('button', { name: `${pi.name} 님` })
      .click();
    await expect(page.getByRole('dialog', { name: '사용자 정보' })).toBeVisible();
    await expect(version).toBeHidden();
  });

  test('the contact number is saved and kept after a reload', async ({ page }, testInfo) => {
    const contact = `010-${String(Date.now()).slice(-4)}-5678`;
    await logInAs(page, cra);
    await page.goto('/task-list');
    let popup = await openUserPopup(page, cra);

    await popup.getByRole('button', { name: '수정' }).click();
    await popup.getByLabel('연락처').fill('call me');
    await popup.getByRole('button', { name: '저장' }).click();
    await expect(popup.getByRole('alert')).toContainText('연락처는 숫자');

    await popup.getByLabel('연락처').fill(contact);
    await popup.getByRole('button', { name: '저장' }).click();
    await expect(toast(page, '연락처를 저장했습니다.')).toBeVisible();
    await expect(popup.getByTestId('account-contact')).toHaveText(contact);
    await screenshot(page, testInfo, 'user-popup-ko');

    await page.reload();
    popup = await openUserPopup(page, cra);
    await expect(popup.getByTestId('account-contact')).toHaveText(contact);

    // Clicking outside closes the popup; open it again in English.
    await page.getByRole('button', { name: 'EN' }).click();
    await page.getByRole('banner').getByRole('button', { name: cra.name, exact: true }).click();
    await expect(page.getByRole('dialog', { name: 'User information' })).toBeVisible();
    await screenshot(page, testInfo, 'user-popup-en');
  });

  test('the notification e-mails are chosen per event and kept', async ({ page }, testInfo) => {
    await logInAs(page, cra);
    await page.goto('/task-list');
    let popup = await openUserPopup(page, cra);
    await popup.getByRole('button', { name: '알림 메일' }).click();
    let dialog = page.getByRole('dialog', { name: '알림 메일 설정' });
    const holds = dialog.getByRole('checkbox', { name: /프리징·잠금/ });
    await expect(holds).toBeChecked();
    await holds.uncheck();
    await screenshot(page, testInfo, 'notification-preferences-ko');
    await dialog.getByRole('button', { name: '저장' }).click();
    await expect(toast(page, '알림 메일 설정을 저장했습니다.')).toBeVisible();
    await expect(dialog).toBeHidden();

    await page.reload();
    popup = await openUserPopup(page, cra);
    await popup.getByRole('button', { name: '알림 메일' }).click();
    dialog = page.getByRole('dialog', { name: '알림 메일 설정' });
    await expect(dialog.getByRole('checkbox', { name: /프리징·잠금/ })).not.toBeChecked();
    await expect(dialog.getByRole('checkbox', { name: /쿼리 답변/ })).toBeChecked();
    // Back on, as the demo has it.
    await dialog.getByRole('checkbox', { name: /프리징·잠금/ }).check();
    await dialog.getByRole('button', { name: '저장' }).click();
    await expect(dialog).toBeHidden();
  });

  test('changing the password checks the rules while typing and shows the server refusal', async ({
    page,
    consoleGuard,
  }, testInfo) => {
    consoleGuard.allowFailedRequest('/api/auth/password', 422, 'a wrong current password, on purpose');
    await logInAs(page, pi);
    await page.goto('/task-list');
    const popup = await openUserPopup(page, pi);
    await popup.getByRole('button', { name: '비밀번호 변경' }).click();
    await expect(popup).toBeHidden();
    const dialog = page.getByRole('dialog', { name: '비밀번호 변경' });
    await dialog.getByLabel('현재 비밀번호').fill('wrong-current-1');
    await dialog.getByLabel('새 비밀번호', { exact: true }).fill('short');
    await expect(dialog.locator('li[data-met="false"]', { hasText: '10자 이상' })).toBeVisible();
    await expect(dialog.getByRole('button', { name: '변경' })).toBeDisabled();
    await dialog.getByLabel('새 비밀번호', { exact: true }).fill('Tympanic-2027');
    await expect(dialog.locator('li[data-met="false"]')).toHaveCount(0);
    await dialog.getByLabel('새 비밀번호 확인').fill('Tympanic-2028');
    await expect(dialog.getByText('새 비밀번호가 서로 일치하지 않습니다.')).toBeVisible();
    await dialog.getByLabel('새 비밀번호 확인').fill('Tympanic-2027');
    await dialog.getByRole('button', { name: '변경' }).click();
    await expect(dialog.getByRole('alert')).toHaveText('현재 비밀번호가 올바르지 않습니다.');
    await screenshot(page, testInfo, 'change-password-ko');
  });
});

test.describe('screenshots', () => {
  test('the landing page signed in, in Korean and English', async ({ page }, testInfo) => {
    await logInAs(page, pi);
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await screenshot(page, testInfo, 'landing-logged-in-ko');
    await page.getByRole('button', { name: `${pi.name} 님` }).click();
    await expect(page.getByRole('menuitem', { name: '계정 설정' })).toBeVisible();
    await screenshot(page, testInfo, 'landing-account-menu-ko');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'EN' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Clinical Data Management System');
    await screenshot(page, testInfo, 'landing-logged-in-en');
  });
});
