import type { Page } from '@playwright/test';
import { logInAs, signInThroughApi } from '../support/auth.ts';
import { waitForQuietNetwork } from '../support/network.ts';
import { expect, test } from '../support/test.ts';

// Review listings and bulk queries (issue 50 item 4): the coordinator of site 02 saves a subject's
// vital signs; the monitor opens the vital signs' review listing, hides a column, marks the row
// reviewed, picks two cells and raises a query on each with one text; the coordinator finds both in
// the query list. Screenshots of the page in Korean and English at 1440 and 1000 px go to the test's
// artifacts (never into git).

const STUDY_ID = 1;
const crc = { email: 'crc@demo.cdms', name: '박코디', role: 'CRC' } as const;
const cra = { email: 'cra@demo.cdms', name: '최모니', role: 'CRA' } as const;

function koreanDate(daysAgo: number): string {
  return new Date(Date.now() + 9 * 3600_000 - daysAgo * 86_400_000).toISOString().slice(0, 10);
}

async function csrfOf(page: Page): Promise<string> {
  return ((await (await page.request.get('/api/auth/me')).json()) as { csrfToken: string }).csrfToken;
}

test('a monitor reviews a form across subjects and raises two queries with one text', async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(120_000);
  // The coordinator registers a subject at site 02 and saves its V1 vital signs (through the API).
  await signInThroughApi(page, crc);
  const me = await (await page.request.get('/api/auth/me')).json();
  const siteId = me.memberships.find((m: { studyId: number }) => m.studyId === STUDY_ID).sites[0].id;
  const csrf = await csrfOf(page);
  const created = await page.request.post(`/api/studies/${STUDY_ID}/subjects`, {
    headers: { 'X-CSRF-Token': csrf },
    data: { siteId, consentDate: koreanDate(3), initials: 'RV' },
  });
  expect(created.status(), await created.text()).toBe(201);
  const subject = (await created.json()) as { id: number; subjectId: string };
  const saved = await page.request.put(
    `/api/studies/${STUDY_ID}/subjects/${subject.id}/forms/v1/vitalSigns`,
    {
      headers: { 'X-CSRF-Token': csrf },
      data: { values: { heartRate: 88, bodyTemperature: 36.6, opinion: 'No remark' }, version: 0 },
    },
  );
  expect(saved.status(), await saved.text()).toBe(200);

  // The monitor opens the listing from the menu, then narrows it to the subject.
  const monitor = await browser.newPage();
  await logInAs(monitor, cra);
  await monitor.goto(`/dashboard/${STUDY_ID}?menu-type=CRA`);
  await monitor.getByRole('link', { name: '검토 목록' }).click();
  await expect(monitor.getByRole('heading', { name: '검토 목록', level: 1 })).toBeVisible();
  await monitor.getByLabel('양식', { exact: true }).selectOption('vitalSigns');
  await monitor.getByLabel('스크리닝 번호', { exact: true }).fill(subject.subjectId);
  await monitor.getByRole('button', { name: '검색', exact: true }).click();
  const row = monitor.getByRole('row').filter({ hasText: subject.subjectId });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('검토 안 함');

  // A column hidden stays hidden.
  await monitor.getByRole('button', { name: /표시할 열/ }).click();
  await monitor.getByRole('checkbox', { name: /^(소견|비고)$/ }).uncheck();
  await monitor.keyboard.press('Escape');
  await expect(monitor.getByRole('columnheader', { name: /^(소견|비고)$/ })).toHaveCount(0);
  await expect(monitor.getByRole('button', { name: /표시할 열 \(1개 숨김\)/ })).toBeVisible();

  // The row marked reviewed.
  await row.getByRole('checkbox').check();
  await monitor.getByRole('button', { name: '검토 완료 표시' }).click();
  await expect(row).toContainText('검토함');

  // Two cells picked (the second by keyboard) and one query raised on each.
  await row.getByRole('button', { name: /의 맥박/ }).click();
  const temperature = row.getByRole('button', { name: /의 체온/ });
  await temperature.focus();
  await monitor.keyboard.press('Space');
  await expect(temperature).toHaveAttribute('aria-pressed', 'true');
  await monitor.getByRole('button', { name: '쿼리 발행', exact: true }).click();
  const dialog = monitor.getByRole('dialog', { name: '쿼리 2건 발행' });
  await expect(dialog.getByRole('listitem')).toHaveCount(2);
  await dialog.getByRole('textbox').fill('원자료(진료기록)와 다릅니다. 확인 부탁드립니다.');
  await dialog.getByRole('button', { name: '쿼리 2건 발행' }).click();
  await expect(monitor.getByText('쿼리 2건을 발행했습니다.', { exact: true })).toBeVisible();

  // Screenshots in both languages at both widths (artifacts only).
  for (const language of ['ko', 'en'] as const) {
    await monitor.evaluate((value) => window.localStorage.setItem('cdms.language', value), language);
    for (const width of [1440, 1000]) {
      await monitor.setViewportSize({ width, height: 900 });
      await monitor.goto(`/review/${STUDY_ID}?table=vitalSigns&menu-type=CRA`);
      await expect(monitor.getByRole('row').nth(2)).toBeVisible();
      await waitForQuietNetwork(monitor);
      await monitor.screenshot({ path: testInfo.outputPath(`review-listing-${language}-${width}.png`) });
    }
  }
  await monitor.evaluate(() => window.localStorage.setItem('cdms.language', 'ko'));
  await monitor.close();

  // The coordinator finds both queries in the query list.
  await page.goto(`/query/${STUDY_ID}?subject=${encodeURIComponent(subject.subjectId)}`);
  const queries = page.getByRole('row').filter({ hasText: subject.subjectId });
  await expect(queries).toHaveCount(2);
  await expect(queries.filter({ hasText: '맥박' })).toHaveCount(1);
  await expect(queries.filter({ hasText: '체온' })).toHaveCount(1);
});
