import type { Browser, Page, TestInfo } from '@playwright/test';
import { type DemoAccount, demoAccount, logInAs } from '../support/auth.ts';
import { expect, test } from '../support/test.ts';

/** Study TMP-2026: id 1 in the fresh database the global setup starts. */
const STUDY_ID = 1;

/** A 96×48 PNG of blue and red stripes: small, but big enough to see in a screenshot. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAGAAAAAwCAIAAABhdOiYAAAAZ0lEQVR42u3YMQ0AMAwDwRDpGjjB36FgyiAArJMewU2W68zVUiEABAgQIECAYoFet5YAAQIECBAgQLlApqAlDQgQIECAAPmDZEkDAgQIECBA/iBZ0oAAAQIECJA/SIAAAQIECBCg2D5rmcQ8HPBxrgAAAABJRU5ErkJggg==',
  'base64',
);

/** A fresh browser context (its own session cookie) logged in as `role`. */
async function pageAs(browser: Browser, role: DemoAccount['role']): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await logInAs(page, demoAccount(role));
  return page;
}

async function csrfTokenOf(page: Page): Promise<string> {
  const me = await page.request.get('/api/auth/me');
  return ((await me.json()) as { csrfToken: string }).csrfToken;
}

/** Registers notices through the API with the page's session (for tests that need many rows). */
async function createNotices(
  page: Page,
  titles: string[],
  options: { pinned?: boolean; image?: boolean } = {},
) {
  const csrfToken = await csrfTokenOf(page);
  let imageHtml = '';
  if (options.image) {
    const upload = await page.request.post('/api/uploads/images', {
      headers: { 'x-csrf-token': csrfToken },
      multipart: { upload: { name: 'stripes.png', mimeType: 'image/png', buffer: PNG } },
    });
    expect(upload.status(), await upload.text()).toBe(201);
    imageHtml = `<p><img src="${((await upload.json()) as { imageUrl: string }).imageUrl}"></p>`;
  }
  for (const title of titles) {
    const response = await page.request.post(`/api/studies/${STUDY_ID}/notices`, {
      headers: { 'x-csrf-token': csrfToken },
      data: {
        title,
        contentHtml: `<p><strong>${title}</strong> 본문입니다. 방문 일정과 준비물을 확인하세요.</p>${imageHtml}`,
        pinned: options.pinned ?? false,
        visible: true,
        scope: 'study',
      },
    });
    expect(response.status(), await response.text()).toBe(201);
  }
}

async function switchLanguage(page: Page, language: 'KO' | 'EN') {
  await page.getByRole('button', { name: language, exact: true }).first().click();
}

async function screenshot(page: Page, testInfo: TestInfo, name: string) {
  const body = await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });
  await testInfo.attach(name, { body, contentType: 'image/png' });
}

