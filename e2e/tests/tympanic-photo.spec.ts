import type { Locator, Page, TestInfo } from '@playwright/test';
import { logInAs } from '../support/auth.ts';
import { axeViolations } from '../support/axe.ts';
import { drawnPhoto } from '../support/photos.ts';
import { expect, test } from '../support/test.ts';

// The eardrum photo (issue 19 item 2): a CRC uploads the V1 photo, traces the membrane (polygon) and the
// perforation (ellipse), the percent fills in and is saved; eligibility follows the traced percent (the
// 20–60 % inclusion check). A demo subject's V4 shows the V2 baseline photo beside its own. Screenshots
// in ko and en at 1440 and 1000px attached.

const STUDY_ID = 1;
const crc = { email: 'crc@demo.cdms', name: '박코디', role: 'CRC' } as const;

async function screenshot(page: Page, testInfo: TestInfo, name: string, locator?: Locator) {
  const body = await (locator ?? page).screenshot({ path: testInfo.outputPath(`${name}.png`) });
  await testInfo.attach(name, { body, contentType: 'image/png' });
}

async function csrfOf(page: Page): Promise<string> {
  return ((await (await page.request.get('/api/auth/me')).json()) as { csrfToken: string }).csrfToken;
}

const formUrl = (subject: { pk: number; subjectId: string }, visit: string, form: string) =>
  `/subject-list/subject/subject-detail/${STUDY_ID}?subject-id=${subject.subjectId}&subject-pk=${subject.pk}&depth-1=${visit}&depth-2=${form}`;

async function saveForm(page: Page, reason?: string) {
  await page.getByRole('button', { name: '저장', exact: true }).click();
  if (reason) {
    const dialog = page.getByRole('dialog', { name: '변경 사유 입력' });
    await dialog.getByLabel('사진 위 측정 변경 사유').fill(reason);
    await dialog.getByRole('button', { name: '사유와 함께 저장' }).click();
    await expect(dialog).toBeHidden();
  }
  await expect(page.getByText('저장했습니다.', { exact: true }).first()).toBeVisible();
}

