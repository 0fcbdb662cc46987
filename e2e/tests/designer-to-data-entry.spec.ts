import {
  addDays,
  type CheckDefinition,
  choiceDisplay,
  evaluateSubject,
  type FormDefinition,
  formatExpression,
  getItemCodes,
  type ItemDefinition,
  parsePhotoReference,
  type SectionDefinition,
  type StudyDefinition,
  sectionsForVisit,
} from '@cdms/study';
import type { Locator, Page } from '@playwright/test';
import tmp2026 from '../../packages/study/definitions/tm-perforation.json' with { type: 'json' };
import { DEMO_PASSWORD, demoAccount, logInAs } from '../support/auth.ts';
import { axeViolations } from '../support/axe.ts';
import { drawnPhoto } from '../support/photos.ts';
import { e2eServer } from '../support/servers.ts';
import { expect, test } from '../support/test.ts';

/**
 * Issue 48 item 10: a designer builds TMP-2026's screening visit in the browser from an empty design,
 * previews it, publishes it, takes it live, and a coordinator enters a subject whose derived values and
 * queries are the ones TMP-2026's own definition gives on the same input.
 *
 * What is built, copied from TMP-2026 through the designer's fields only: the consent form at the consent
 * visit, and at V1 the visit date with its warning, the demographics with the derived age and the hard
 * check, the body measurements with the BMI, the eardrum photo with its derived percent, the pure-tone
 * audiometry with its averages and band, and the inclusion/exclusion evaluation with its 25 cross-checks —
 * each of these forms whole, as TMP-2026 lays it out at V1 (items, sections, rules, checks). The cross-checks
 * read six other V1 forms; those are built with only the items they read. The settings: the parameters, the
 * visit date, and the registration, eligibility and audiogram roles (the treated ear included). Not built: the evaluation's routing
 * outcome (it opens the end-of-study form, which is not part of the screening visit).
 */

const tmp = tmp2026 as unknown as StudyDefinition;

// A long test of many short steps: a step that cannot happen fails in seconds, not at the test's end.
test.use({ actionTimeout: 15_000 });

const WHOLE_FORMS = [
  'consentScreening',
  'visitDay',
  'demographicInfo',
  'bodyMeasurement',
  'tympanicPhoto',
  'ptaTest',
  'inclusionExclusionEval',
];
/** The forms the cross-checks read, with the items they read (and the audiogram's treated ear). */
const ITEMS_READ: Record<string, string[]> = {
  diseaseBasicInfo: ['applicationSite', 'earDischarge'],
  physicalExam: ['nd'],
  vitalSigns: ['nd'],
  labTest: ['nd', 'egfrResult'],
  pregnancyTest: ['result'],
  otoscopyEndoscopy: ['nd', 'otorrhea'],
};
const PARTIAL_ITEM_FIELDS = ['key', 'type', 'label', 'codeList', 'display', 'unit', 'decimals', 'required'];

const visitOf = (formKey: string) => (formKey === 'consentScreening' ? 'consentScreening' : 'v1');
const tmpVisit = (key: string) =>
  tmp.visits.find((visit) => visit.key === key) as StudyDefinition['visits'][0];
const tmpForm = (key: string) => tmp.forms.find((form) => form.key === key) as FormDefinition;

/** A TMP-2026 form as the built study should have it: the V1 layout (whole, or the items read). */
function blueprint(formKey: string): FormDefinition {
  const form = tmpForm(formKey);
  const sections = sectionsForVisit(form, visitOf(formKey));
  if (WHOLE_FORMS.includes(formKey)) {
    return { key: form.key, label: form.label, sections, ...(form.checks ? { checks: form.checks } : {}) };
  }
  const read = ITEMS_READ[formKey] ?? [];
  const partial: SectionDefinition[] = sections
    .filter((section) => section.items.some((item) => read.includes(item.key)))
    .map((section) => ({
      key: section.key,
      label: section.label,
      ...(section.notDoneItem && read.includes(section.notDoneItem)
        ? { notDoneItem: section.notDoneItem }
        : {}),
      items: section.items
        .filter((item) => read.includes(item.key))
        .map(
          (item) =>
            Object.fromEntries(
              Object.entries(item).filter(([field]) => PARTIAL_ITEM_FIELDS.includes(field)),
            ) as ItemDefinition,
        ),
    }));
  return { key: form.key, label: form.label, sections: partial };
}