test.describe('notices', () => {
  test('a CRA writes an important notice with bold text and an image; a PI reads it in Korean and English', async ({
    page,
    browser,
  }) => {
    test.setTimeout(90_000);
    const title = `방문 일정 변경 안내 ${Date.now()}`;

    await logInAs(page, demoAccount('CRA'));
    await page.goto(`/notice/${STUDY_ID}?menu-type=CRA`);
    await expect(page.getByRole('heading', { level: 1, name: '공지사항' })).toBeVisible();
    await page.getByRole('link', { name: '글 등록' }).click();
    await expect(page).toHaveURL(new RegExp(`/notice/register/${STUDY_ID}\\?menu-type=CRA$`));
    await expect(page.getByRole('heading', { level: 1, name: '글 등록' })).toBeVisible();
    await expect(page.getByText(demoAccount('CRA').name, { exact: true })).toBeVisible();

    await page.getByRole('textbox', { name: '제목', exact: true }).fill(title);
    const editor = page.getByRole('textbox', { name: '내용' });
    await editor.click();
    await page.getByRole('button', { name: '굵게' }).click();
    await editor.pressSequentially('굵은 글씨 공지');
    await page.getByRole('button', { name: '굵게' }).click();
    await editor.press('Enter');
    await editor.pressSequentially('일반 문단입니다.');
    await page
      .getByLabel('이미지 파일 선택')
      .setInputFiles({ name: 'stripes.png', mimeType: 'image/png', buffer: PNG });
    await expect(editor.locator('img[src^="/api/uploads/images/"]')).toBeVisible();
    await page.getByRole('radio', { name: '중요', exact: true }).check();
    await page.getByRole('radio', { name: '공개', exact: true }).check();
    await page.getByRole('button', { name: '등록', exact: true }).click();

    await expect(page).toHaveURL(new RegExp(`/notice/detail/${STUDY_ID}\\?notice-pk=\\d+&menu-type=CRA$`));
    await expect(page.getByText('공지가 등록되었습니다.', { exact: true })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: title })).toBeVisible();
    // Writers get the actions.
    await expect(page.getByRole('button', { name: '중요 해제' })).toBeVisible();

    // The PI, in their own browser: first in the list, marked important, no register button.
    const pi = await pageAs(browser, 'PI');
    await pi.goto(`/notice/${STUDY_ID}`);
    const firstRow = pi.getByRole('row').nth(1);
    await expect(firstRow).toContainText(title);
    await expect(firstRow).toContainText('중요');
    await expect(firstRow).toContainText(demoAccount('CRA').name);
    await expect(firstRow.getByRole('cell').nth(3)).toHaveText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    await expect(pi.getByRole('link', { name: '글 등록' })).toHaveCount(0);

    await firstRow.getByRole('link', { name: title }).click();
    await expect(pi.getByRole('heading', { level: 2, name: title })).toBeVisible();
    const content = pi.locator('article');
    await expect(content.locator('strong', { hasText: '굵은 글씨 공지' })).toBeVisible();
    const image = content.locator('img[src^="/api/uploads/images/"]');
    await expect(image).toBeVisible();
    await expect
      .poll(() => image.evaluate((element) => (element as unknown as { naturalWidth: number }).naturalWidth))
      .toBe(96);
    await expect(pi.getByRole('button', { name: '삭제' })).toHaveCount(0);

    // The header strip and the dashboard panel show it too, marked important, with its time in UTC+9.
    await pi.goto(`/dashboard/${STUDY_ID}`);
    await expect(pi.getByRole('region', { name: '최신 공지' })).toContainText(title);
    const panel = pi.getByRole('region', { name: '공지사항' });
    const panelItem = panel.getByRole('listitem').first();
    await expect(panelItem).toContainText(title);
    await expect(panelItem).toContainText('중요');
    await expect(panelItem).toContainText(/\d{4}-\d{2}-\d{2} \d{2}:\d{2} \(UTC\+9\)/);
    await panel.getByRole('link', { name: '공지사항 더보기' }).click();
    await expect(pi).toHaveURL(new RegExp(`/notice/${STUDY_ID}(\\?|$)`));
    await pi.getByRole('row').nth(1).getByRole('link', { name: title }).click();
    await expect(pi.getByRole('heading', { level: 2, name: title })).toBeVisible();

    // The same in English.
    await switchLanguage(pi, 'EN');
    await expect(pi.getByRole('heading', { level: 1, name: 'Notices' })).toBeVisible();
    await expect(content.getByText('Important', { exact: true })).toBeVisible();
    await expect(content.locator('strong', { hasText: '굵은 글씨 공지' })).toBeVisible();
    await expect(pi.getByRole('region', { name: 'Latest notice' })).toContainText(title);
    await pi.getByRole('link', { name: 'Back to list' }).click();
    await expect(pi.getByRole('columnheader', { name: 'Title' })).toBeVisible();
    await expect(pi.getByRole('row').nth(1)).toContainText('Important');
    await expect(pi.getByRole('row').nth(1)).toContainText(title);
    await expect(pi.getByRole('link', { name: 'Register notice' })).toHaveCount(0);
    await switchLanguage(pi, 'KO');
    await pi.context().close();
  });

  test('the register form asks for a title and content, and refuses files that are not images', async ({
    page,
    consoleGuard,
  }) => {
    consoleGuard.allowFailedRequest('/api/uploads/images', 415, 'a file that is not an image, on purpose');
    await logInAs(page, demoAccount('CRA'));
    await page.goto(`/notice/register/${STUDY_ID}`);
    const editor = page.getByRole('textbox', { name: '내용' });
    await expect(editor).toBeVisible();

    const alert = page.getByRole('alertdialog');
    await page.getByRole('button', { name: '등록', exact: true }).click();
    await expect(alert).toContainText('제목을 입력하세요.');
    await alert.getByRole('button', { name: '확인' }).click();
    await expect(alert).toBeHidden();

    // Spaces only are no title either.
    await page.getByRole('textbox', { name: '제목', exact: true }).fill('   ');
    await page.getByRole('button', { name: '등록', exact: true }).click();
    await expect(alert).toContainText('제목을 입력하세요.');
    await alert.getByRole('button', { name: '확인' }).click();

    await page.getByRole('textbox', { name: '제목', exact: true }).fill('내용 없는 공지');
    await editor.click();
    await editor.pressSequentially('   ');
    await page.getByRole('button', { name: '등록', exact: true }).click();
    await expect(alert).toContainText('내용을 입력하세요.');
    await alert.getByRole('button', { name: '확인' }).click();

    // A text file is refused before it is sent; one that only claims to be a PNG, by the server.
    const fileInput = page.getByLabel('이미지 파일 선택');
    await fileInput.setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('hello'),
    });
    await expect(alert).toContainText('이미지 업로드에 실패했습니다.');
    await alert.getByRole('button', { name: '확인' }).click();
    await fileInput.setInputFiles({
      name: 'fake.png',
      mimeType: 'image/png',
      buffer: Buffer.from('not a png'),
    });
    await expect(alert).toContainText('이미지 업로드에 실패했습니다.');
    await alert.getByRole('button', { name: '확인' }).click();
    await expect(editor.locator('img')).toHaveCount(0);

    // Cancel goes back.
    await page.getByRole('button', { name: '취소', exact: true }).click();
    await expect(page).not.toHaveURL(/\/notice\/register/);
  });

  test('filters, page and page size live in the URL and survive a reload', async ({ page }) => {
    test.setTimeout(60_000);
    await logInAs(page, demoAccount('DM'));
    const tag = `필터시험${Date.now()}`;
    await createNotices(
      page,
      Array.from({ length: 12 }, (_, index) => `${tag} ${String(index + 1).padStart(2, '0')}`),
    );

    await page.goto(`/notice/${STUDY_ID}?menu-type=CRA`);
    await page.getByRole('button', { name: '3개월' }).click();
    await expect(page.getByRole('button', { name: '3개월' })).toHaveAttribute('aria-pressed', 'true');
    await page.getByLabel('검색어').fill(tag);
    await page.getByRole('button', { name: '검색', exact: true }).click();
    await expect(page).toHaveURL(/range=3/);
    await expect(page).toHaveURL(/start=\d{4}-\d{2}-\d{2}&end=\d{4}-\d{2}-\d{2}/);
    await expect(page.getByText('전체 12건')).toBeVisible();
    await expect(page.getByRole('row')).toHaveCount(11); // header + 10

    // Page 2 of 2, then reload.
    await page.getByRole('button', { name: '2 페이지' }).click();
    await expect(page).toHaveURL(/page=2/);
    await expect(page.getByRole('row')).toHaveCount(3);
    await expect(page.getByRole('button', { name: '다음 페이지' })).toBeDisabled();
    await expect(page.getByRole('button', { name: '마지막 페이지' })).toBeDisabled();
    await page.reload();
    await expect(page.getByRole('button', { name: '2 페이지' })).toHaveAttribute('aria-current', 'page');
    await expect(page.getByRole('row')).toHaveCount(3);
    await expect(page.getByLabel('검색어')).toHaveValue(tag);
    await expect(page.getByRole('button', { name: '3개월' })).toHaveAttribute('aria-pressed', 'true');

    // A bigger page starts again on page 1 and needs no pager.
    await page.getByLabel('페이지당 행 수').selectOption('20');
    await expect(page).toHaveURL(/size=20/);
    await expect(page).not.toHaveURL(/page=/);
    await expect(page.getByRole('row')).toHaveCount(13);
    await expect(page.getByRole('navigation', { name: '페이지 이동' })).toHaveCount(0);
    await page.reload();
    await expect(page.getByLabel('페이지당 행 수')).toHaveValue('20');
    await expect(page.getByRole('row')).toHaveCount(13);
    await expect(page).toHaveURL(/menu-type=CRA/);

    // A page beyond the last is corrected; "all" clears the dates.
    await page.goto(`/notice/${STUDY_ID}?search=${encodeURIComponent(tag)}&page=9`);
    await expect(page).toHaveURL(/page=2/);
    await page.getByRole('button', { name: '전체', exact: true }).click();
    await page.getByRole('button', { name: '검색', exact: true }).click();
    await expect(page).not.toHaveURL(/start=|end=|range=/);

    // Dates are typed as YYYY-MM-DD in any language (digits are formatted as they come); a day that
    // does not exist stays marked and is not searched for.
    const start = page.getByRole('textbox', { name: '시작일' });
    await start.pressSequentially('20260230');
    await expect(start).toHaveValue('2026-02-30');
    await expect(start).toHaveAttribute('aria-invalid', 'true');
    await start.fill('');
    await start.pressSequentially('20260101');
    await expect(start).toHaveValue('2026-01-01');
    await expect(start).not.toHaveAttribute('aria-invalid');
    await expect(page.getByRole('button', { name: '달력 열기: 시작일' })).toBeVisible();
    await page.getByRole('button', { name: '검색', exact: true }).click();
    await expect(page).toHaveURL(/start=2026-01-01/);
    await expect(page.getByText('전체 12건')).toBeVisible();

    // A search without matches shows the empty-table message.
    await page.getByLabel('검색어').fill(`${tag}-없음`);
    await page.getByRole('button', { name: '검색', exact: true }).click();
    await expect(page.getByRole('cell', { name: '데이터가 없습니다.' })).toBeVisible();
  });

  test('a writer edits, hides, shows and deletes a notice', async ({ page }) => {
    test.setTimeout(60_000);
    await logInAs(page, demoAccount('CRA'));
    const title = `수정 시험 ${Date.now()}`;
    await createNotices(page, [title]);
    await page.goto(`/notice/${STUDY_ID}?search=${encodeURIComponent(title)}`);
    await page.getByRole('table').getByRole('link', { name: title }).click();

    await page.getByRole('link', { name: '수정', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: '글 수정' })).toBeVisible();
    const titleInput = page.getByRole('textbox', { name: '제목', exact: true });
    await expect(titleInput).toHaveValue(title);
    await titleInput.fill(`${title} (수정됨)`);
    await page.getByRole('button', { name: '저장' }).click();
    await expect(page.getByText('공지가 수정되었습니다.', { exact: true })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: `${title} (수정됨)` })).toBeVisible();

    await page.getByRole('button', { name: '숨기기' }).click();
    await expect(page.locator('article').getByText('숨김', { exact: true })).toBeVisible();
    await page.getByRole('button', { name: '보이기' }).click();
    await expect(page.locator('article').getByText('숨김', { exact: true })).toHaveCount(0);

    await page.getByRole('button', { name: '삭제', exact: true }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: '삭제', exact: true }).click();
    await expect(page.getByText('공지가 삭제되었습니다.', { exact: true })).toBeVisible();
    // Back on the list it came from (the search kept), now without it.
    await expect(page).toHaveURL(/\/notice\/1\?search=/);
    await expect(page.getByRole('cell', { name: '데이터가 없습니다.' })).toBeVisible();
  });

  test('screenshots of the list, detail and register pages in Korean and English', async ({
    page,
  }, testInfo) => {
    test.setTimeout(120_000);
    await logInAs(page, demoAccount('CRA'));
    await createNotices(page, ['2026년 11월 모니터링 방문 일정']);
    await createNotices(page, ['IRB 승인 변경 안내 (중요)'], { pinned: true, image: true });
    for (const width of [1440, 1000]) {
      await page.setViewportSize({ width, height: 900 });
      for (const language of ['KO', 'EN'] as const) {
        await page.goto(`/notice/${STUDY_ID}?menu-type=CRA`);
        await switchLanguage(page, language);
        await expect(page.getByRole('row').nth(1)).toBeVisible();
        await screenshot(page, testInfo, `list-${language.toLowerCase()}-${width}`);

        await page.getByRole('row').nth(1).getByRole('link').click();
        await expect(page.locator('article h2')).toBeVisible();
        await expect(page.locator('article img').first()).toBeVisible();
        await screenshot(page, testInfo, `detail-${language.toLowerCase()}-${width}`);

        // The header strip and the dashboard panel, composed by the study shell.
        await page.goto(`/dashboard/${STUDY_ID}?menu-type=CRA`);
        await expect(
          page.getByRole('region', { name: language === 'KO' ? '공지사항' : 'Notices' }),
        ).toBeVisible();
        await screenshot(page, testInfo, `dashboard-${language.toLowerCase()}-${width}`);

        await page.goto(`/notice/register/${STUDY_ID}?menu-type=CRA`);
        await expect(page.getByRole('toolbar')).toBeVisible();
        await screenshot(page, testInfo, `register-${language.toLowerCase()}-${width}`);
      }
    }
    await switchLanguage(page, 'KO');
  });
});