test('a CRC uploads the V1 eardrum photo, traces both outlines, the percent fills in and eligibility follows', async ({
  page,
}, testInfo) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1440, height: 1300 });
  await logInAs(page, crc);
  const list = (await (await page.request.get(`/api/studies/${STUDY_ID}/subjects?size=100`)).json()) as {
    subjects: { siteId: number }[];
  };
  const created = await page.request.post(`/api/studies/${STUDY_ID}/subjects`, {
    headers: { 'x-csrf-token': await csrfOf(page) },
    data: { siteId: list.subjects[0]?.siteId, consentDate: '2026-11-20', initials: 'EAR' },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id: pk, subjectId } = (await created.json()) as { id: number; subjectId: string };
  const subject = { pk, subjectId };

  await page.goto(formUrl(subject, 'v1', 'tympanicPhoto'));
  await page.getByTestId('photo-file').setInputFiles({
    name: 'ear.png',
    mimeType: 'image/png',
    buffer: await drawnPhoto(page),
  });
  const overlay = page.getByTestId('tracing-overlay');
  await expect(overlay).toBeVisible();
  await expect(page.getByRole('img', { name: '이 방문의 사진' })).toBeVisible();

  // The membrane: a polygon of 12 points clicked along its edge.
  await page.getByRole('button', { name: '다각형' }).click();
  const hitArea = overlay.locator('rect').first();
  const box = await hitArea.boundingBox();
  if (!box) throw new Error('no overlay');
  for (let i = 0; i < 12; i += 1) {
    const angle = (2 * Math.PI * i) / 12;
    await hitArea.click({
      position: {
        x: box.width * (0.5 + (200 / 640) * Math.cos(angle)),
        y: box.height * (0.5 + (185 / 480) * Math.sin(angle)),
      },
    });
  }
  await expect(overlay.getByRole('button', { name: /고막 점/ })).toHaveCount(12);
  // The perforation: an ellipse, dragged onto the hole and sized with the keyboard.
  await page.getByRole('radio', { name: '천공' }).check();
  await page.getByRole('button', { name: '타원' }).click();
  const middle = overlay.getByRole('button', { name: '천공 중심' });
  await middle.scrollIntoViewIfNeeded();
  const at = await middle.boundingBox();
  const area = await hitArea.boundingBox();
  if (!at || !area) throw new Error('no handle');
  await page.mouse.move(at.x + at.width / 2, at.y + at.height / 2);
  await page.mouse.down();
  await page.mouse.move(area.x + area.width * (300 / 640), area.y + area.height * (260 / 480), { steps: 5 });
  await page.mouse.up();
  const numbers = page.getByTestId('tracing-numbers');
  await expect(numbers).not.toContainText('—');

  // The form's percent is the tracing's diameter ratio, inside the inclusion range.
  const percentInput = page.locator('[data-item="perforationPercent"] input');
  await expect(percentInput).not.toHaveValue('');
  const percent = Number(await percentInput.inputValue());
  expect(percent).toBeGreaterThan(20);
  expect(percent).toBeLessThan(60);
  await expect(page.locator('[data-item="measurementMethod"] input')).toHaveValue('사진 위 측정');
  expect(await axeViolations(page)).toEqual([]);
  await saveForm(page);

  // Eligibility: inclusion 3 (perforation 20–60 %) answered yes, no contradiction.
  await page.goto(formUrl(subject, 'v1', 'inclusionExclusionEval'));
  const inc03 = page.locator('[data-item="inc03"]');
  await inc03.getByRole('radio', { name: '예' }).check();
  await expect(inc03.getByText('20~60% 범위를 벗어납니다')).toHaveCount(0);

  // The perforation grows to more than 60 % of the membrane: with a reason, and eligibility follows.
  await page.goto(formUrl(subject, 'v1', 'tympanicPhoto'));
  await page.getByRole('radio', { name: '천공' }).check();
  const width = overlay.getByRole('button', { name: '천공 너비' });
  await width.focus();
  for (let i = 0; i < 5; i += 1) await page.keyboard.press('Shift+ArrowRight');
  await expect
    .poll(async () => Number(await percentInput.inputValue()), { timeout: 10_000 })
    .toBeGreaterThan(60);
  await saveForm(page, '천공 가장자리를 다시 그림');
  await page.goto(formUrl(subject, 'v1', 'inclusionExclusionEval'));
  await page.locator('[data-item="inc03"]').getByRole('radio', { name: '예' }).check();
  await expect(page.locator('[data-item="inc03"]').getByText(/20~60% 범위를 벗어납니다/)).toBeVisible();

  // Screenshots: the V1 tool, and a demo subject's V4 beside its V2 baseline.
  const demo = await demoSubjectWithPhotos(page);
  for (const language of ['ko', 'en'] as const) {
    if (language === 'en') await page.getByRole('button', { name: 'EN', exact: true }).first().click();
    for (const viewport of [1440, 1000]) {
      await page.setViewportSize({ width: viewport, height: 1100 });
      await page.goto(formUrl(subject, 'v1', 'tympanicPhoto'));
      await expect(page.getByTestId('tracing-overlay')).toBeVisible();
      await page.locator('[data-item="photo"]').scrollIntoViewIfNeeded();
      await screenshot(page, testInfo, `photo-v1-${language}-${viewport}`);
      await page.goto(formUrl(demo, 'v4', 'tympanicPhoto'));
      const comparison = page.getByTestId('baseline-photos');
      await expect(comparison.getByTestId('tracing-overlay')).toHaveCount(2);
      await expect(comparison.getByRole('heading')).toContainText(language === 'ko' ? '기저' : 'Baseline');
      await comparison.scrollIntoViewIfNeeded();
      // Both photos drawn (each read is audited, one after the other).
      for (const image of await comparison.locator('img').all())
        await expect
          .poll(() => image.evaluate((node) => (node as HTMLImageElement).naturalWidth))
          .toBeGreaterThan(0);
      await screenshot(page, testInfo, `photo-v4-${language}-${viewport}`);
    }
  }

  // Two drawn diameters, one per outline: their ratio replaces the outlines' (not saved).
  await page.goto(formUrl(subject, 'v1', 'tympanicPhoto'));
  const diameterRatio = page.getByTestId('tracing-numbers').locator('dd').nth(1);
  const fromOutlines = await diameterRatio.textContent();
  await page.getByRole('radio', { name: 'Membrane' }).check();
  await page.getByRole('button', { name: 'Diameter line' }).click();
  await page.getByRole('radio', { name: 'Perforation' }).check();
  await page.getByRole('button', { name: 'Diameter line' }).click();
  await expect(page.getByTestId('tracing-overlay').locator('[data-handle="lineEnd"]')).toHaveCount(4);
  await expect(diameterRatio).not.toHaveText(fromOutlines ?? '');
  await page.getByTestId('tracing-overlay').scrollIntoViewIfNeeded();
  await screenshot(page, testInfo, 'photo-lines-en-1000');
});

/** A demo subject of the coordinator's site whose V4 and V2 forms hold photos (the seed draws them). */
async function demoSubjectWithPhotos(page: Page): Promise<{ pk: number; subjectId: string }> {
  const response = await page.request.get(`/api/studies/${STUDY_ID}/subjects?size=100`);
  const { subjects } = (await response.json()) as { subjects: { pk: number; subjectId: string }[] };
  for (const subject of subjects) {
    const v4 = await page.request.get(
      `/api/studies/${STUDY_ID}/subjects/${subject.pk}/forms/v4/tympanicPhoto`,
    );
    const form = (await v4.json()) as { values?: Record<string, unknown> };
    if (typeof form.values?.photo === 'string') return subject;
  }
  throw new Error('the demo has no subject with a V4 photo at this site');
}
