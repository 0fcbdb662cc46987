import type { Page, TestInfo } from '@playwright/test';
import { DEMO_PASSWORD, demoAccount, logInAs } from '../support/auth.ts';
import { axeViolations } from '../support/axe.ts';
import { e2eServer } from '../support/servers.ts';
import { expect, test } from '../support/test.ts';

/** A tiny design: two visits, two forms (each form one empty section). */
const tinyDefinition = {
  key: 'DSN',
  version: '1.0.0',
  label: { ko: '설계 시험', en: 'Designer test' },
  codeLists: [],
  visits: [
    { key: 'V1', label: { ko: '선별 방문', en: 'Screening visit' }, group: 'screening', forms: ['demo'] },
    { key: 'V2', label: { ko: '추적 방문', en: 'Follow-up visit' }, group: 'follow_up', forms: ['demo'] },
  ],
  forms: [
    {
      key: 'demo',
      label: { ko: '인구학', en: 'Demographics' },
      sections: [{ key: 'main', label: { ko: '기본', en: 'Main' }, items: [] }],
    },
    {
      key: 'vitals',
      label: { ko: '활력 징후', en: 'Vital signs' },
      sections: [{ key: 'main', label: { ko: '기본', en: 'Main' }, items: [] }],
    },
  ],
};

