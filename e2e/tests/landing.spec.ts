import { expect, test } from '../support/test.ts';

test.describe('landing page', () => {
  test('shows the Korean title by default', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('임상 데이터 관리 시스템');
    await expect(page.locator('html')).toHaveAttribute('lang', 'ko');
    await expect(page.getByRole('link', { name: '시작하기' })).toBeVisible();
  });

  test('switches to English, and the choice survives a reload', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'EN' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Clinical Data Management System');
    await expect(page.getByRole('link', { name: /Get started/ })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Clinical Data Management System');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await page.getByRole('button', { name: 'KO' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('임상 데이터 관리 시스템');
  });

  test('the start button leads to the task list', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('link', { name: '시작하기' }).click();
    await expect(page).toHaveURL(/\/task-list$/);
  });

  test('a screenshot of / is saved as a test artifact', async ({ page }, testInfo) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const screenshot = await page.screenshot({ path: testInfo.outputPath('landing-ko.png'), fullPage: true });
    await testInfo.attach('landing-ko', { body: screenshot, contentType: 'image/png' });
    await page.getByRole('button', { name: 'EN' }).click();
    await page.screenshot({ path: testInfo.outputPath('landing-en.png'), fullPage: true });
  });
});

test.describe('unknown pages', () => {
  test('/no-such-page lands on /404', async ({ page }) => {
    await page.goto('/no-such-page');
    await expect(page).toHaveURL(/\/404$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('404 Not Found');
    await expect(page.getByText('요청하신 페이지를 찾을 수 없습니다')).toBeVisible();
  });

  test('an unknown API path answers JSON, not the app', async ({ request }) => {
    const response = await request.get('/api/no-such-endpoint');
    expect(response.status()).toBe(404);
    expect((await response.json()).error.code).toBe('route_not_found');
  });
});
