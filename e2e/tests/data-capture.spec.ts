import type { Page, TestInfo } from '@playwright/test';
import { logInAs } from '../support/auth.ts';
import { e2eServer } from '../support/servers.ts';
import { expect, test } from '../support/test.ts';

// Data capture: a CRC registers a subject, enters V1 forms, changes a saved value with a reason, reads the
// edit history and the visit matrix; a CRA sees the same form read-only.

const STUDY_ID = 1;
const crc = { email: 'crc@demo.cdms', name: '박코디', role: 'CRC' } as const;
const cra = { email: 'cra@demo.cdms', name: '최모니', role: 'CRA' } as const;

/** A day in Korea (UTC+9) `days` before today, as YYYY-MM-DD. */
function koreanDate(daysAgo: number): string {
  return new Date(Date.now() + 9 * 3600_000 - daysAgo * 86_400_000).toISOString().slice(0, 10);
}

/** Full years between two YYYY-MM-DD dates. */
function fullYears(from: string, to: string): number {
  const [fy, fm, fd] = from.split('-').map(Number) as [number, number, number];
  const [ty, tm, td] = to.split('-').map(Number) as [number, number, number];
  return ty - fy - (tm < fm || (tm === fm && td < fd) ? 1 : 0);
}

async function screenshot(page: Page, testInfo: TestInfo, name: string) {
  const body = await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });
  await testInfo.attach(name, { body, contentType: 'image/png' });
}

/** The form saves (PUT …/forms/…) the page sends, and the console errors and warnings it logs. */
function watchSaves(page: Page) {
  const puts: string[] = [];
  const console: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'PUT' && /\/forms\//.test(request.url())) puts.push(request.url());
  });
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') console.push(message.text());
  });
  return { puts, console };
}

async function switchLanguage(page: Page, language: 'KO' | 'EN') {
  await page.getByRole('button', { name: language, exact: true }).first().click();
}