/** A fresh study in design (never the demo's TUBE-2027, which another test imports into) with the tiny design. */
async function createStudyInDesign(page: Page): Promise<number> {
  const { csrfToken } = (await (await page.request.get('/api/auth/me')).json()) as { csrfToken: string };
  const headers = { 'x-csrf-token': csrfToken };
  const created = await page.request.post('/api/admin/studies', {
    headers,
    data: {
      code: `DSN-${Date.now().toString(36)}`,
      protocolNumber: 'CDMS-DSN-01',
      titleKo: '설계 시험',
      titleEn: 'Designer test',
      sponsor: '',
      kind: 'observational',
      content: '',
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const studyId = ((await created.json()) as { id: number }).id;
  const saved = await page.request.put(`/api/studies/${studyId}/definition`, {
    headers,
    data: tinyDefinition,
  });
  expect(saved.status(), await saved.text()).toBe(200);
  return studyId;
}

/**
 * Issue 48 items 1 and 2: a designer opens the study's schedule, adds a visit, ticks a form in it,
 * renames a form's English label, undoes and redoes, finds the draft saved by itself after a reload,
 * and publishes it.
 */
test('an administrator edits the schedule of a study in design; the draft saves itself and is published', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const admin = demoAccount('ADMIN');
  await logInAs(page, admin);
  const studyId = await createStudyInDesign(page);

  await page.goto(`/design/${studyId}`);
  await expect(page.getByRole('heading', { name: '스터디 설계' })).toBeVisible();
  const grid = page.getByRole('table', { name: /방문별 양식 일정/ });
  await expect(grid.getByRole('checkbox', { name: '선별 방문의 인구학' })).toBeChecked();
  await expect(page.getByRole('button', { name: '배포', exact: true })).toBeDisabled();
  expect.soft(await axeViolations(page), 'designer page').toEqual([]);

  // A new visit at the end, and the vital signs in it.
  await page.getByRole('button', { name: '방문 추가' }).click();
  const visitDialog = page.getByRole('dialog', { name: '방문 추가' });
  expect.soft(await axeViolations(page), 'add-visit dialog').toEqual([]);
  await visitDialog.getByLabel('키').fill('V3');
  await visitDialog.getByLabel('이름 (한국어)').fill('종료 방문');
  await visitDialog.getByLabel('이름 (영어)').fill('End of study visit');
  await visitDialog.getByLabel('방문 구분').selectOption({ label: '종료' });
  // Its window: 12 weeks after the screening visit, a week either way (a negative early count refused).
  await visitDialog.getByLabel('방문 허용 범위 기준 방문').selectOption({ label: '선별 방문 (V1)' });
  await visitDialog.getByLabel('기준 방문 후 일수').fill('84');
  await visitDialog.getByLabel('앞당김 허용 일수').fill('-7');
  await visitDialog.getByRole('button', { name: '적용' }).click();
  await expect(visitDialog.getByText(/허용 일수는 0 이상입니다/)).toBeVisible();
  await visitDialog.getByLabel('앞당김 허용 일수').fill('7');
  await visitDialog.getByLabel('늦춤 허용 일수').fill('7');
  await visitDialog.getByRole('button', { name: '적용' }).click();
  await expect(grid.getByText('기준 V1 +84일 (−7/+7)')).toBeVisible();
  await grid.getByRole('checkbox', { name: '종료 방문의 활력 징후' }).check();

  // The vital signs' English label, undone and redone (the button, then the keyboard).
  await grid.getByRole('button', { name: '활력 징후 이름 바꾸기' }).click();
  const formDialog = page.getByRole('dialog', { name: '양식 이름 바꾸기' });
  await formDialog.getByLabel('이름 (영어)').fill('Vitals');
  await formDialog.getByRole('button', { name: '적용' }).click();
  await page.getByRole('button', { name: '실행 취소' }).click();
  await grid.getByRole('button', { name: '활력 징후 이름 바꾸기' }).click();
  await expect(formDialog.getByLabel('이름 (영어)')).toHaveValue('Vital signs');
  await formDialog.getByRole('button', { name: '취소' }).click();
  await expect(formDialog).toBeHidden();
  await page.keyboard.press('Control+Shift+Z');
  await expect(page.getByRole('button', { name: '다시 실행' })).toBeDisabled();

  // The draft saves itself: a reload finds it as it was left, before anything is published.
  await expect(page.getByRole('status').filter({ hasText: /초안 저장됨 · 개정 \d+/ })).toBeVisible();
  await page.reload();
  await expect(grid.getByRole('checkbox', { name: '종료 방문의 활력 징후' })).toBeChecked();
  await page.getByRole('button', { name: '배포', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: '배포했습니다. 버전 1.0.0' })).toBeVisible();
  await expect(page.getByRole('button', { name: '실행 취소' })).toBeDisabled();
  await expect(page.getByRole('status').filter({ hasText: '초안: 아직 저장된 내용 없음' })).toBeVisible();
  await expect(grid.getByRole('checkbox', { name: '종료 방문의 인구학' })).not.toBeChecked();
  await grid.getByRole('button', { name: '활력 징후 이름 바꾸기' }).click();
  await expect(formDialog.getByLabel('이름 (영어)')).toHaveValue('Vitals');
  await formDialog.getByRole('button', { name: '취소' }).click();

  // Reordering by keyboard: the focus follows the visit, and turns back at the end of the line.
  // A header's text after its drag grip (⠿), first line: the visit's name.
  const visitOrder = async () =>
    (await grid.getByRole('columnheader').allInnerTexts()).map((text) => text.replace(/^⠿\s*/, ''));
  await grid.getByRole('button', { name: '선별 방문 오른쪽으로 이동' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: '선별 방문 오른쪽으로 이동' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: '선별 방문 왼쪽으로 이동' })).toBeFocused();
  expect((await visitOrder()).map((text) => text.split('\n')[0])).toEqual([
    '양식',
    '추적 방문',
    '종료 방문',
    '선별 방문',
  ]);
  await page.keyboard.press('Control+Z');
  await page.keyboard.press('Control+Z');
  await expect(
    page.getByRole('status').filter({ hasText: /초안: 아직 저장된 내용 없음|초안 저장됨/ }),
  ).toBeVisible();

  const stored = (await (await page.request.get(`/api/studies/${studyId}/definition`)).json()) as {
    definition: typeof tinyDefinition;
  };
  expect(stored.definition.visits.map((visit) => visit.key)).toEqual(['V1', 'V2', 'V3']);
  expect(stored.definition.visits[2]?.forms).toEqual(['vitals']);
  expect(stored.definition.visits[2]).toMatchObject({
    window: { anchorVisit: 'V1', offsetDays: 84, minusDays: 7, plusDays: 7 },
  });
  expect(stored.definition.forms[1]?.label.en).toBe('Vitals');
});