/** The built forms in TMP-2026's order at each visit. */
const BUILT_KEYS = [
  ...(tmpVisit('consentScreening').forms ?? []),
  ...tmpVisit('v1').forms.filter((key) => WHOLE_FORMS.includes(key) || key in ITEMS_READ),
];
const BUILT = BUILT_KEYS.map(blueprint);
const builtItem = (formKey: string, itemKey: string) =>
  BUILT.find((form) => form.key === formKey)
    ?.sections.flatMap((section) => section.items)
    .find((item) => item.key === itemKey) as ItemDefinition;

/** The code lists and parameters the built forms use, copied from TMP-2026. */
const CODE_LISTS = tmp.codeLists.filter((list) =>
  BUILT.some((form) =>
    form.sections.some((section) => section.items.some((item) => item.codeList === list.key)),
  ),
);
const EXPRESSION_TEXT = BUILT.flatMap((form) => [
  ...form.sections.flatMap((section) =>
    section.items.flatMap((item) => [item.derive, item.showWhen, item.requiredWhen]),
  ),
  ...(form.checks ?? []).map((check) => check.when),
])
  .filter((expression) => expression !== undefined)
  .map((expression) => formatExpression(expression))
  .join(' ');
const PARAMETERS = Object.entries(tmp.parameters ?? {}).filter(([key]) =>
  EXPRESSION_TEXT.includes(`$${key}`),
);

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** What the built study is compared with: display defaults written out, check ids (the designer numbers its own) left out. */
function comparable(form: FormDefinition) {
  return {
    key: form.key,
    label: form.label,
    sections: form.sections.map((section) => ({
      ...section,
      items: section.items.map((item) => {
        const { display: _display, ...rest } = item;
        const display = choiceDisplay(item);
        return display ? { ...rest, display } : rest;
      }),
    })),
    checks: (form.checks ?? []).map(({ id: _id, ...check }) => check),
  };
}

// ---------------------------------------------------------------------------------------------
// The designer's fields, as a person fills them

async function setNumber(region: Locator, label: string, value: number | undefined) {
  await region.getByLabel(label, { exact: true }).fill(value === undefined ? '' : String(value));
}

async function setFlag(region: Locator, label: string, on: boolean | undefined) {
  await region.getByRole('checkbox', { name: label, exact: true }).setChecked(on === true);
}

async function setExpression(region: Locator, label: string, expression: unknown) {
  if (expression === undefined) return;
  await region.getByLabel(label, { exact: true }).fill(formatExpression(expression as never));
}

/** Every property of a TMP-2026 item set in its properties region; a property the test does not know fails it. */
async function setItemProperties(region: Locator, item: ItemDefinition) {
  for (const field of Object.keys(item)) {
    switch (field) {
      case 'key':
      case 'type':
      case 'label':
      case 'derive':
      case 'showWhen':
      case 'requiredWhen':
        break; // at its addition, and the expressions once every item of the form exists
      case 'help':
        await region.getByLabel('도움말 (한국어)').fill(item.help?.ko ?? '');
        await region.getByLabel('도움말 (영어)').fill(item.help?.en ?? '');
        break;
      case 'unit':
        await region.getByLabel('단위', { exact: true }).fill(item.unit ?? '');
        break;
      case 'decimals':
      case 'min':
      case 'max':
      case 'hardMin':
      case 'hardMax':
      case 'maxLength':
        break; // below, as numbers
      case 'codeList':
        await region
          .getByRole('combobox', { name: '코드 목록', exact: true })
          .selectOption(item.codeList ?? '');
        break;
      case 'display':
        await region
          .getByRole('combobox', { name: '표시 방식', exact: true })
          .selectOption(item.display ?? '');
        break;
      case 'required':
      case 'notFuture':
      case 'readOnly':
      case 'critical':
      case 'personalData':
        break; // below, as flags
      default:
        throw new Error(`the test cannot set ${item.key}.${field} in the designer`);
    }
  }
  if (item.type === 'decimal') await setNumber(region, '소수 자릿수', item.decimals);
  if (item.type === 'integer' || item.type === 'decimal') {
    await setNumber(region, '예상 최솟값', item.min);
    await setNumber(region, '예상 최댓값', item.max);
    await setNumber(region, '허용 최솟값', item.hardMin);
    await setNumber(region, '허용 최댓값', item.hardMax);
  }
  if (item.type === 'text' || item.type === 'textarea') await setNumber(region, '최대 길이', item.maxLength);
  await setFlag(region, '필수', item.required);
  if (item.type === 'date') await setFlag(region, '오늘 이후 불가', item.notFuture);
  await setFlag(region, '시스템이 입력', item.readOnly);
  await setFlag(region, '핵심 항목 (항상 SDV)', item.critical);
  await setFlag(region, '개인정보 (비식별 반출에서 가림)', item.personalData);
}

