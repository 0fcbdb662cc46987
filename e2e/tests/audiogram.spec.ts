import type { Page, TestInfo } from '@playwright/test';
import { logInAs } from '../support/auth.ts';
import { axeViolations } from '../support/axe.ts';
import { expect, test } from '../support/test.ts';

// The audiogram (issue 19 item 3): on the PTA form the thresholds are drawn as they are typed, in the
// treated ear's symbols; from the overview the first and last PTA visits are overlaid in a dialog.
// No axe violation; screenshots in ko and en at 1440 and 1000px attached.

const STUDY_ID = 1;
const si = { email: 'si@demo.cdms', name: '이부연', role: 'SI' } as const;

async function screenshot(page: Page, testInfo: TestInfo, name: string) {
  const body = await page.screenshot({ path: testInfo.outputPath(`${name}.png`) });
  await testInfo.attach(name, { body, contentType: 'image/png' });
}

/** A randomized subject of the investigator's site with PTA at both V1 and V2, its V1 form open to changes. */
async function subjectWithTwoPtas(page: Page): Promise<{ pk: number; subjectId: string }> {
  const response = await page.request.get(`/api/studies/${STUDY_ID}/subjects?size=100`);
  const { subjects } = (await response.json()) as {
    subjects: { pk: number; subjectId: string; registrationNumber: string | null }[];
  };
  for (const subject of subjects.filter((row) => row.registrationNumber)) {
    const [v1, v2] = await Promise.all(
      ['v1', 'v2'].map(async (visit) => {
        const form = await page.request.get(
          `/api/studies/${STUDY_ID}/subjects/${subject.pk}/forms/${visit}/ptaTest`,
        );
        return (await form.json()) as { values: Record<string, unknown>; holds: unknown[] };
      }),
    );
    // Typing needs a form no freeze or lock holds.
    if (
      typeof v1?.values.air500 === 'number' &&
      typeof v2?.values.air500 === 'number' &&
      v1.holds.length === 0
    )
      return subject;
  }
  throw new Error('the demo has no subject with PTA at V1 and V2 for this user');
}

test('the PTA form draws the audiogram as the thresholds are typed; the overview overlays V1 and V2', async ({
  page,
}, testInfo) => {
  test.setTimeout(180_000);
  await logInAs(page, si);
  const subject = await subjectWithTwoPtas(page);
  const query = `subject-id=${subject.subjectId}&subject-pk=${subject.pk}`;
  await page.goto(`/subject-list/subject/subject-detail/${STUDY_ID}?${query}&depth-1=v1&depth-2=ptaTest`);
  const audiogram = page.getByTestId('pta-audiogram');
  await expect(audiogram).toBeVisible();
  const airMarks = audiogram.locator('[data-mark="air"]');
  await expect(airMarks).toHaveCount(4);

  // Typing a threshold moves its mark (not saved: the form is left as it was).
  const air2000 = page
    .locator('[data-form="ptaTest"] [data-item="air2000"]')
    .getByRole('spinbutton')
    .or(page.locator('[data-form="ptaTest"] [data-item="air2000"] input'));
  await air2000.first().fill('85');
  await expect(audiogram.locator('[data-mark="air"][data-hz="2000"]')).toHaveAttribute('data-db', '85');
  await expect(audiogram.getByRole('img')).toHaveAccessibleName(/청력도/);
  expect(await axeViolations(page)).toEqual([]);
  await page.getByRole('button', { name: '초기화' }).click();
  const confirm = page.getByRole('alertdialog');
  if (await confirm.isVisible().catch(() => false)) await confirm.getByRole('button').last().click();

  // The overview overlays the first and last PTA visits.
  await page.goto(`/subject-list/subject/${STUDY_ID}?${query}`);
  await page.getByRole('button', { name: '청력도 비교' }).click();
  const dialog = page.getByRole('dialog', { name: /청력도 비교/ });
  await expect(dialog.locator('[data-series]')).toHaveCount(2);
  await expect(dialog.locator('[data-series="v1"] [data-mark="air"]')).toHaveCount(4);
  // The last: V2, or a later unscheduled visit with a saved hearing test (the demo has one at site 01).
  await expect(dialog.locator('[data-series]').last()).toHaveAttribute(
    'data-series',
    /^(v2|unscheduled-\d+)$/,
  );
  await expect(dialog.locator('[data-series]').last().locator('[data-mark="air"]')).toHaveCount(4);
  expect(await axeViolations(page)).toEqual([]);

  for (const language of ['ko', 'en'] as const) {
    if (language === 'en') {
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'EN', exact: true }).first().click();
    }
    for (const width of [1440, 1000]) {
      await page.setViewportSize({ width, height: 1000 });
      await page.goto(`/subject-list/subject/subject-detail/${STUDY_ID}?${query}&depth-1=v1&depth-2=ptaTest`);
      await page.getByTestId('pta-audiogram').scrollIntoViewIfNeeded();
      await screenshot(page, testInfo, `audiogram-form-${language}-${width}`);
      await page.goto(`/subject-list/subject/${STUDY_ID}?${query}`);
      await page
        .getByRole('button', { name: language === 'ko' ? '청력도 비교' : 'Compare audiograms' })
        .click();
      await expect(page.getByRole('dialog').locator('[data-series]')).toHaveCount(2);
      await screenshot(page, testInfo, `audiogram-compare-${language}-${width}`);
    }
  }
});
