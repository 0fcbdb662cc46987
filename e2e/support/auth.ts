import type { Page } from '@playwright/test';
import { expect } from './test.ts';

/** The demo accounts the server seeds on first start (apps/server/src/seed/demo-seed.ts). */
export const DEMO_PASSWORD = 'cdms-demo-2026';

export const demoAccounts = [
  { email: 'admin@demo.cdms', name: '관리자', role: 'ADMIN' },
  { email: 'pi@demo.cdms', name: '김연구', role: 'PI' },
  { email: 'si@demo.cdms', name: '이부연', role: 'SI' },
  { email: 'crc@demo.cdms', name: '박코디', role: 'CRC' },
  { email: 'cra@demo.cdms', name: '최모니', role: 'CRA' },
  { email: 'dm@demo.cdms', name: '정데이', role: 'DM' },
  // Site 03's coordinator (added with the living demo's subjects); last, so the indexes above stay.
  { email: 'crc3@demo.cdms', name: '한코디', role: 'CRC' },
] as const;

export type DemoAccount = (typeof demoAccounts)[number];

/** The first demo account of a role (the living demo has one of each, two coordinators). */
export function demoAccount(role: DemoAccount['role']): DemoAccount {
  const found = demoAccounts.find((candidate) => candidate.role === role);
  if (!found) throw new Error(`no demo account with role ${role}`);
  return found;
}

/** Opens the login dialog on `/` and submits it, as a person would (Korean UI). */
export async function logInFromLanding(page: Page, email: string, password = DEMO_PASSWORD): Promise<void> {
  await page.goto('/');
  await page.getByRole('button', { name: '로그인' }).click();
  const dialog = page.getByRole('dialog', { name: '로그인' });
  await dialog.getByLabel('이메일').fill(email);
  await dialog.getByLabel('비밀번호').fill(password);
  await dialog.getByLabel('비밀번호').press('Enter');
}

/** Logs in through the UI, which goes on to the task list, and waits for the header's account button there. */
export async function logInAs(page: Page, account: { email: string; name: string }): Promise<void> {
  await logInFromLanding(page, account.email);
  await expect(page).toHaveURL(/\/task-list$/);
  await expect(page.getByRole('banner').getByRole('button', { name: `${account.name} 님` })).toBeVisible();
}

/**
 * Signs in through the API, as the login dialog would (the session cookie lands in the page's
 * context): for the checks of pages (accessibility, layout), whose subject is the page and not the
 * way in. The dialog itself, 2FA and logout are tested as a person uses them (auth.spec.ts and the
 * journeys); this saves the landing page and the dialog, 1.5 s a sign-in, on the rest.
 */
export async function signInThroughApi(page: Page, account: { email: string }): Promise<void> {
  const response = await page.request.post('/api/auth/login', {
    data: { email: account.email, password: DEMO_PASSWORD },
  });
  expect(response.status(), await response.text()).toBe(200);
}
