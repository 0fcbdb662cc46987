import type { Page, TestInfo } from '@playwright/test';
import { logInAs } from '../support/auth.ts';
import { axeViolations } from '../support/axe.ts';
import { expect, test } from '../support/test.ts';

// Unscheduled visits (issue 19 item 1): a CRC adds one from the overview with a date and a reason, saves
// vital signs in it, sees it as its own column among the scheduled visits, and deletes an empty second one
// with a reason. No axe violation on the overview or in the dialog. Screenshots of the overview with the
// column and of the add dialog in ko and en at 1440 and 1000px attached.

const STUDY_ID = 1;
const crc = { email: 'crc@demo.cdms', name: '박코디', role: 'CRC' } as const;

/** A day in Korea (UTC+9) `daysAgo` days before today, as YYYY-MM-DD. */
function koreanDate(daysAgo: number): string {
  return new Date(Date.now() + 9 * 3600_000 - daysAgo * 86_400_000).toISOString().slice(0, 10);
}

async function screenshot(page: Page, testInfo: TestInfo, name: string) {
  const body = await page.screenshot({ path: testInfo.outputPath(`${name}.png`) });
  await testInfo.attach(name, { body, contentType: 'image/png' });
}

/** The toasts of the last actions have left (they stay 3 s). */
async function toastsGone(page: Page) {
  await expect(page.locator('li[data-state="open"]')).toHaveCount(0, { timeout: 15_000 });
}

async function switchLanguage(page: Page, language: 'KO' | 'EN') {
  await page.getByRole('button', { name: language, exact: true }).first().click();
}