const TYPE_NAMES: Record<string, string> = {
  text: '텍스트',
  textarea: '긴 텍스트',
  integer: '정수',
  decimal: '소수',
  date: '날짜',
  yesNo: '예/아니오',
  singleChoice: '단일 선택',
  checkbox: '체크박스',
  photo: '사진',
  tracing: '사진 위 표시',
};

async function buildForm(page: Page, form: FormDefinition) {
  await page.getByRole('button', { name: `${form.label.ko} 항목 편집`, exact: true }).click();
  await expect(page.getByRole('heading', { name: `${form.label.ko} 키 ${form.key}` })).toBeVisible();
  const addSection = page.getByRole('form', { name: '구역 추가' });
  for (const section of form.sections) {
    await addSection.getByLabel('키', { exact: true }).fill(section.key);
    await addSection.getByLabel('이름 (한국어)').fill(section.label.ko);
    await addSection.getByLabel('이름 (영어)').fill(section.label.en);
    await addSection.getByRole('button', { name: '구역 추가' }).click();
  }
  // The section every new form starts with goes, now that the form has its own.
  await page.getByRole('button', { name: '구역 기본 삭제' }).click();

  const addItem = page.getByRole('form', { name: '항목 추가' });
  for (const section of form.sections) {
    for (const item of section.items) {
      await addItem
        .getByRole('combobox', { name: '구역', exact: true })
        .selectOption({ label: section.label.ko });
      const typeName = TYPE_NAMES[item.type];
      if (!typeName) throw new Error(`the test has no type name for ${item.type}`);
      await addItem.getByRole('combobox', { name: '유형', exact: true }).selectOption({ label: typeName });
      await addItem.getByLabel('키', { exact: true }).fill(item.key);
      await addItem.getByLabel('이름 (한국어)').fill(item.label.ko);
      await addItem.getByLabel('이름 (영어)').fill(item.label.en);
      await addItem.getByRole('button', { name: '항목 추가' }).click();
      await setItemProperties(page.getByRole('region', { name: `${item.key} 속성` }), item);
    }
  }
  // Expressions and checks once every item they may name exists.
  const selectItem = async (item: ItemDefinition) => {
    await page
      .getByRole('button', { name: new RegExp(`^${escapeRegExp(item.label.ko)}\\s*${item.key} ·`) })
      .click();
    return page.getByRole('region', { name: `${item.key} 속성` });
  };
  for (const item of form.sections.flatMap((section) => section.items)) {
    if (!item.derive && !item.showWhen && !item.requiredWhen) continue;
    const region = await selectItem(item);
    await setExpression(region, '필수 조건', item.requiredWhen);
    await setExpression(region, '표시 조건', item.showWhen);
    await setExpression(region, '계산식', item.derive);
    await expect(region.getByText('고치기 전에는 적용되지 않습니다:')).toHaveCount(0);
  }
  for (const section of form.sections) {
    if (!section.help && !section.showWhen && !section.notDoneItem) continue;
    await page.getByRole('button', { name: `${section.label.ko} 키 ${section.key}`, exact: true }).click();
    const region = page.getByRole('region', { name: `구역 ${section.key}` });
    if (section.help) {
      await region.getByLabel('도움말 (한국어)').fill(section.help.ko);
      await region.getByLabel('도움말 (영어)').fill(section.help.en);
    }
    await setExpression(region, '표시 조건', section.showWhen);
    if (section.notDoneItem)
      await region
        .getByRole('combobox', { name: '"시행 안 함"을 표시하는 체크박스', exact: true })
        .selectOption(section.notDoneItem);
  }
  for (const check of form.checks ?? []) {
    await selectItem(builtItem(form.key, check.item));
    await addCheck(page, check);
  }
  await page.getByRole('button', { name: '일정표로 돌아가기' }).click();
}