/**
 * Issue 48 items 3–5: in a form's editor the designer adds items, gives one a range and another a
 * computed value written with the expression syntax (a reference completed from the list), sees a
 * wrong reference named as it is typed, and watches the live preview run the engine — the computed
 * value and the range check fire as values are typed in the scratch subject —, then saves.
 */
test('a designer builds a form in its editor and sees it run in the live preview', async ({
  page,
}, testInfo) => {
  test.setTimeout(90_000);
  const admin = demoAccount('ADMIN');
  await logInAs(page, admin);
  const studyId = await createStudyInDesign(page);

  await page.goto(`/design/${studyId}`);
  await page.getByRole('button', { name: '인구학 항목 편집' }).click();
  await expect(page.getByRole('heading', { name: '인구학 키 demo' })).toBeVisible();
  const preview = page.getByRole('region', { name: '미리 보기' });
  await expect(preview).toBeVisible();

  const addItem = page.getByRole('form', { name: '항목 추가' });
  await addItem.getByLabel('유형').selectOption({ label: '정수' });
  await addItem.getByLabel('키', { exact: true }).fill('age');
  await addItem.getByLabel('이름 (한국어)').fill('나이');
  await addItem.getByLabel('이름 (영어)').fill('Age');
  await addItem.getByRole('button', { name: '항목 추가' }).click();

  const properties = page.getByRole('region', { name: 'age 속성' });
  await properties.getByLabel('단위').fill('세');
  await properties.getByLabel('예상 최댓값').fill('90');
  await properties.getByRole('checkbox', { name: '필수' }).check();

  await addItem.getByLabel('유형').selectOption({ label: '정수' });
  await addItem.getByLabel('키', { exact: true }).fill('ageNextYear');
  await addItem.getByLabel('이름 (한국어)').fill('내년 나이');
  await addItem.getByRole('button', { name: '항목 추가' }).click();
  const computed = page.getByRole('region', { name: 'ageNextYear 속성' });
  const expression = computed.getByLabel('계산식');
  // A reference that does not exist is named, and nothing is applied.
  await expression.fill('agee + 1');
  await expect(computed.getByText('고치기 전에는 적용되지 않습니다:')).toBeVisible();
  await expect(computed.getByText(/agee/)).toBeVisible();
  // The reference completed from the list.
  await expression.fill('ag');
  await computed.getByRole('button', { name: 'age 항목 나이' }).click();
  await expect(expression).toHaveValue('age');
  await expression.press('End');
  await expression.pressSequentially(' + 1');
  await expect(computed.getByText('고치기 전에는 적용되지 않습니다:')).toBeHidden();
  // The English label is still missing: marked until it is written.
  await expect(computed.getByText('번역 없음: EN')).toBeVisible();
  await computed.getByLabel('이름 (영어)').fill('Age next year');
  await expect(computed.getByText('번역 없음: EN')).toBeHidden();
  expect.soft(await axeViolations(page), 'form editor').toEqual([]);

  // An edit check on the age, refusing the save under 19.
  await page.getByRole('button', { name: /^나이\s*age/ }).click();
  const ageChecks = page.getByRole('region', { name: 'age 검사' });
  await ageChecks.getByRole('button', { name: '검사 추가' }).click();
  await ageChecks.getByLabel('심각도').selectOption({ label: '저장 거부' });
  await ageChecks.getByLabel('실패 조건').fill('age < 19');
  await ageChecks.getByLabel('메시지 (한국어)').fill('만 19세 이상만 참여할 수 있습니다.');
  await ageChecks.getByLabel('메시지 (영어)').fill('Only adults of 19 or more may take part.');
  await preview.getByRole('textbox', { name: '나이 (필수)' }).fill('15');
  await expect(preview.getByText('만 19세 이상만 참여할 수 있습니다.').first()).toBeVisible();
  // A routing outcome of the form: under 19 the subject is excluded, as the preview's engine says.
  await page.getByRole('button', { name: /^이동 안내/ }).click();
  const outcomes = page.getByRole('region', { name: '양식의 이동 안내' });
  await outcomes.getByRole('button', { name: '이동 안내 추가' }).click();
  await outcomes.getByLabel('다음 단계').selectOption({ label: '시험 제외' });
  await outcomes.getByLabel('조건', { exact: true }).fill('age < 19');
  await outcomes.getByLabel('메시지 (한국어)').fill('선정 기준에 맞지 않아 제외합니다.');
  await outcomes.getByLabel('메시지 (영어)').fill('Excluded: not eligible.');
  await expect(
    preview.getByRole('complementary', { name: '규칙 엔진 결과' }).getByRole('region', { name: '이동 안내' }),
  ).toContainText('선정 기준에 맞지 않아 제외합니다.');

  // A code list made on its own page, then a choice item that picks from it.
  await page.getByRole('button', { name: '코드 목록', exact: true }).click();
  const addList = page.getByRole('form', { name: '코드 목록 추가' });
  await addList.getByLabel('키', { exact: true }).fill('sex');
  await addList.getByRole('button', { name: '코드 목록 추가' }).click();
  const sexList = page.getByRole('region', { name: '코드 목록 sex' });
  await sexList.getByLabel('sex 코드 1: 코드').fill('M');
  await sexList.getByLabel('sex 코드 1: 이름 (한국어)').fill('남');
  await sexList.getByLabel('sex 코드 1: 이름 (영어)').fill('Male');
  await sexList.getByRole('button', { name: '코드 추가' }).click();
  await sexList.getByLabel('sex 코드 2: 코드').fill('F');
  await sexList.getByLabel('sex 코드 2: 이름 (한국어)').fill('여');
  await sexList.getByLabel('sex 코드 2: 이름 (영어)').fill('Female');
  await page.getByRole('button', { name: '일정표로 돌아가기' }).click();
  await page.getByRole('button', { name: '인구학 항목 편집' }).click();
  await addItem.getByLabel('유형').selectOption({ label: '단일 선택' });
  await addItem.getByLabel('키', { exact: true }).fill('sex');
  await addItem.getByLabel('이름 (한국어)').fill('성별');
  await addItem.getByLabel('이름 (영어)').fill('Sex');
  await addItem.getByRole('button', { name: '항목 추가' }).click();
  await preview.getByRole('combobox', { name: '성별' }).selectOption({ label: '여' });

  // A second section made a repeating group, with an item in its rows.
  const addSection = page.getByRole('form', { name: '구역 추가' });
  await addSection.getByLabel('키', { exact: true }).fill('meds');
  await addSection.getByLabel('이름 (한국어)').fill('복용 약물');
  await addSection.getByLabel('이름 (영어)').fill('Medications');
  await addSection.getByRole('button', { name: '구역 추가' }).click();
  await page.getByRole('button', { name: /^복용 약물\s*키 meds/ }).click();
  const sectionProperties = page.getByRole('region', { name: '구역 meds' });
  await sectionProperties.getByRole('checkbox', { name: /반복 그룹/ }).check();
  await expect(sectionProperties.getByLabel('행의 키')).toHaveValue('medsRows');
  await addItem.getByLabel('구역').selectOption({ label: '복용 약물' });
  await addItem.getByLabel('유형').selectOption({ label: '텍스트' });
  await addItem.getByLabel('키', { exact: true }).fill('drug');
  await addItem.getByLabel('이름 (한국어)').fill('약물명');
  await addItem.getByLabel('이름 (영어)').fill('Drug');
  await addItem.getByRole('button', { name: '항목 추가' }).click();
  await preview.getByRole('button', { name: '행 추가' }).click();
  await expect(preview.getByRole('textbox', { name: /약물명/ })).toBeVisible();

  // The preview runs the engine on the draft: the computed value, then the range check.
  await preview.getByRole('textbox', { name: '나이 (필수)' }).fill('95');
  await expect(preview.getByRole('textbox', { name: '내년 나이' })).toHaveValue('96');
  await expect(preview.getByRole('region', { name: '검사 결과' })).toContainText('나이');
  await screenshot(page, testInfo, 'designer-form-editor-ko-1440');

  await expect(page.getByRole('status').filter({ hasText: /초안 저장됨 · 개정 \d+/ })).toBeVisible();
  await page.getByRole('button', { name: '배포', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: '배포했습니다. 버전 1.0.0' })).toBeVisible();
  const stored = (await (await page.request.get(`/api/studies/${studyId}/definition`)).json()) as {
    definition: {
      codeLists: unknown[];
      forms: {
        sections: { key: string; repeating?: unknown; items: Record<string, unknown>[] }[];
        checks?: unknown[];
        outcomes?: unknown[];
      }[];
    };
  };
  expect(stored.definition.codeLists).toEqual([
    {
      key: 'sex',
      codes: [
        { code: 'M', label: { ko: '남', en: 'Male' } },
        { code: 'F', label: { ko: '여', en: 'Female' } },
      ],
    },
  ]);
  expect(stored.definition.forms[0]?.sections[1]).toEqual({
    key: 'meds',
    label: { ko: '복용 약물', en: 'Medications' },
    repeating: { key: 'medsRows' },
    items: [{ key: 'drug', type: 'text', label: { ko: '약물명', en: 'Drug' } }],
  });
  expect(stored.definition.forms[0]?.outcomes).toEqual([
    {
      id: 'demoOutcome1',
      kind: 'excluded',
      when: { op: 'lt', args: [{ ref: 'age' }, 19] },
      message: { ko: '선정 기준에 맞지 않아 제외합니다.', en: 'Excluded: not eligible.' },
    },
  ]);
  expect(stored.definition.forms[0]?.checks).toEqual([
    {
      id: 'ageCheck1',
      item: 'age',
      when: { op: 'lt', args: [{ ref: 'age' }, 19] },
      severity: 'hard',
      message: { ko: '만 19세 이상만 참여할 수 있습니다.', en: 'Only adults of 19 or more may take part.' },
    },
  ]);
  expect(stored.definition.forms[0]?.sections[0]?.items).toEqual([
    { key: 'age', type: 'integer', label: { ko: '나이', en: 'Age' }, unit: '세', max: 90, required: true },
    {
      key: 'ageNextYear',
      type: 'integer',
      label: { ko: '내년 나이', en: 'Age next year' },
      derive: { op: 'add', args: [{ ref: 'age' }, 1] },
    },
    { key: 'sex', type: 'singleChoice', label: { ko: '성별', en: 'Sex' }, codeList: 'sex' },
  ]);

  // A layout for one visit: a copy of the default sections, where the next year's age is left out.
  await page.getByRole('button', { name: '방문별 레이아웃 추가' }).click();
  await expect(page.getByRole('combobox', { name: '레이아웃', exact: true })).toHaveValue('0');
  await page.getByRole('button', { name: /^내년 나이/ }).click();
  await page.getByRole('button', { name: '항목 삭제' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: '삭제' }).click();
  await expect
    .poll(async () => {
      const answer = (await (await page.request.get(`/api/studies/${studyId}/design-draft`)).json()) as {
        draft: {
          definition?: {
            forms: { variants?: { visits: string[]; sections: { items: { key: string }[] }[] }[] }[];
          };
        } | null;
      };
      const variant = answer.draft?.definition?.forms[0]?.variants?.[0];
      return variant && { visits: variant.visits, items: variant.sections[0]?.items.map((item) => item.key) };
    })
    .toEqual({ visits: ['V1'], items: ['age', 'sex'] });
  await page
    .getByRole('combobox', { name: '레이아웃', exact: true })
    .selectOption({ label: '기본 레이아웃' });
  await expect(page.getByRole('button', { name: /^내년 나이/ })).toBeVisible();
  // After the toasts have left (their region's focus guards are no widgets for axe).
  await expect(page.locator('li[data-state="open"]')).toHaveCount(0, { timeout: 15_000 });
  expect.soft(await axeViolations(page), 'designer form layouts').toEqual([]);
});