test.describe('data capture', () => {
  test('a CRC registers a subject, enters V1 data, changes it with a reason; a CRA reads it', async ({
    page,
    browser,
  }, testInfo) => {
    test.setTimeout(120_000);
    const consentDate = koreanDate(3);
    await logInAs(page, crc);

    // Subject list and the add-subject modal.
    await page.goto(`/subject-list/${STUDY_ID}`);
    await expect(page.getByRole('heading', { level: 1, name: '대상자 목록' })).toBeVisible();
    await page.getByRole('button', { name: '+ 대상자 추가' }).click();
    const addDialog = page.getByRole('dialog', { name: '대상자 추가' });
    await expect(addDialog.getByLabel('기관')).toHaveValue(/\d+/); // the CRC's one site, chosen already
    await addDialog.getByLabel('동의서 서명일').fill(koreanDate(-1));
    await addDialog.getByLabel('이니셜').fill('hg');
    await addDialog.getByRole('button', { name: '등록' }).click();
    await expect(addDialog.getByText(/오늘\(.+\) 이후일 수 없습니다/)).toBeVisible();
    await addDialog.getByLabel('동의서 서명일').fill(consentDate);
    await addDialog.getByLabel('이니셜').fill('hgd');
    await screenshot(page, testInfo, 'list-modal-ko');
    await addDialog.getByRole('button', { name: '등록' }).click();
    const screeningNumber = addDialog.getByTestId('screening-number');
    await expect(screeningNumber).toHaveText(/^S\d+-\d{3}$/);
    const subjectId = (await screeningNumber.textContent()) ?? '';
    await screenshot(page, testInfo, 'list-created-ko');
    await addDialog.getByRole('button', { name: '대상자 열기' }).click();

    // Overview: every cell of V1 not started yet; open V1 demographics.
    await expect(page).toHaveURL(/\/subject-list\/subject\/1\?.*subject-id=S/);
    await expect(page.getByRole('button', { name: new RegExp(subjectId) })).toHaveAttribute(
      'aria-current',
      'true',
    );
    await page.getByRole('link', { name: '스크리닝 (V1) · 인구학적 정보: 미입력' }).click();

    await expect(page).toHaveURL(/depth-1=v1&depth-2=demographicInfo/);
    const demographics = page.locator('[data-form="demographicInfo"]');
    await demographics.getByLabel(/생년월일/).fill('1990-05-15');
    await demographics.getByRole('radiogroup', { name: /성별/ }).getByRole('radio', { name: '남' }).check();
    await expect(demographics.getByLabel(/나이/)).toHaveValue(String(fullYears('1990-05-15', consentDate)));
    await expect(page.getByText('저장하지 않은 변경 사항이 있습니다.')).toBeVisible();
    // From here on, saves and changes with reasons: not one console error or warning.
    const watched = watchSaves(page);
    await page.getByRole('button', { name: '저장', exact: true }).click();
    await expect(page.getByText('저장했습니다.', { exact: true }).first()).toBeVisible();
    await expect(page.getByText('저장하지 않은 변경 사항이 있습니다.')).toBeHidden();

    // Body measurement: BMI computed while typing, then saved.
    await page
      .getByRole('navigation', { name: '방문과 양식' })
      .getByRole('link', { name: '신체 계측' })
      .click();
    const body = page.locator('[data-form="bodyMeasurement"]');
    await body.getByLabel(/신장/).fill('170');
    await body.getByLabel(/체중/).fill('65');
    await expect(body.getByLabel(/체질량지수/)).toHaveValue('22.5');
    await page.getByRole('button', { name: '저장', exact: true }).click();
    await expect(page.getByText('저장했습니다.', { exact: true }).first()).toBeVisible();
    await expect(page.getByText('저장하지 않은 변경 사항이 있습니다.')).toBeHidden();

    // A draft survives a reload (session storage), then a saved value changes: a reason is required.
    await page
      .getByRole('navigation', { name: '방문과 양식' })
      .getByRole('link', { name: '인구학적 정보' })
      .click();
    await demographics.getByLabel(/생년월일/).fill('1991-05-15');
    await expect(demographics.getByLabel(/나이/)).toHaveValue(String(fullYears('1991-05-15', consentDate)));
    expect(watched.console).toEqual([]);
    page.once('dialog', (dialog) => void dialog.accept()); // the browser's "leave site?" prompt
    await page.reload();
    // (A reload is no save: what the page logs while loading again is not this test's concern.)
    watched.console.length = 0;
    await expect(page.getByText('이 탭에 남아 있던 저장하지 않은 변경 사항을 복원했습니다.')).toBeVisible();
    await expect(demographics.getByLabel(/생년월일/)).toHaveValue('1991-05-15');
    // The reasons are asked before anything is sent: no save request until they are given.
    watched.puts.length = 0;
    await page.getByRole('button', { name: '저장', exact: true }).click();
    const reasonDialog = page.getByRole('dialog', { name: '변경 사유 입력' });
    await expect(reasonDialog.getByRole('row', { name: /생년월일/ })).toContainText('1990-05-15');
    await expect(reasonDialog.getByRole('row', { name: /생년월일/ })).toContainText('1991-05-15');
    // Only the changed saved value is listed (the sex did not change).
    await expect(reasonDialog.getByRole('row')).toHaveCount(2);
    expect(watched.puts).toEqual([]);
    await reasonDialog.getByLabel('생년월일 변경 사유').fill('원자료 확인 결과 입력 오류');
    await screenshot(page, testInfo, 'reason-modal-ko');
    const saved = page.waitForResponse((response) => response.request().method() === 'PUT');
    await reasonDialog.getByRole('button', { name: '사유와 함께 저장' }).click();
    expect((await saved).status()).toBe(200);
    await expect(reasonDialog).toBeHidden();
    await expect(page.getByText('저장했습니다.', { exact: true }).first()).toBeVisible();
    expect(watched.puts).toHaveLength(1);
    expect(watched.console).toEqual([]);
    await screenshot(page, testInfo, 'detail-ko');

    // The form's edit history: who (name and role, never the e-mail), both values and the reason.
    await page.getByRole('button', { name: '수정 이력' }).click();
    const history = page.getByRole('dialog', { name: '수정 이력' });
    const change = history.getByRole('row').filter({ hasText: '원자료 확인 결과 입력 오류' });
    await expect(change).toContainText('생년월일');
    await expect(change).toContainText('1990-05-15');
    await expect(change).toContainText('1991-05-15');
    await expect(change).toContainText('박코디 (CRC)');
    await expect(history).not.toContainText('@demo.cdms');
    await screenshot(page, testInfo, 'history-modal-ko');
    await history.getByRole('button', { name: '닫기' }).first().click();

    // The item's own history, from the item: its changes only, with the same facts.
    await demographics
      .locator('[data-item="birthDate"]')
      .getByRole('button', { name: '변경 이력', exact: true })
      .click();
    const itemHistory = page.getByRole('dialog', { name: '항목 변경 이력' });
    await expect(itemHistory).toContainText('인구학적 정보 · 생년월일');
    const itemChange = itemHistory.getByRole('row').filter({ hasText: '원자료 확인 결과 입력 오류' });
    await expect(itemChange).toContainText('박코디 (CRC)');
    await expect(itemChange).toContainText(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
    await expect(itemChange).toContainText('1990-05-15');
    await expect(itemChange).toContainText('1991-05-15');
    // The first entry and the change: two rows under the header, nothing of the sex.
    await expect(itemHistory.getByRole('row')).toHaveCount(3);
    await expect(itemHistory).not.toContainText('@demo.cdms');
    await screenshot(page, testInfo, 'item-history-ko');
    await itemHistory.getByRole('button', { name: '닫기' }).first().click();
    expect(watched.console).toEqual([]);

    // A section comment (≤ 3500 characters, counter n/3500).
    await demographics.getByRole('button', { name: '코멘트' }).click();
    const commentDialog = page.getByRole('dialog', { name: /코멘트 · 인구학적 정보/ });
    const comment = '생년월일은 신분증으로 확인함';
    await commentDialog.getByLabel('코멘트', { exact: true }).fill(comment);
    await expect(commentDialog.getByText(`${comment.length}/3500`)).toBeVisible();
    await commentDialog.getByRole('button', { name: '등록' }).click();
    await expect(commentDialog.getByRole('listitem').filter({ hasText: '신분증으로 확인함' })).toBeVisible();
    await expect(commentDialog.getByText('0/3500')).toBeVisible();
    await commentDialog.getByRole('button', { name: '닫기' }).last().click();
    await expect(demographics.getByRole('button', { name: '코멘트 (1)' })).toBeVisible();

    // The PDF button prints the form: the print view is all the page shows in print.
    await page.emulateMedia({ media: 'print' });
    await expect(page.getByRole('heading', { name: '증례기록서 출력' })).toBeVisible();
    await screenshot(page, testInfo, 'print-ko');
    await page.emulateMedia({ media: 'screen' });

    // The matrix shows the saved forms.
    await page.getByRole('link', { name: 'eCRF 현황판' }).click();
    await expect(page.getByRole('link', { name: /스크리닝 \(V1\) · 인구학적 정보: 완료/ })).toBeVisible();
    await expect(
      page.getByRole('link', { name: /스크리닝 \(V1\) · 신체 계측: (완료|입력 중)/ }),
    ).toBeVisible();
    await expect(page.getByRole('link', { name: /스크리닝 \(V1\) · 활력 징후: 미입력/ })).toBeVisible();
    await screenshot(page, testInfo, 'overview-ko');
    const detailUrl = new URL(page.url());

    // English screenshots of the same screens.
    await switchLanguage(page, 'EN');
    await expect(page.getByRole('heading', { level: 1, name: 'eCRF status' })).toBeVisible();
    await screenshot(page, testInfo, 'overview-en');
    await page.getByRole('link', { name: 'Screening (V1) · Demographics: Complete' }).click();
    await page.getByRole('radiogroup', { name: /Sex/ }).getByRole('radio', { name: 'Female' }).check();
    await screenshot(page, testInfo, 'detail-en');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const reasonEn = page.getByRole('dialog', { name: 'Reason for change' });
    await reasonEn.getByLabel('Reason for changing Sex').fill('Corrected from the source document');
    await screenshot(page, testInfo, 'reason-modal-en');
    await reasonEn.getByRole('button', { name: 'Save with reasons' }).click();
    await expect(reasonEn).toBeHidden();
    await page.getByRole('button', { name: 'Edit history' }).click();
    await expect(page.getByRole('dialog', { name: 'Edit history' })).toContainText('Female');
    await screenshot(page, testInfo, 'history-modal-en');
    await page.keyboard.press('Escape');
    // The sex's own history: code labels in English, old → new, name and role, the reason.
    await page
      .locator('[data-item="gender"]')
      .getByRole('button', { name: 'Change history', exact: true })
      .click();
    const itemHistoryEn = page.getByRole('dialog', { name: 'Item history' });
    const sexChange = itemHistoryEn
      .getByRole('row')
      .filter({ hasText: 'Corrected from the source document' });
    await expect(sexChange).toContainText('Male');
    await expect(sexChange).toContainText('Female');
    await expect(sexChange).toContainText('박코디 (CRC)');
    await screenshot(page, testInfo, 'item-history-en');
    await page.keyboard.press('Escape');
    await page.goto(`/subject-list/${STUDY_ID}`);
    await page.getByRole('button', { name: '+ Add subject' }).click();
    await page.getByRole('dialog', { name: 'Add subject' }).getByLabel('Initials').fill('KM');
    await screenshot(page, testInfo, 'list-modal-en');
    await page.keyboard.press('Escape');
    await switchLanguage(page, 'KO');

    // A CRA (sites 01–02) opens the same form: read-only, no save button.
    detailUrl.pathname = '/subject-list/subject/subject-detail/1';
    detailUrl.searchParams.set('depth-1', 'v1');
    detailUrl.searchParams.set('depth-2', 'demographicInfo');
    const craContext = await browser.newContext({
      baseURL: e2eServer().baseUrl,
      locale: 'ko-KR',
      timezoneId: 'Asia/Seoul',
    });
    const craPage = await craContext.newPage();
    await logInAs(craPage, cra);
    await craPage.goto(`${detailUrl.pathname}${detailUrl.search}`);
    const craForm = craPage.locator('[data-form="demographicInfo"]');
    await expect(craForm.getByLabel(/생년월일/)).toHaveValue('1991-05-15');
    await expect(craForm.getByLabel(/생년월일/)).toBeDisabled();
    await expect(craPage.getByText('읽기 전용입니다.', { exact: false })).toBeVisible();
    await expect(craPage.getByRole('button', { name: '저장', exact: true })).toHaveCount(0);
    await expect(craPage.getByRole('button', { name: '초기화' })).toHaveCount(0);
    await screenshot(craPage, testInfo, 'detail-cra-ko');
    await craContext.close();
  });

  test('a future TBCT imaging date blocks the save with the message on the item; nothing is stored', async ({
    page,
  }, testInfo) => {
    test.setTimeout(90_000);
    await logInAs(page, crc);
    const me = await (await page.request.get('/api/auth/me')).json();
    const membership = me.memberships.find((m: { studyId: number }) => m.studyId === STUDY_ID);
    const created = await page.request.post(`/api/studies/${STUDY_ID}/subjects`, {
      headers: { 'X-CSRF-Token': me.csrfToken },
      data: { siteId: membership.sites[0].id, consentDate: koreanDate(2), initials: 'TB' },
    });
    expect(created.status(), await created.text()).toBe(201);
    const subject = await created.json();
    const formApi = `/api/studies/${STUDY_ID}/subjects/${subject.id}/forms/v1/tbctImaging`;
    await page.goto(
      `/subject-list/subject/subject-detail/${STUDY_ID}?subject-id=${subject.subjectId}&subject-pk=${subject.id}&depth-1=v1&depth-2=tbctImaging`,
    );
    const form = page.locator('[data-form="tbctImaging"]');
    const imaging = form.locator('[data-item="imagingDate"]');
    const watched = watchSaves(page);

    // A date after today: refused, but kept on screen with its message under the item.
    const future = koreanDate(-3);
    await imaging.getByLabel(/촬영일/).fill(future);
    await expect(imaging.getByLabel(/촬영일/)).toHaveValue(future);
    await expect(imaging).toContainText(`${koreanDate(0)} 이후의 날짜는 선택할 수 없습니다.`);
    await form
      .getByRole('radiogroup', { name: /측두골 골절 또는 이소골 손상/ })
      .getByRole('radio', { name: '아니오' })
      .check();
    await page.getByRole('button', { name: '저장', exact: true }).click();
    // Not sent, not "saved": the message stays on the item, which has the cursor.
    await expect(page.getByText('저장하지 않았습니다. 표시된 항목의 값을 고치세요.').first()).toBeVisible();
    await expect(imaging.getByLabel(/촬영일/)).toBeFocused();
    await expect(imaging).toContainText('이후의 날짜는 선택할 수 없습니다.');
    await expect(page.getByText('저장했습니다.', { exact: true })).toHaveCount(0);
    await screenshot(page, testInfo, 'future-date-blocked-ko');
    expect(watched.puts).toEqual([]);
    const stored = await (await page.request.get(formApi)).json();
    expect(stored.version).toBe(0);
    expect(stored.values).toEqual({});

    // Corrected, the form saves (a first entry: no reason asked), with no console error on the way.
    await imaging.getByLabel(/촬영일/).fill(koreanDate(1));
    await expect(imaging).not.toContainText('이후의 날짜는 선택할 수 없습니다.');
    await page.getByRole('button', { name: '저장', exact: true }).click();
    await expect(page.getByText('저장했습니다.', { exact: true }).first()).toBeVisible();
    expect(watched.puts).toHaveLength(1);
    expect((await (await page.request.get(formApi)).json()).values.imagingDate).toBe(koreanDate(1));
    expect(watched.console).toEqual([]);
  });

  test('a save on a stale version shows what changed and re-applies the changes; leaving asks first', async ({
    page,
    browser,
    consoleGuard,
  }, testInfo) => {
    test.setTimeout(90_000);
    consoleGuard.allowFailedRequest(
      /\/subjects\/\d+\/forms\/v1\/demographicInfo$/,
      409,
      'a save on a stale version, on purpose',
    );
    await logInAs(page, crc);
    // A subject through the API (the UI path is covered above).
    const me = await (await page.request.get('/api/auth/me')).json();
    const membership = me.memberships.find((m: { studyId: number }) => m.studyId === STUDY_ID);
    const created = await page.request.post(`/api/studies/${STUDY_ID}/subjects`, {
      headers: { 'X-CSRF-Token': me.csrfToken },
      data: { siteId: membership.sites[0].id, consentDate: koreanDate(5), initials: 'CF' },
    });
    expect(created.status(), await created.text()).toBe(201);
    const subject = await created.json();
    const url = `/subject-list/subject/subject-detail/${STUDY_ID}?subject-id=${subject.subjectId}&subject-pk=${subject.id}&depth-1=v1&depth-2=demographicInfo`;

    const otherContext = await browser.newContext({
      baseURL: e2eServer().baseUrl,
      locale: 'ko-KR',
      timezoneId: 'Asia/Seoul',
    });
    const other = await otherContext.newPage();
    await logInAs(other, crc);
    await page.goto(url);
    await other.goto(url);
    const mine = page.locator('[data-form="demographicInfo"]');
    const theirs = other.locator('[data-form="demographicInfo"]');
    await expect(mine.getByLabel(/생년월일/)).toBeEditable();
    await expect(theirs.getByLabel(/생년월일/)).toBeEditable();

    // The other tab saves first.
    await theirs.getByLabel(/생년월일/).fill('1980-01-01');
    await theirs.getByRole('radiogroup', { name: /성별/ }).getByRole('radio', { name: '남' }).check();
    await other.getByRole('button', { name: '저장', exact: true }).click();
    await expect(other.getByText('저장하지 않은 변경 사항이 있습니다.')).toBeHidden();
    await expect(other.getByText('저장했습니다.', { exact: true }).first()).toBeVisible();

    // This tab started from version 0: 409, with both values side by side.
    await mine.getByLabel(/생년월일/).fill('1985-02-02');
    await page.getByRole('button', { name: '저장', exact: true }).click();
    const conflict = page.getByRole('dialog', { name: '다른 사용자가 먼저 저장했습니다' });
    const row = conflict.getByRole('row', { name: /생년월일/ });
    await expect(row).toContainText('1985-02-02');
    await expect(row).toContainText('1980-01-01');
    await screenshot(page, testInfo, 'conflict-modal-ko');
    await conflict.getByRole('button', { name: '최신 버전에 내 변경 다시 적용' }).click();
    await expect(conflict).toBeHidden();
    await expect(mine.getByLabel(/생년월일/)).toHaveValue('1985-02-02');
    await expect(mine.getByRole('radio', { name: '남' })).toBeChecked(); // the other tab's value, kept

    // Leaving with unsaved changes asks first; staying keeps the form.
    await page.getByRole('navigation', { name: '방문과 양식' }).getByRole('link', { name: '방문일' }).click();
    const leave = page.getByRole('alertdialog', { name: '저장하지 않은 변경 사항' });
    await expect(leave).toBeVisible();
    await leave.getByRole('button', { name: '머무르기' }).click();
    await expect(page).toHaveURL(/depth-2=demographicInfo/);

    // Saving on the new version: the saved birth date changes, so a reason is asked.
    await page.getByRole('button', { name: '저장', exact: true }).click();
    const reason = page.getByRole('dialog', { name: '변경 사유 입력' });
    await reason.getByLabel('생년월일 변경 사유').fill('원자료 재확인');
    await reason.getByRole('button', { name: '사유와 함께 저장' }).click();
    await expect(reason).toBeHidden();
    await expect(page.getByText('저장하지 않은 변경 사항이 있습니다.')).toBeHidden();
    await otherContext.close();
  });
});