async function addCheck(page: Page, check: CheckDefinition) {
  const checks = page.getByRole('region', { name: `${check.item} 검사` });
  await checks.getByRole('button', { name: '검사 추가' }).click();
  const fields = checks
    .getByRole('group')
    .filter({ has: page.getByRole('combobox', { name: '심각도', exact: true }) })
    .last();
  await fields.getByRole('combobox', { name: '심각도', exact: true }).selectOption(check.severity);
  await fields.getByLabel('실패 조건').fill(formatExpression(check.when));
  await expect(fields.getByText('고치기 전에는 적용되지 않습니다:')).toHaveCount(0);
  for (const visit of check.visits ?? [])
    await fields.getByRole('checkbox', { name: tmpVisit(visit).label.ko, exact: true }).check();
  await fields.getByLabel('메시지 (한국어)').fill(check.message.ko);
  await fields.getByLabel('메시지 (영어)').fill(check.message.en);
}

// ---------------------------------------------------------------------------------------------
// Data entry, as a coordinator types it

/** Today in UTC+9, the study's day. */
const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Seoul' }).format(new Date());
const consentDate = addDays(today, -6) as string;

/** What the coordinator enters, form by form: chosen so that many of TMP-2026's checks fire. */
const INPUT: Record<string, Record<string, string | number | boolean>> = {
  // A day before the consent, and before today: the visit date's query and its warning.
  visitDay: { visitDate: addDays(today, -7) as string, queryRadio: '001' },
  demographicInfo: { birthDate: '1980-06-15', gender: 'F' },
  // The right ear to be treated (the audiogram's treated ear); ear discharge while eligible: a
  // re-confirmation query on the evaluation.
  diseaseBasicInfo: { applicationSite: 'R', earDischarge: 'Y' },
  // A BMI above TMP-2026's range: the range query.
  bodyMeasurement: { measurementDate: addDays(today, -7) as string, height: 170, weight: 125 },
  // Not done while eligible: a re-confirmation query.
  physicalExam: { nd: true },
  // An eGFR under the threshold while exclusion 5 is answered "no".
  labTest: { egfrResult: 25 },
  // A positive test while exclusion 6 is answered "no".
  pregnancyTest: { result: 'positive' },
  otoscopyEndoscopy: { otorrhea: 'N' },
  // Diameters typed (no tracing): 77.8 %, outside the 20–60 % of inclusion 3.
  tympanicPhoto: { totalDiameter: 9, perforationDiameter: 7 },
  ptaTest: {
    air500: 35,
    air1000: 40,
    air2000: 45,
    air4000: 55,
    bone500: 20,
    bone1000: 25,
    bone2000: 30,
    bone4000: 35,
  },
  inclusionExclusionEval: {
    eligible: 'Y',
    inc01: 'Y',
    inc02: 'Y',
    inc03: 'Y',
    inc04: 'Y',
    exc01: 'Y',
    exc02: 'N',
    exc03: 'N',
    exc04: 'N',
    exc05: 'N',
    exc06: 'N',
    exc07: 'N',
    exc08: 'N',
    exc09: 'N',
  },
};