async function screenshot(page: Page, testInfo: TestInfo, name: string) {
  const body = await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });
  await testInfo.attach(name, { body, contentType: 'image/png' });
}

/**
 * Issue 48 items 7 and 9: the living demo's TUBE-2027 has the data manager's draft of its next version
 * under review, with the administrator's comment on the item it adds; the administrator — not the one
 * who asked — approves that revision with an electronic signature.
 */
test('the administrator reads the review of the demo draft and approves it with an electronic signature', async ({
  page,
}, testInfo) => {
  test.setTimeout(90_000);
  const admin = demoAccount('ADMIN');
  await logInAs(page, admin);
  const me = (await (await page.request.get('/api/auth/me')).json()) as {
    memberships: { studyId: number; studyCode: string }[];
  };
  const tube = me.memberships.find((membership) => membership.studyCode === 'TUBE-2027');
  if (!tube) throw new Error('the administrator is no member of TUBE-2027');

  await page.goto(`/design/${tube.studyId}`);
  await expect(page.getByRole('status').filter({ hasText: /초안 저장됨 · 개정 1 · / })).toBeVisible();
  await page.getByRole('button', { name: '변경 내역과 검토' }).click();
  const review = page.getByRole('region', { name: '검토', exact: true });
  await expect(review).toContainText('정데이 님이 개정 1의 검토를 요청했습니다');
  await expect(
    review.getByRole('listitem').filter({ hasText: '양쪽 귀에 환기관을 넣은 아이가' }),
  ).toContainText('환기관 탈락 확인일');
  await expect(page.getByRole('region', { name: '최근 저장' })).toContainText('환기관 탈락 확인일');
  expect.soft(await axeViolations(page), 'designer review').toEqual([]);

  for (const language of ['ko', 'en'] as const) {
    await page.evaluate((code) => localStorage.setItem('cdms.language', code), language);
    await page.reload();
    await page
      .getByRole('button', { name: language === 'ko' ? '변경 내역과 검토' : 'Changes and review' })
      .click();
    for (const width of [1440, 1000]) {
      await page.setViewportSize({ width, height: 900 });
      await expect(
        page.getByRole('region', { name: language === 'ko' ? '검토' : 'Review', exact: true }),
      ).toContainText('양쪽 귀에');
      await screenshot(page, testInfo, `designer-review-${language}-${width}`);
    }
  }
  await page.evaluate(() => localStorage.setItem('cdms.language', 'ko'));
  await page.reload();
  await page.getByRole('button', { name: '변경 내역과 검토' }).click();

  await review.getByRole('button', { name: '개정 1 전자서명으로 승인' }).click();
  const dialog = page.getByRole('dialog', { name: '개정 1 승인' });
  await expect(dialog).toContainText('이 설계 초안을 검토하였고 배포를 승인합니다.');
  await dialog.getByLabel('비밀번호').fill(DEMO_PASSWORD);
  await dialog.getByRole('button', { name: '서명하고 승인' }).click();
  await expect(dialog).toBeHidden();
  await expect(review.getByRole('note')).toContainText('관리자 님이 전자서명으로 승인했습니다(개정 1)');
  await expect(review.getByRole('button', { name: '개정 1 전자서명으로 승인' })).toHaveCount(0);
});

