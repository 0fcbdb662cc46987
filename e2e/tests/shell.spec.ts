import type { Page } from '@playwright/test';
import { demoAccount, logInAs } from '../support/auth.ts';
import { expect, test } from '../support/test.ts';

const pi = demoAccount('PI');
const cra = demoAccount('CRA');

function studyCard(page: Page, code: string) {
  return page.getByTestId('study-card').filter({ hasText: code });
}

function sideMenu(page: Page) {
  return page.getByRole('navigation', { name: '주 메뉴' });
}

/** Opens the study's dashboard the way a person does: hover the card, press their role's button. */
async function openFromCard(page: Page, code: string, buttonName: string) {
  await page.goto('/task-list');
  const card = studyCard(page, code);
  await card.hover();
  await card.getByRole('link', { name: buttonName }).click();
  await expect(page).toHaveURL(/\/dashboard\/\d+/);
}

test.describe('task lists and the study shell', () => {
  test('a PI switches card and list views, opens the study as PI and sees the PI menu only', async ({
    page,
  }) => {
    await logInAs(page, pi);
    await page.goto('/task-list');
    const card = studyCard(page, 'TMP-2026');
    await expect(card).toBeVisible();

    // The list view is kept in the URL and survives a reload.
    await page.getByRole('button', { name: '목록', exact: true }).click();
    await expect(page).toHaveURL(/[?&]view=list/);
    await page.reload();
    await expect(page.getByTestId('study-row').filter({ hasText: 'TMP-2026' })).toBeVisible();
    await expect(page.getByRole('button', { name: '목록', exact: true })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await page.getByRole('button', { name: '카드', exact: true }).click();
    await expect(card).toBeVisible();

    // The approach button replaces the excerpt on hover only.
    const openAsPi = card.getByRole('link', { name: 'PI로 열기' });
    await expect(openAsPi).toBeHidden();
    await card.hover();
    await expect(openAsPi).toBeVisible();
    await expect(card.getByRole('link', { name: 'CRA로 열기' })).toHaveCount(0);
    await openAsPi.click();
    await expect(page).toHaveURL(/\/dashboard\/\d+\?type=PI$/);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('만성 고막 천공');
    // Row 1's second card is central monitoring (issue 50), in place of the prototype's AI panel.
    await expect(page.getByRole('heading', { level: 2, name: '중앙 모니터링' })).toBeVisible();

    const menu = sideMenu(page);
    await expect(menu.getByRole('link', { name: '대상자 목록' })).toBeVisible();
    await expect(menu.getByRole('link', { name: '가이드라인' })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'SDV' })).toHaveCount(0);

    // Asking for the CRA menu in the URL does not give it to a PI.
    const url = new URL(page.url());
    url.searchParams.set('type', 'CRA');
    await page.goto(`${url.pathname}${url.search}`);
    await expect(menu.getByRole('link', { name: '공지사항' })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'SDV' })).toHaveCount(0);
    await expect(menu.getByRole('link', { name: '쿼리' })).toHaveCount(0);

    // The visit shows in the recently viewed strip.
    await page.goto('/task-list');
    await expect(page.getByTestId('recent-studies')).toContainText('TMP-2026');
  });

  test('a CRA gets the CRA menu, and the folded menu shows its submenus in a flyout', async ({ page }) => {
    await logInAs(page, cra);
    await openFromCard(page, 'TMP-2026', 'CRA로 열기');
    const menu = sideMenu(page);
    await expect(menu.getByRole('link', { name: 'SDV' })).toBeVisible();
    await expect(menu.getByRole('link', { name: '프리징' })).toBeVisible();

    // The CRA's pages open inside the shell, keeping the menu type.
    await menu.getByRole('link', { name: 'SDV' }).click();
    await expect(page).toHaveURL(/\/sdv\/\d+\?menu-type=CRA/);
    await expect(page.getByRole('heading', { name: 'SDV', level: 1 })).toBeVisible();
    await menu.getByRole('link', { name: '알림 로그', exact: true }).click();
    await expect(page).toHaveURL(/\/alarm-log\/\d+\?menu-type=CRA/);
    await expect(page.getByRole('heading', { name: '알림 로그', level: 1 })).toBeVisible();

    await page.getByRole('button', { name: '메뉴 접기' }).click();
    const flyout = page.getByTestId('flyout-dashboard');
    await expect(flyout).toBeHidden();
    await menu.locator('[data-menu-key="dashboard"]').hover();
    await expect(flyout.getByRole('link', { name: '대상자 알림' })).toBeVisible();
    await flyout.getByRole('link', { name: '대상자 알림' }).click();
    await expect(page).toHaveURL(/\/task-alarm\/\d+/);
    await page.getByRole('button', { name: '메뉴 펼치기' }).click();
    await expect(menu.getByRole('link', { name: '대상자 알림' })).toBeVisible();
  });

  test('the support popup shows the configured contact; the subject-info popup shows no invented numbers', async ({
    page,
  }) => {
    await logInAs(page, pi);
    await openFromCard(page, 'TMP-2026', 'PI로 열기');
    const header = page.getByRole('banner');
    await header.getByRole('button', { name: '고객 지원' }).click();
    const support = page.getByRole('dialog', { name: '고객 지원' });
    await expect(support.getByRole('link', { name: /@/ })).toHaveAttribute('href', /^mailto:/);
    await header.getByRole('button', { name: '대상자 정보' }).click();
    const info = page.getByRole('dialog', { name: '대상자 정보' });
    await expect(info).toContainText('미해결 쿼리');
    await expect(info).toContainText('시험책임자');
    await expect(support).toBeHidden();
  });

  test('the ended list shows OME-2024 without hover actions', async ({ page }) => {
    await logInAs(page, pi);
    await page.goto('/task-end-list');
    const card = studyCard(page, 'OME-2024');
    await expect(card).toBeVisible();
    await card.hover();
    await expect(card.getByRole('link', { name: /로 열기$/ })).toHaveCount(0);
    await expect(studyCard(page, 'TMP-2026')).toHaveCount(0);
  });

  test('the header search filters the list through the server', async ({ page }) => {
    await logInAs(page, pi);
    await page.goto('/task-list');
    await expect(studyCard(page, 'TMP-2026')).toBeVisible();
    await page.getByRole('button', { name: '과제 검색' }).click();
    const box = page.getByRole('searchbox', { name: '과제 검색어' });
    await box.fill('존재하지 않는 과제');
    await expect(page).toHaveURL(/[?&]search=/);
    await expect(page.getByText('‘존재하지 않는 과제’에 해당하는 과제가 없습니다.')).toBeVisible();
    await expect(studyCard(page, 'TMP-2026')).toHaveCount(0);
    await box.fill('고막');
    await expect(studyCard(page, 'TMP-2026')).toBeVisible();
    await page.reload();
    await expect(page.getByRole('searchbox', { name: '과제 검색어' })).toHaveValue('고막');
    await expect(studyCard(page, 'TMP-2026')).toBeVisible();
  });

  test('a study the user is not a member of gets a clear not-found page', async ({ page }) => {
    await logInAs(page, pi);
    await page.goto('/dashboard/987654');
    await expect(page.getByRole('heading', { name: '연구를 찾을 수 없습니다' })).toBeVisible();
    await page.getByRole('link', { name: '과제 목록으로', exact: true }).click();
    await expect(page).toHaveURL(/\/task-list$/);
  });
});