test('a CRC adds an unscheduled visit, saves vital signs in it and deletes an empty one with a reason', async ({
  page,
}, testInfo) => {
  test.setTimeout(180_000);
  const consentDate = koreanDate(4);
  const firstDate = koreanDate(2);
  const secondDate = koreanDate(1);
  await logInAs(page, crc);

  // A subject of the CRC's site, registered as a person does.
  await page.goto(`/subject-list/${STUDY_ID}`);
  await page.getByRole('button', { name: '+ 대상자 추가' }).click();
  const addSubject = page.getByRole('dialog', { name: '대상자 추가' });
  await addSubject.getByLabel('동의서 서명일').fill(consentDate);
  await addSubject.getByLabel('이니셜').fill('UV');
  await addSubject.getByRole('button', { name: '등록' }).click();
  await expect(addSubject.getByTestId('screening-number')).toHaveText(/^S\d+-\d{3}$/);
  await addSubject.getByRole('button', { name: '대상자 열기' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'eCRF 현황' })).toBeVisible();
  await expect(page.locator('[data-unscheduled]')).toHaveCount(0);

  // The add dialog checks the date and the reason before sending.
  await page.getByRole('button', { name: '+ 방문 추가' }).click();
  const addVisit = page.getByRole('dialog', { name: '비정기 방문 추가' });
  await addVisit.getByLabel('방문일').fill(koreanDate(-2));
  await addVisit.getByRole('button', { name: '추가', exact: true }).click();
  await expect(addVisit.getByText(/오늘\(.+\) 이후일 수 없습니다/)).toBeVisible();
  await expect(addVisit.getByText('방문 사유를 입력하세요.')).toBeVisible();
  await addVisit.getByLabel('방문일').fill(firstDate);
  await addVisit.getByLabel('방문 사유').fill('귀 통증과 분비물');
  expect(await axeViolations(page)).toEqual([]);
  for (const width of [1440, 1000]) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(page, testInfo, `add-dialog-ko-${width}`);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  const added = page.waitForResponse(
    (response) => response.request().method() === 'POST' && /unscheduled-visits$/.test(response.url()),
  );
  await addVisit.getByRole('button', { name: '추가', exact: true }).click();
  expect((await added).status()).toBe(201);
  await expect(addVisit).toBeHidden();
  const firstHead = page.getByRole('columnheader', { name: new RegExp(`비정기 방문 1 · ${firstDate}`) });
  await expect(firstHead).toBeVisible();

  // Its vital signs, entered like any visit's.
  await page.getByRole('link', { name: '비정기 방문 1 · 활력 징후: 미입력' }).click();
  await expect(page).toHaveURL(/depth-1=unscheduled-1&depth-2=vitalSigns/);
  const vitals = page.locator('[data-form="vitalSigns"]');
  await vitals.getByLabel(/수축기 혈압/).fill('118');
  await vitals.getByLabel(/이완기 혈압/).fill('76');
  await vitals.getByLabel(/맥박/).fill('72');
  await vitals.getByLabel(/체온/).fill('36.8');
  await vitals
    .getByRole('radiogroup', { name: /결과/ })
    .getByRole('radio', { name: '정상', exact: true })
    .check();
  await page.getByRole('button', { name: '저장', exact: true }).click();
  await expect(page.getByText('저장했습니다.', { exact: true }).first()).toBeVisible();

  // Back on the board: its column between the scheduled visits, the saved form complete; a visit with
  // data offers no delete.
  await page.getByRole('link', { name: 'eCRF 현황판' }).click();
  await expect(page.getByRole('link', { name: /비정기 방문 1 · 활력 징후: (완료|입력 중)/ })).toBeVisible();
  await expect(page.getByRole('button', { name: '비정기 방문 1 삭제' })).toHaveCount(0);
  const heads = await page.getByRole('columnheader').allTextContents();
  const position = heads.findIndex((text) => text.startsWith('비정기 방문 1'));
  expect(position).toBeGreaterThan(heads.indexOf('동의/스크리닝 번호 부여'));
  expect(position).toBeLessThan(heads.indexOf('전체'));

  // A second, empty one, deleted with a reason.
  await page.getByRole('button', { name: '+ 방문 추가' }).click();
  await addVisit.getByLabel('방문일').fill(secondDate);
  await addVisit.getByLabel('방문 사유').fill('잘못 추가함');
  await addVisit.getByRole('button', { name: '추가', exact: true }).click();
  await expect(addVisit).toBeHidden();
  await expect(
    page.getByRole('columnheader', { name: new RegExp(`비정기 방문 2 · ${secondDate}`) }),
  ).toBeVisible();
  // The columns (with a delete button in a header) pass axe like the rest of the overview; the toasts
  // (Radix's focus sentinels beside them) gone first, as on the other pages' checks.
  await toastsGone(page);
  expect(await axeViolations(page)).toEqual([]);
  for (const width of [1440, 1000]) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(page, testInfo, `overview-ko-${width}`);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  // On a form of the first, the rail lists the subject's other unscheduled visit too.
  await page.getByRole('link', { name: /비정기 방문 1 · 활력 징후/ }).click();
  const rail = page.getByRole('navigation', { name: '방문과 양식' });
  await expect(rail.getByRole('button', { name: '비정기 방문 1' })).toBeVisible();
  await expect(rail.getByRole('button', { name: '비정기 방문 2' })).toBeVisible();
  await page.getByRole('link', { name: 'eCRF 현황판' }).click();
  await page.getByRole('button', { name: '비정기 방문 2 삭제' }).click();
  const deleteDialog = page.getByRole('dialog', { name: '비정기 방문 삭제' });
  await deleteDialog.getByRole('button', { name: '삭제', exact: true }).click();
  await expect(deleteDialog).toBeVisible(); // no reason, nothing sent
  await deleteDialog.getByLabel('삭제 사유').fill('다른 대상자에 추가할 방문이었음');
  const deleted = page.waitForResponse((response) => response.request().method() === 'DELETE');
  await deleteDialog.getByRole('button', { name: '삭제', exact: true }).click();
  expect((await deleted).status()).toBe(204);
  await expect(deleteDialog).toBeHidden();
  await expect(page.getByRole('columnheader', { name: /비정기 방문 2/ })).toHaveCount(0);
  await expect(firstHead).toBeVisible();

  // English: the same column and the add dialog.
  await switchLanguage(page, 'EN');
  await expect(
    page.getByRole('columnheader', { name: new RegExp(`Unscheduled visit 1 · ${firstDate}`) }),
  ).toBeVisible();
  await toastsGone(page);
  for (const width of [1440, 1000]) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(page, testInfo, `overview-en-${width}`);
  }
  await page.getByRole('button', { name: '+ Add visit' }).click();
  const addEn = page.getByRole('dialog', { name: 'Add unscheduled visit' });
  await addEn.getByLabel('Visit date').fill(consentDate.replace(/\d{2}$/, '00'));
  await addEn.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(addEn.getByText('Enter the visit date as a real date, YYYY-MM-DD.')).toBeVisible();
  for (const width of [1440, 1000]) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(page, testInfo, `add-dialog-en-${width}`);
  }
  await page.keyboard.press('Escape');
  await switchLanguage(page, 'KO');
});