/**
 * Issue 48 item 6: two designers on one draft. The second one's save, made on the revision before the
 * first one's, is refused with who saved and what differs; they take the other draft and go on from it.
 */
test('a second designer whose draft is behind is told who saved since and takes their draft', async ({
  page,
  browser,
  consoleGuard,
}, testInfo) => {
  test.setTimeout(90_000);
  const admin = demoAccount('ADMIN');
  await logInAs(page, admin);
  const studyId = await createStudyInDesign(page);
  const otherContext = await browser.newContext({
    baseURL: e2eServer().baseUrl,
    locale: 'ko-KR',
    timezoneId: 'Asia/Seoul',
  });
  const other = await otherContext.newPage();
  await logInAs(other, admin);
  await page.goto(`/design/${studyId}`);
  await other.goto(`/design/${studyId}`);
  const grid = page.getByRole('table', { name: /방문별 양식 일정/ });
  const otherGrid = other.getByRole('table', { name: /방문별 양식 일정/ });
  await expect(otherGrid.getByRole('checkbox', { name: '추적 방문의 활력 징후' })).not.toBeChecked();

  // The first tab saves first.
  await grid.getByRole('checkbox', { name: '추적 방문의 활력 징후' }).check();
  await expect(page.getByRole('status').filter({ hasText: /초안 저장됨 · 개정 1 · / })).toBeVisible();

  // The other tab's edit was made on no draft at all: refused, with the difference.
  consoleGuard.allowFailedRequest(
    `/api/studies/${studyId}/design-draft`,
    409,
    'a save behind the draft, on purpose',
  );
  await otherGrid.getByRole('checkbox', { name: '선별 방문의 활력 징후' }).check();
  const conflict = other.getByRole('alert', { name: '다른 사람이 초안을 먼저 저장했습니다' });
  await expect(conflict).toContainText('관리자 님의 초안을 가져오면 내 초안에서 달라지는 내용');
  await expect(conflict).toContainText('활력 징후');
  await expect(otherGrid.getByRole('checkbox', { name: '추적 방문의 인구학' })).toBeDisabled();
  expect.soft(await axeViolations(other), 'designer conflict').toEqual([]);
  await screenshot(other, testInfo, 'designer-conflict-ko-1440');

  await conflict.getByRole('button', { name: '관리자 님의 초안 가져오기' }).click();
  await expect(conflict).toBeHidden();
  await expect(otherGrid.getByRole('checkbox', { name: '추적 방문의 활력 징후' })).toBeChecked();
  await expect(otherGrid.getByRole('checkbox', { name: '선별 방문의 활력 징후' })).not.toBeChecked();
  await expect(other.getByRole('status').filter({ hasText: /초안 저장됨 · 개정 1 · / })).toBeVisible();

  // It goes on from the first tab's draft: the next save is revision 2.
  await otherGrid.getByRole('checkbox', { name: '선별 방문의 활력 징후' }).check();
  await expect(other.getByRole('status').filter({ hasText: /초안 저장됨 · 개정 2 · / })).toBeVisible();

  // The mouse moves a visit too: its grip dropped on the first visit's header (issue 48 item 6).
  const visitHeader = (name: string) => otherGrid.getByRole('columnheader').filter({ hasText: name });
  await visitHeader('추적 방문')
    .locator('[draggable="true"]')
    .dragTo(visitHeader('선별 방문').locator('div[id^="designer-visit-"]'));
  await expect(otherGrid.getByRole('columnheader').nth(1)).toContainText('추적 방문');
  await expect(other.getByRole('status').filter({ hasText: /초안 저장됨 · 개정 3 · / })).toBeVisible();
  await screenshot(other, testInfo, 'designer-schedule-ko-1440');

  // The study settings: the unscheduled visit gets its first form.
  await other.getByRole('button', { name: '임상시험 설정' }).click();
  const unscheduled = other.getByRole('region', { name: '비정기 방문' });
  await unscheduled.getByRole('checkbox', { name: '인구학' }).check();
  await expect(unscheduled.getByLabel('이름 (한국어)')).toHaveValue('비정기 방문');
  await expect(other.getByRole('status').filter({ hasText: /초안 저장됨 · 개정 4 · / })).toBeVisible();
  // A role: registration, at the first visit, read from the demographics form.
  const roles = other.getByRole('region', { name: '역할' });
  await roles.getByText('등록', { exact: true }).click();
  await roles.getByRole('checkbox', { name: '등록 역할 사용' }).check();
  await roles.getByLabel('방문', { exact: true }).selectOption({ label: '선별 방문 (V1)' });
  await roles.getByLabel('양식', { exact: true }).selectOption({ label: '인구학 (demo)' });
  await expect
    .poll(async () => {
      const answer = (await (await other.request.get(`/api/studies/${studyId}/design-draft`)).json()) as {
        draft: { definition?: { roles?: unknown } } | null;
      };
      return answer.draft?.definition?.roles;
    })
    .toEqual({ registration: { visit: 'V1', form: 'demo' } });
  expect.soft(await axeViolations(other), 'designer settings').toEqual([]);
  for (const width of [1440, 1000]) {
    await other.setViewportSize({ width, height: 900 });
    await screenshot(other, testInfo, `designer-settings-ko-${width}`);
  }
  await otherContext.close();
});
