import { evaluateExpression, type ItemDefinition, type StudyDefinition } from '@cdms/study';
import tmp2026 from '../../packages/study/definitions/tm-perforation.json' with { type: 'json' };
import { DEMO_PASSWORD, demoAccount, logInAs } from '../support/auth.ts';
import { e2eServer } from '../support/servers.ts';
import { expect, test } from '../support/test.ts';

const tmp = tmp2026 as unknown as StudyDefinition;

/** A TMP-2026 item, for its expressions and range (the study built here copies them by hand). */
function tmpItem(formKey: string, itemKey: string): ItemDefinition {
  const form = tmp.forms.find((candidate) => candidate.key === formKey);
  const item = form?.sections
    .flatMap((section) => section.items)
    .find((candidate) => candidate.key === itemKey);
  if (!item) throw new Error(`TMP-2026 has no ${formKey}.${itemKey}`);
  return item;
}

/**
 * Issue 48 item 10, in part: a study designed in the browser from an empty design — a registration
 * role, the demographics' derived age, the body measurements' BMI and the pure-tone average with its
 * band written as TMP-2026 writes them, a hard check — published, taken live with the administrator's signature, and entered by a
 * coordinator, whose derived values and range query are those TMP-2026's engine gives on the same input.
 */
test('a study designed in the browser from empty is published, goes live and takes a subject’s data', async ({
  page,
  browser,
  consoleGuard,
}, testInfo) => {
  test.setTimeout(180_000);
  const admin = demoAccount('ADMIN');
  const coordinator = demoAccount('CRC');
  await logInAs(page, admin);
  const { csrfToken } = (await (await page.request.get('/api/auth/me')).json()) as { csrfToken: string };
  const code = `DE-${Date.now().toString(36).slice(-5)}`;
  const created = await page.request.post('/api/admin/studies', {
    headers: { 'x-csrf-token': csrfToken },
    data: {
      code,
      protocolNumber: `${code}-01`,
      titleKo: '설계부터 입력까지',
      titleEn: 'From design to data entry',
      sponsor: '',
      kind: 'observational',
      content: '',
      randomizationEnabled: false,
      sites: [{ code: 'DE01', name: '설계대학교병원', institutionNumber: '77' }],
      members: [{ email: coordinator.email, role: 'CRC', siteCodes: ['DE01'] }],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const studyId = ((await created.json()) as { id: number }).id;

  // The design, from an empty one: one visit and one form, filled in the form editor.
  consoleGuard.allowFailedRequest(
    `/api/studies/${studyId}/definition`,
    404,
    'a study with no design yet has none',
  );
  await page.goto(`/design/${studyId}`);
  await page.getByRole('button', { name: '빈 설계에서 시작' }).click();
  await page.getByRole('button', { name: '양식 1 항목 편집' }).click();
  const addItem = page.getByRole('form', { name: '항목 추가' });
  async function add(type: string, key: string, ko: string, en: string) {
    await addItem.getByLabel('유형').selectOption({ label: type });
    await addItem.getByLabel('키', { exact: true }).fill(key);
    await addItem.getByLabel('이름 (한국어)').fill(ko);
    await addItem.getByLabel('이름 (영어)').fill(en);
    await addItem.getByRole('button', { name: '항목 추가' }).click();
    return page.getByRole('region', { name: `${key} 속성` });
  }
  await add('날짜', 'consentDate', '동의일', 'Consent date');
  await add('날짜', 'birthDate', '생년월일', 'Date of birth');
  const age = await add('정수', 'age', '나이', 'Age');
  await age.getByLabel('계산식').fill('yearsBetween(birthDate, consentDate)');
  await add('소수', 'height', '신장', 'Height');
  await add('소수', 'weight', '체중', 'Weight');
  const bmi = await add('소수', 'bmi', '체질량지수', 'Body mass index');
  const tmpBmi = tmpItem('bodyMeasurement', 'bmi');
  await bmi.getByLabel('예상 최솟값').fill(String(tmpBmi.min));
  await bmi.getByLabel('예상 최댓값').fill(String(tmpBmi.max));
  await bmi
    .getByLabel('계산식')
    .fill('if(weight > 0 and height > 0, round(weight / (height / 100 * (height / 100)), 1), null)');
  await expect(bmi.getByText('고치기 전에는 적용되지 않습니다:')).toBeHidden();
  await page.getByRole('button', { name: /^생년월일\s*birthDate/ }).click();
  const birthChecks = page.getByRole('region', { name: 'birthDate 검사' });
  await birthChecks.getByRole('button', { name: '검사 추가' }).click();
  await birthChecks.getByLabel('심각도').selectOption({ label: '저장 거부' });
  await birthChecks.getByLabel('실패 조건').fill('birthDate > consentDate');
  await birthChecks.getByLabel('메시지 (한국어)').fill('생년월일이 동의일보다 이후입니다.');
  await birthChecks.getByLabel('메시지 (영어)').fill('The date of birth is later than the consent date.');

  // The pure-tone average and its band, over a code list copied from TMP-2026's.
  const severityItem = tmpItem('ptaTest', 'airSeverity');
  const severityCodes = tmp.codeLists.find((list) => list.key === severityItem.codeList)?.codes ?? [];
  await page.getByRole('button', { name: '일정표로 돌아가기' }).click();
  await page.getByRole('button', { name: '코드 목록', exact: true }).click();
  const addList = page.getByRole('form', { name: '코드 목록 추가' });
  await addList.getByLabel('키', { exact: true }).fill('hearingSeverity');
  await addList.getByRole('button', { name: '코드 목록 추가' }).click();
  const severityList = page.getByRole('region', { name: '코드 목록 hearingSeverity' });
  for (const [index, entry] of severityCodes.entries()) {
    if (index > 0) await severityList.getByRole('button', { name: '코드 추가' }).click();
    const row = `hearingSeverity 코드 ${index + 1}`;
    await severityList.getByLabel(`${row}: 코드`).fill(entry.code);
    await severityList.getByLabel(`${row}: 이름 (한국어)`).fill(entry.label.ko);
    await severityList.getByLabel(`${row}: 이름 (영어)`).fill(entry.label.en);
  }
  await page.getByRole('button', { name: '일정표로 돌아가기' }).click();
  await page.getByRole('button', { name: '양식 1 항목 편집' }).click();
  for (const hertz of [500, 1000, 2000, 4000])
    await add('정수', `air${hertz}`, `기도 ${hertz}Hz`, `Air ${hertz} Hz`);
  const average = await add('소수', 'airAverage', '기도 평균', 'Air average');
  await average
    .getByLabel('계산식')
    .fill(
      'if(notEmpty(air500) and notEmpty(air1000) and notEmpty(air2000) and notEmpty(air4000), round(avg(air500, air1000, air2000, air4000), 1), null)',
    );
  const severity = await add('단일 선택', 'airSeverity', '난청 정도', 'Hearing loss severity');
  await severity
    .getByLabel('계산식')
    .fill(
      'band(round(airAverage, 0); -10..15: "001", 16..25: "002", 26..40: "003", 41..55: "004", 56..70: "005", 71..90: "006", 91..: "007")',
    );
  await expect(severity.getByText('고치기 전에는 적용되지 않습니다:')).toBeHidden();

  // The registration role: a new subject's consent date is written to this form.
  await page.getByRole('button', { name: '일정표로 돌아가기' }).click();
  await page.getByRole('button', { name: '임상시험 설정' }).click();
  const roles = page.getByRole('region', { name: '역할' });
  await roles.getByText('등록', { exact: true }).click();
  await roles.getByRole('checkbox', { name: '등록 역할 사용' }).check();
  await roles.getByLabel('방문', { exact: true }).selectOption({ label: '방문 1 (V1)' });
  await roles.getByLabel('양식', { exact: true }).selectOption({ label: '양식 1 (F1)' });
  await roles.getByLabel('동의일', { exact: true }).selectOption({ label: '동의일 (consentDate)' });

  await expect(page.getByRole('status').filter({ hasText: /초안 저장됨 · 개정 \d+ · / })).toBeVisible();
  await page.getByRole('button', { name: '배포', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: '배포했습니다. 버전 0.1.0' })).toBeVisible();

  // Live, with the administrator's signature.
  await page.goto('/admin/studies');
  const studyRow = page.getByRole('row').filter({ hasText: code });
  await studyRow.getByRole('button', { name: `${code} 운영 개시` }).click();
  const goLive = page.getByRole('dialog', { name: `${code} 운영 개시` });
  await goLive.getByLabel('본인 비밀번호').fill(DEMO_PASSWORD);
  await goLive.getByRole('button', { name: '서명하고 운영 개시' }).click();
  await expect(goLive).toHaveCount(0);
  await expect(studyRow).toContainText('운영 중');

  // The coordinator registers a subject and enters the form.
  const context = await browser.newContext({
    baseURL: e2eServer().baseUrl,
    locale: 'ko-KR',
    timezoneId: 'Asia/Seoul',
  });
  const crc = await context.newPage();
  await logInAs(crc, coordinator);
  const me = (await (await crc.request.get('/api/auth/me')).json()) as {
    csrfToken: string;
    memberships: { studyId: number; sites: { id: number }[] }[];
  };
  const site = me.memberships.find((membership) => membership.studyId === studyId)?.sites[0];
  if (!site) throw new Error('the coordinator has no site in the new study');
  const registered = await crc.request.post(`/api/studies/${studyId}/subjects`, {
    headers: { 'x-csrf-token': me.csrfToken },
    data: { siteId: site.id, consentDate: '2026-12-01', initials: 'DSG' },
  });
  expect(registered.status(), await registered.text()).toBe(201);
  const subject = (await registered.json()) as { id: number; subjectId: string };
  await crc.goto(
    `/subject-list/subject/subject-detail/${studyId}?subject-id=${subject.subjectId}&subject-pk=${subject.id}&depth-1=V1&depth-2=F1`,
  );
  const form = crc.locator('[data-form="F1"]');
  await expect(form.getByRole('textbox', { name: /^동의일/ })).toHaveValue('2026-12-01');

  // The same input through TMP-2026's own expressions gives the values the built study shows.
  const input = { birthDate: '1980-06-15', height: 170, weight: 125 };
  const tmpData = {
    consentScreening: { consentScreening: { consentDate: '2026-12-01' } },
    v1: {
      demographicInfo: { birthDate: input.birthDate },
      bodyMeasurement: { height: input.height, weight: input.weight },
    },
  };
  const expected = (formKey: string, itemKey: string) =>
    String(
      evaluateExpression(tmpItem(formKey, itemKey).derive, {
        data: tmpData,
        visitKey: 'v1',
        formKey,
        today: '2026-12-07',
      }),
    );
  await form.getByRole('textbox', { name: /^생년월일/ }).fill(input.birthDate);
  await form.getByRole('textbox', { name: /^신장/ }).fill(String(input.height));
  await form.getByRole('textbox', { name: /^체중/ }).fill(String(input.weight));
  await expect(form.getByRole('textbox', { name: /^나이/ })).toHaveValue(expected('demographicInfo', 'age'));
  await expect(form.getByRole('textbox', { name: /^체질량지수/ })).toHaveValue(
    expected('bodyMeasurement', 'bmi'),
  );
  const thresholds = { air500: 35, air1000: 40, air2000: 45, air4000: 55 };
  for (const [key, value] of Object.entries(thresholds))
    await form.getByRole('textbox', { name: new RegExp(`^기도 ${key.slice(3)}Hz`) }).fill(String(value));
  const ptaData = { ...tmpData, v1: { ...tmpData.v1, ptaTest: { ...thresholds } } };
  const tmpAverage = evaluateExpression(tmpItem('ptaTest', 'airAverage').derive, {
    data: ptaData,
    visitKey: 'v1',
    formKey: 'ptaTest',
    today: '2026-12-07',
  });
  const tmpSeverity = evaluateExpression(severityItem.derive, {
    data: { ...ptaData, v1: { ...ptaData.v1, ptaTest: { ...thresholds, airAverage: tmpAverage } } },
    visitKey: 'v1',
    formKey: 'ptaTest',
    today: '2026-12-07',
  });
  await expect(form.getByRole('textbox', { name: /^기도 평균/ })).toHaveValue(String(tmpAverage));
  // A derived choice shows its code's label.
  expect(tmpSeverity).toBe('004');
  const severityLabel = severityCodes.find((entry) => entry.code === tmpSeverity)?.label.ko ?? '';
  await expect(form.getByRole('textbox', { name: /^난청 정도/ })).toHaveValue(severityLabel);
  // Above TMP-2026's BMI range (its max, copied): the range query, as TMP-2026 raises it.
  expect(Number(expected('bodyMeasurement', 'bmi'))).toBeGreaterThan(tmpBmi.max ?? 0);
  await expect(form.getByText(/허용 범위\(.*40.*\)를 벗어났습니다/).first()).toBeVisible();
  // The hard check written in the designer refuses a birth date after the consent.
  await form.getByRole('textbox', { name: /^생년월일/ }).fill('2027-01-01');
  await expect(form.getByText('생년월일이 동의일보다 이후입니다.').first()).toBeVisible();
  await form.getByRole('textbox', { name: /^생년월일/ }).fill(input.birthDate);
  await expect(form.getByText('생년월일이 동의일보다 이후입니다.')).toHaveCount(0);
  await crc.screenshot({ path: testInfo.outputPath('designed-study-entry-ko-1440.png'), fullPage: true });
  await crc.getByRole('button', { name: '저장', exact: true }).click();
  await expect(crc.getByText('저장했습니다.', { exact: true }).first()).toBeVisible();
  await context.close();
});