async function enterValues(scope: Locator, definition: StudyDefinition, formKey: string) {
  for (const [key, value] of Object.entries(INPUT[formKey] ?? {})) {
    const item = builtItem(formKey, key);
    const field = scope.locator(`[data-item="${key}"]`);
    if (item.type === 'checkbox') {
      // A section's "not done" checkbox sits in the section's heading, named by its label.
      const notDone = BUILT.find((form) => form.key === formKey)?.sections.some((s) => s.notDoneItem === key);
      const box = notDone
        ? scope.getByRole('checkbox', { name: item.label.ko, exact: true })
        : field.getByRole('checkbox');
      await box.setChecked(value === true);
    } else if (item.type === 'yesNo' || item.type === 'singleChoice') {
      const label = getItemCodes(definition, item).find((code) => code.code === value)?.label.ko ?? '';
      if (choiceDisplay(item) === 'radio')
        await field.getByRole('radio', { name: label, exact: true }).check();
      else await field.getByRole('combobox').selectOption({ label });
    } else {
      await field.getByRole('textbox').fill(String(value));
    }
  }
}

interface SavedForm {
  values: Record<string, unknown>;
  derived: Record<string, unknown>;
  version: number;
  queries: { itemPath: string; kind: string; status: string; message: { ko: string } }[];
}

