import type { Page, TestInfo } from '@playwright/test';
import { generate } from 'otplib';
import { DEMO_PASSWORD } from '../support/auth.ts';
import { expect, test } from '../support/test.ts';

async function screenshot(page: Page, testInfo: TestInfo, name: string) {
  const body = await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });
  await testInfo.attach(name, { body, contentType: 'image/png' });
}

test('a user turns on two-factor sign-in from the user popup, then logs in with password and code', async ({
  page,
}, testInfo) => {
  // A user of this test's own: the demo accounts stay password-only for every other test.
  const admin = await page.request.post('/api/auth/login', {
    data: { email: 'admin@demo.cdms', password: DEMO_PASSWORD },
  });
  const { csrfToken } = await admin.json();
  const email = `e2e.totp.${Date.now()}@hospital.kr`;
  const password = 'Two-factor-2026';
  const created = await page.request.post('/api/admin/users', {
    data: { email, name: '이인증', password, isAdmin: true },
    headers: { 'x-csrf-token': csrfToken },
  });
  expect(created.status(), await created.text()).toBe(201);
  await page.request.post('/api/auth/logout', { headers: { 'x-csrf-token': csrfToken } });

  const logIn = async () => {
    await page.goto('/');
    await page.getByRole('button', { name: '로그인' }).click();
    const dialog = page.getByRole('dialog', { name: '로그인' });
    await dialog.getByLabel('이메일').fill(email);
    await dialog.getByLabel('비밀번호').fill(password);
    await dialog.getByLabel('비밀번호').press('Enter');
    return dialog;
  };
  // Wait for the session before leaving the page: navigating while the login is in flight loses it.
  await expect(await logIn()).toBeHidden();
  await page.goto('/admin/users');
  await page.getByRole('banner').getByRole('button', { name: '이인증 님' }).click();
  await page.getByRole('dialog', { name: '사용자 정보' }).getByRole('button', { name: '2단계 인증' }).click();

  const enrol = page.getByRole('dialog', { name: '2단계 인증' });
  await enrol.getByLabel('현재 비밀번호').fill(password);
  await enrol.getByRole('button', { name: '계속' }).click();
  await expect(enrol.getByRole('img', { name: '인증 앱용 QR 코드' })).toBeVisible();
  const secret = (await enrol.getByTestId('second-factor-secret').textContent())?.trim() ?? '';
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  await screenshot(page, testInfo, 'two-factor-enrol-ko');
  await enrol.getByLabel('앱에 표시된 코드').fill(await generate({ secret }));
  await enrol.getByRole('button', { name: '켜기' }).click();
  await expect(enrol).toBeHidden();
  await expect(page.getByText('2단계 인증이 켜졌습니다.', { exact: true })).toBeVisible();

  await page.getByRole('banner').getByRole('button', { name: '이인증 님' }).click();
  await page.getByRole('dialog', { name: '사용자 정보' }).getByRole('button', { name: '로그아웃' }).click();
  await expect(page).toHaveURL(/\/$/);

  const dialog = await logIn();
  const code = dialog.getByLabel('인증 코드');
  await expect(code).toBeVisible();
  await screenshot(page, testInfo, 'two-factor-login-code-ko');
  // The enrolment used this time step's code: the next step's code is the one not yet used.
  await code.fill(await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 }));
  await dialog.getByRole('button', { name: '확인' }).click();
  await expect(page.getByRole('button', { name: '이인증 님' })).toBeVisible();
});