test('a designer builds TMP-2026’s screening visit from an empty design; a coordinator’s subject gets TMP-2026’s derived values and queries', async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(420_000);
  await page.setViewportSize({ width: 1440, height: 1000 });
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

  // ---- The schedule: TMP-2026's consent visit and V1, the forms ticked where TMP-2026 has them.
  await page.goto(`/design/${studyId}`);
  await page.getByRole('button', { name: '빈 설계에서 시작' }).click();
  const grid = page.getByRole('table', { name: /방문별 양식 일정/ });
  for (const key of ['consentScreening', 'v1']) {
    const visit = tmpVisit(key);
    await page.getByRole('button', { name: '방문 추가' }).click();
    const dialog = page.getByRole('dialog', { name: '방문 추가' });
    await dialog.getByLabel('키').fill(visit.key);
    await dialog.getByLabel('이름 (한국어)').fill(visit.label.ko);
    await dialog.getByLabel('이름 (영어)').fill(visit.label.en);
    await dialog.getByLabel('방문 구분').selectOption(visit.group ?? '');
    await dialog.getByRole('button', { name: '적용' }).click();
    await expect(dialog).toBeHidden();
  }
  for (const form of BUILT) {
    await page.getByRole('button', { name: '양식 추가' }).click();
    const dialog = page.getByRole('dialog', { name: '양식 추가' });
    await dialog.getByLabel('키').fill(form.key);
    await dialog.getByLabel('이름 (한국어)').fill(form.label.ko);
    await dialog.getByLabel('이름 (영어)').fill(form.label.en);
    await dialog.getByRole('button', { name: '적용' }).click();
    await expect(dialog).toBeHidden();
    const visit = tmpVisit(visitOf(form.key));
    await grid.getByRole('checkbox', { name: `${visit.label.ko}의 ${form.label.ko}`, exact: true }).check();
  }
  // The empty design's own visit and form go.
  await grid.getByRole('button', { name: '양식 1 삭제' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: '삭제' }).click();
  await grid.getByRole('button', { name: '방문 1 삭제' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: '삭제' }).click();
  await expect(grid.getByRole('columnheader')).toHaveCount(3);

  // ---- Code lists and parameters, before the items that use them.
  await page.getByRole('button', { name: '코드 목록', exact: true }).click();
  const addList = page.getByRole('form', { name: '코드 목록 추가' });
  for (const list of CODE_LISTS) {
    await addList.getByLabel('키', { exact: true }).fill(list.key);
    await addList.getByRole('button', { name: '코드 목록 추가' }).click();
    const region = page.getByRole('region', { name: `코드 목록 ${list.key}` });
    for (const [index, entry] of list.codes.entries()) {
      if (index > 0) await region.getByRole('button', { name: '코드 추가' }).click();
      const row = `${list.key} 코드 ${index + 1}`;
      await region.getByLabel(`${row}: 코드`).fill(entry.code);
      await region.getByLabel(`${row}: 이름 (한국어)`).fill(entry.label.ko);
      await region.getByLabel(`${row}: 이름 (영어)`).fill(entry.label.en);
    }
  }
  await page.getByRole('button', { name: '일정표로 돌아가기' }).click();
  await page.getByRole('button', { name: '임상시험 설정' }).click();
  const parameters = page.getByRole('region', { name: '매개변수' });
  const addParameter = parameters.getByRole('form', { name: '매개변수 추가' });
  for (const [key, parameter] of PARAMETERS) {
    await addParameter.getByLabel('키', { exact: true }).fill(key);
    await addParameter.getByRole('button', { name: '매개변수 추가' }).click();
    await parameters.getByLabel(`${key}: 값`).fill(String(parameter.value));
    await parameters.getByLabel(`${key}: 이름 (한국어)`).fill(parameter.label.ko);
    await parameters.getByLabel(`${key}: 이름 (영어)`).fill(parameter.label.en);
  }
  await page.getByRole('button', { name: '일정표로 돌아가기' }).click();

  // ---- The forms, item by item (the consent form first: the others' expressions name its consent date).
  for (const form of BUILT) await buildForm(page, form);

  // ---- The preview of the evaluation: an exclusion answered "yes" while eligible raises its query.
  await page.getByRole('button', { name: `${tmpForm('inclusionExclusionEval').label.ko} 항목 편집` }).click();
  const preview = page.getByRole('region', { name: '미리 보기' });
  await preview.locator('[data-item="eligible"]').getByRole('radio', { name: '예', exact: true }).check();
  await preview.locator('[data-item="exc01"]').getByRole('radio', { name: '예', exact: true }).check();
  await expect(preview.getByText('제외기준에 해당하나 적합 여부가 "예"입니다.').first()).toBeVisible();
  expect.soft(await axeViolations(page), 'the evaluation in the form editor').toEqual([]);
  for (const width of [1440, 1000]) {
    await page.setViewportSize({ width, height: 1000 });
    await page.screenshot({
      path: testInfo.outputPath(`designer-eligibility-ko-${width}.png`),
    });
  }
  await page.getByRole('button', { name: '일정표로 돌아가기' }).click();

  // ---- Study settings: the visit date, and the registration and eligibility roles.
  await page.getByRole('button', { name: '임상시험 설정' }).click();
  await page.getByLabel('방문일을 기록하는 양식').selectOption(tmp.visitDate?.form ?? '');
  await page.getByLabel('방문일 항목').selectOption(tmp.visitDate?.item ?? '');
  const roles = page.getByRole('region', { name: '역할' });
  const roleFieldLabels: Record<string, string> = {
    visit: '방문',
    form: '양식',
    item: '항목',
    consentDate: '동의일',
    initials: '이니셜',
    screeningNumber: '스크리닝 번호',
    decision: '적격 판정',
    inclusionSection: '선정기준 구역',
    exclusionSection: '제외기준 구역',
    rightCode: '우측 코드',
    leftCode: '좌측 코드',
  };
  async function chooseRoleFields(scope: Locator, fields: Record<string, string>) {
    for (const [field, value] of Object.entries(fields)) {
      const label = roleFieldLabels[field];
      if (!label) throw new Error(`the test has no label for the role field ${field}`);
      // An optional field's name ends in "(선택)".
      await scope.getByRole('combobox', { name: new RegExp(`^${label}( \\(선택\\))?$`) }).selectOption(value);
    }
  }
  for (const [role, name] of [
    ['registration', '등록'],
    ['eligibility', '적격성'],
    ['audiogram', '청력도'],
  ] as const) {
    await roles.getByText(name, { exact: true }).click();
    await roles.getByRole('checkbox', { name: `${name} 역할 사용` }).check();
    const roleFields = roles
      .getByRole('group')
      .filter({ has: page.getByRole('checkbox', { name: `${name} 역할 사용` }) });
    const { treatedEar, ...fields } = (tmp.roles?.[role] ?? {}) as Record<string, string> & {
      treatedEar?: Record<string, string>;
    };
    await chooseRoleFields(roleFields, fields);
    // The audiogram's treated ear, a part of its role: the ear a singleChoice records, with its codes.
    if (treatedEar) {
      await roleFields.getByRole('checkbox', { name: '시험 귀 사용' }).check();
      await chooseRoleFields(roleFields.getByRole('group', { name: '시험 귀' }), treatedEar);
    }
  }
  for (const width of [1440, 1000]) {
    await page.setViewportSize({ width, height: 1000 });
    await roles.getByRole('group', { name: '시험 귀' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath(`designer-roles-ko-${width}.png`) });
  }
  await page.setViewportSize({ width: 1440, height: 1000 });
  await page.getByRole('button', { name: '일정표로 돌아가기' }).click();

  await expect(page.getByRole('status').filter({ hasText: /초안 저장됨 · 개정 \d+ · / })).toBeVisible({
    timeout: 15_000,
  });
  await page.getByRole('button', { name: '배포', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: '배포했습니다. 버전 0.1.0' })).toBeVisible();

  // What was published is TMP-2026's, field for field, as far as it was built.
  const published = (await (await page.request.get(`/api/studies/${studyId}/definition`)).json()) as {
    definition: StudyDefinition;
  };
  const built = published.definition;
  expect(built.visits.map((visit) => [visit.key, visit.forms])).toEqual([
    ['consentScreening', ['consentScreening']],
    ['v1', BUILT_KEYS.filter((key) => key !== 'consentScreening')],
  ]);
  expect(built.forms.map(comparable)).toEqual(BUILT.map(comparable));
  expect(built.codeLists).toEqual(CODE_LISTS);
  expect(built.parameters).toEqual(Object.fromEntries(PARAMETERS));
  expect(built.visitDate).toEqual(tmp.visitDate);
  expect(built.roles).toEqual({
    registration: tmp.roles?.registration,
    eligibility: tmp.roles?.eligibility,
    audiogram: tmp.roles?.audiogram,
  });
  const checkCount = (formKey: string) => built.forms.find((form) => form.key === formKey)?.checks?.length;
  expect(checkCount('inclusionExclusionEval')).toBe(25);

  // ---- Live, with the administrator's signature.
  await page.goto('/admin/studies');
  const studyRow = page.getByRole('row').filter({ hasText: code });
  await studyRow.getByRole('button', { name: `${code} 운영 개시` }).click();
  const goLive = page.getByRole('dialog', { name: `${code} 운영 개시` });
  await goLive.getByLabel('본인 비밀번호').fill(DEMO_PASSWORD);
  await goLive.getByRole('button', { name: '서명하고 운영 개시' }).click();
  await expect(goLive).toHaveCount(0);
  await expect(studyRow).toContainText('운영 중');

  // ---- The coordinator registers a subject and enters the screening visit.
  const context = await browser.newContext({
    baseURL: e2eServer().baseUrl,
    locale: 'ko-KR',
    timezoneId: 'Asia/Seoul',
    viewport: { width: 1440, height: 1000 },
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
    data: { siteId: site.id, consentDate, initials: 'DSG' },
  });
  expect(registered.status(), await registered.text()).toBe(201);
  const subject = (await registered.json()) as { id: number; subjectId: string };
  const formApi = (visitKey: string, formKey: string) =>
    `/api/studies/${studyId}/subjects/${subject.id}/forms/${visitKey}/${formKey}`;
  const savedForm = async (formKey: string) =>
    (await (await crc.request.get(formApi(visitOf(formKey), formKey))).json()) as SavedForm;

  for (const formKey of BUILT_KEYS.filter((key) => key in INPUT)) {
    await crc.goto(
      `/subject-list/subject/subject-detail/${studyId}?subject-id=${subject.subjectId}&subject-pk=${subject.id}&depth-1=${visitOf(formKey)}&depth-2=${formKey}`,
    );
    const form = crc.locator(`[data-form="${formKey}"]`);
    await expect(form).toBeVisible();
    if (formKey === 'tympanicPhoto') {
      await crc.getByTestId('photo-file').setInputFiles({
        name: 'ear.png',
        mimeType: 'image/png',
        buffer: await drawnPhoto(crc),
      });
      await expect(crc.getByTestId('tracing-overlay')).toBeVisible();
    }
    await enterValues(form, built, formKey);
    if (formKey === 'ptaTest')
      await expect(crc.getByTestId('pta-audiogram').getByRole('img')).toHaveAccessibleName(/우측/);
    if (formKey === 'visitDay')
      await expect(
        form.getByText('방문일이 오늘보다 이전입니다. 사유를 선택하십시오.').first(),
      ).toBeVisible();
    if (formKey === 'demographicInfo') {
      // The hard check refuses a birth date after the consent, as TMP-2026's does.
      const birthDate = form.locator('[data-item="birthDate"]').getByRole('textbox');
      await birthDate.fill(addDays(consentDate, 1) as string);
      await expect(form.getByText('생년월일이 동의서 서명일보다 이후입니다.').first()).toBeVisible();
      await birthDate.fill(String(INPUT.demographicInfo?.birthDate));
    }
    if (formKey === 'inclusionExclusionEval' || formKey === 'tympanicPhoto')
      for (const width of [1440, 1000]) {
        await crc.setViewportSize({ width, height: 1000 });
        await crc.screenshot({
          path: testInfo.outputPath(`designed-${formKey}-entry-ko-${width}.png`),
        });
      }
    await crc.setViewportSize({ width: 1440, height: 1000 });
    await crc.getByRole('button', { name: '저장', exact: true }).click();
    await expect
      .poll(async () => (await savedForm(formKey)).version, { message: formKey })
      .toBeGreaterThan(0);
  }

  // ---- The same input through TMP-2026's own definition.
  const data: Record<string, Record<string, Record<string, unknown>>> = {};
  const saved: Record<string, SavedForm> = {};
  for (const formKey of BUILT_KEYS) {
    const form = await savedForm(formKey);
    if (form.version === 0) continue;
    saved[formKey] = form;
    const visitKey = visitOf(formKey);
    data[visitKey] = { ...data[visitKey], [formKey]: form.values };
  }
  expect(Object.keys(saved).sort()).toEqual([...Object.keys(INPUT), 'consentScreening'].sort());
  const evaluation = evaluateSubject(tmp, data, { today });

  for (const [formKey, form] of Object.entries(saved)) {
    const expected = evaluation.forms.find(
      (entry) => entry.formKey === formKey && entry.visitKey === visitOf(formKey),
    );
    for (const key of Object.keys(form.derived))
      expect(form.derived[key] ?? null, `${formKey}.${key}`).toEqual(expected?.derived[key] ?? null);
  }
  expect(saved.demographicInfo?.derived.age).toBe(46);
  expect(saved.ptaTest?.derived.airSeverity).toBe('004');
  expect(saved.tympanicPhoto?.derived.perforationPercent).toBe(77.8);
  expect(parsePhotoReference(saved.tympanicPhoto?.values.photo)).not.toBeNull();

  const line = (path: string, message: string) => `${path}: ${message}`;
  const raised = Object.entries(saved)
    .flatMap(([, form]) =>
      form.queries
        .filter((query) => query.kind === 'system' && query.status === 'open')
        .map((query) => line(query.itemPath, query.message.ko)),
    )
    .sort();
  const tmpQueries = evaluation.forms
    .filter((form) => saved[form.formKey] && visitOf(form.formKey) === form.visitKey)
    .flatMap((form) =>
      form.checks
        .filter((check) => check.severity === 'query' && builtItem(form.formKey, check.itemKey))
        .map((check) => line(check.path, check.message.ko)),
    )
    .sort();
  await testInfo.attach('queries raised', { body: raised.join('\n'), contentType: 'text/plain' });
  expect(tmpQueries.length).toBeGreaterThanOrEqual(8);
  expect(raised).toEqual(tmpQueries);

  // The saved evaluation as the coordinator reads it in English, with its queries: axe clean, both widths.
  await crc.goto(
    `/subject-list/subject/subject-detail/${studyId}?subject-id=${subject.subjectId}&subject-pk=${subject.id}&depth-1=v1&depth-2=inclusionExclusionEval`,
  );
  await crc.getByRole('button', { name: 'EN', exact: true }).first().click();
  const english = tmpForm('inclusionExclusionEval').checks?.find((check) =>
    check.id.endsWith('exc01.applies'),
  );
  await expect(crc.getByText(english?.message.en ?? '—').first()).toBeVisible();
  expect.soft(await axeViolations(crc), 'the designed evaluation in data entry').toEqual([]);
  for (const width of [1440, 1000]) {
    await crc.setViewportSize({ width, height: 1000 });
    await crc.screenshot({
      path: testInfo.outputPath(`designed-inclusionExclusionEval-saved-en-${width}.png`),
    });
  }
  await context.close();
});
