import type { Page, TestInfo } from '@playwright/test';
import { demoAccount, signInThroughApi } from '../support/auth.ts';
import { layoutProblems, unmarkedHiddenColumns } from '../support/layout.ts';
import { waitForQuietNetwork } from '../support/network.ts';
import { expect, test } from '../support/test.ts';

// Every main page at the spec's smallest width (1000px) and at 1440px: the page never scrolls sideways,
// no input, select or button is cut off or pushed out of reach, a table wider than its frame says how
// many columns lie beyond its edge, the header stays one row and the side menu folds itself below 1100px. Screenshots of the busiest pages in ko and en are attached.

const STUDY_ID = 1;
const WIDTHS = [1000, 1440] as const;

async function screenshot(page: Page, testInfo: TestInfo, name: string) {
  const body = await page.screenshot({ path: testInfo.outputPath(`${name}.png`) });
  await testInfo.attach(name, { body, contentType: 'image/png' });
}

interface SubjectRow {
  pk: number;
  subjectId: string;
  registrationNumber: string | null;
  status: string;
}

/** The signed-in user's fullest casebook: randomized and ongoing. */
async function aSubjectQuery(page: Page): Promise<string> {
  const response = await page.request.get(`/api/studies/${STUDY_ID}/subjects?size=100`);
  const { subjects } = (await response.json()) as { subjects: SubjectRow[] };
  const subject =
    subjects.find((row) => row.registrationNumber && row.status === 'Ongoing') ??
    subjects.find((row) => row.registrationNumber);
  if (!subject) throw new Error('the demo has no randomized subject for this user');
  return new URLSearchParams({
    'subject-id': subject.subjectId,
    'subject-pk': String(subject.pk),
    'registration-number': subject.registrationNumber ?? '',
  }).toString();
}

/** How many rows the header's controls take: 1 when every one shares a horizontal band with the rest. */
function headerRows(page: Page): Promise<number> {
  return page.getByRole('banner').evaluate((header) => {
    const boxes = [...header.querySelectorAll('a, button, input, fieldset, [role="timer"]')]
      .map((element) => element.getBoundingClientRect())
      .filter((box) => box.width > 1 && box.height > 1);
    const lowestTop = Math.max(...boxes.map((box) => box.top));
    const highestBottom = Math.min(...boxes.map((box) => box.bottom));
    return lowestTop < highestBottom ? 1 : 2;
  });
}

/**
 * At each width: open the page, wait for `ready`, then expect no layout problem, a one-row header and
 * the side menu folded below 1100px (91px) and open above (240px). `also` runs further checks.
 */
async function checkPage(
  page: Page,
  url: string,
  ready: (page: Page) => ReturnType<Page['locator']>,
  also?: (width: number) => Promise<void>,
) {
  for (const width of WIDTHS) {
    await test.step(`${url} at ${width}px`, async () => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(url);
      await expect(ready(page).first()).toBeVisible();
      await waitForQuietNetwork(page);
      expect(await layoutProblems(page), `${url} at ${width}px`).toEqual([]);
      expect(await unmarkedHiddenColumns(page), `${url} at ${width}px: columns out of view`).toEqual([]);
      if ((await page.getByRole('banner').count()) > 0) {
        expect(await headerRows(page), 'the header is one row').toBe(1);
      }
      const menu = page.locator('aside[data-collapsed]');
      if ((await menu.count()) > 0) {
        expect((await menu.boundingBox())?.width, 'the side menu folds below 1100px').toBe(
          width < 1100 ? 91 : 240,
        );
      }
      await also?.(width);
    });
  }
}

const heading = (page: Page) => page.getByRole('heading', { level: 1 });

/** The user unfolds the folded menu (English UI); measured once its width has stopped changing. */
async function unfoldMenu(page: Page) {
  await page.getByRole('button', { name: 'Expand menu' }).click();
  await expect
    .poll(async () => (await page.locator('aside[data-collapsed="false"]').boundingBox())?.width)
    .toBe(240);
}

test.describe('layout at 1000 and 1440px', () => {
  // Each test opens its pages at two widths (some in two languages): slow on a busy machine.
  test.describe.configure({ timeout: 180_000 });

  test('landing page', async ({ page }) => {
    await signInThroughApi(page, demoAccount('CRC'));
    await checkPage(page, '/', heading);
  });

  test('task list: cards, list and the header search open', async ({ page }) => {
    await signInThroughApi(page, demoAccount('CRC'));
    await checkPage(page, '/task-list', (p) => p.getByTestId('study-card'));
    await checkPage(page, '/task-list?view=list', (p) => p.getByTestId('study-row'));
    await checkPage(page, '/task-list?search=TMP', (p) => p.getByRole('searchbox'));
  });

  test('dashboard, in Korean and English', async ({ page }, testInfo) => {
    await signInThroughApi(page, demoAccount('CRC'));
    for (const language of ['ko', 'en'] as const) {
      await page.goto('/task-list');
      await page.getByRole('button', { name: language.toUpperCase(), exact: true }).click();
      await checkPage(
        page,
        `/dashboard/${STUDY_ID}`,
        (p) => p.locator('canvas'),
        async (width) => {
          await screenshot(page, testInfo, `dashboard-${language}-${width}`);
          const header = await page.getByRole('banner').screenshot();
          await testInfo.attach(`header-${language}-${width}`, { body: header, contentType: 'image/png' });
        },
      );
    }
  });

  test('subject list, in Korean and English', async ({ page }, testInfo) => {
    await signInThroughApi(page, demoAccount('CRC'));
    for (const language of ['ko', 'en'] as const) {
      await page.goto('/task-list');
      await page.getByRole('button', { name: language.toUpperCase(), exact: true }).click();
      await checkPage(
        page,
        `/subject-list/${STUDY_ID}`,
        (p) => p.locator('tbody tr'),
        (width) => screenshot(page, testInfo, `subject-list-${language}-${width}`),
      );
    }
  });

  test('SDV page and readiness board (issue 15), in Korean and English', async ({ page }, testInfo) => {
    // The data manager sees both pages with every control: the plan's button, the board's
    // selection column and its freeze and lock actions.
    await signInThroughApi(page, demoAccount('DM'));
    for (const language of ['ko', 'en'] as const) {
      await page.goto('/task-list');
      await page.getByRole('button', { name: language.toUpperCase(), exact: true }).click();
      await checkPage(
        page,
        `/sdv/${STUDY_ID}`,
        (p) => p.locator('tbody tr[data-subject]'),
        (width) => screenshot(page, testInfo, `sdv-${language}-${width}`),
      );
      await checkPage(
        page,
        `/freezing/${STUDY_ID}`,
        (p) => p.locator('tbody tr[data-subject]'),
        (width) => screenshot(page, testInfo, `freezing-${language}-${width}`),
      );
    }
  });

  test('reports (issue 17), in Korean and English', async ({ page }, testInfo) => {
    await signInThroughApi(page, demoAccount('DM'));
    for (const language of ['ko', 'en'] as const) {
      await page.goto('/task-list');
      await page.getByRole('button', { name: language.toUpperCase(), exact: true }).click();
      for (const report of [
        'enrollment',
        'queryAging',
        'missingForms',
        'protocolDeviations',
        'adverseEvents',
      ]) {
        await checkPage(
          page,
          `/report/${STUDY_ID}?report=${report}`,
          (p) => p.locator('tbody tr'),
          (width) => screenshot(page, testInfo, `report-${report}-${language}-${width}`),
        );
      }
    }
  });

  test('study summary (issue 17), in Korean and English', async ({ page }, testInfo) => {
    // The data manager sees the widest tables: every site, split by randomization group.
    await signInThroughApi(page, demoAccount('DM'));
    for (const language of ['ko', 'en'] as const) {
      await page.goto('/task-list');
      await page.getByRole('button', { name: language.toUpperCase(), exact: true }).click();
      await checkPage(
        page,
        `/summary/${STUDY_ID}`,
        (p) => p.getByTestId('summary-subject-total'),
        (width) => screenshot(page, testInfo, `summary-${language}-${width}`),
      );
    }
  });

  test('review listings (issue 50), in Korean and English', async ({ page }, testInfo) => {
    // The monitor: the selection column, the cells as buttons, the bulk actions in the toolbar.
    await signInThroughApi(page, demoAccount('CRA'));
    for (const language of ['ko', 'en'] as const) {
      await page.goto('/task-list');
      await page.getByRole('button', { name: language.toUpperCase(), exact: true }).click();
      await checkPage(
        page,
        `/review/${STUDY_ID}?table=vitalSigns`,
        (p) => p.locator('tbody tr[data-subject]'),
        (width) => screenshot(page, testInfo, `review-listings-${language}-${width}`),
      );
    }
  });

  test('alarm log (issue 18), in Korean and English', async ({ page }, testInfo) => {
    // The data manager sees every site's notifications, the filters open.
    await signInThroughApi(page, demoAccount('DM'));
    for (const language of ['ko', 'en'] as const) {
      await page.goto('/task-list');
      await page.getByRole('button', { name: language.toUpperCase(), exact: true }).click();
      await checkPage(
        page,
        `/alarm-log/${STUDY_ID}`,
        (p) => p.locator('tbody tr').first(),
        (width) => screenshot(page, testInfo, `alarm-log-${language}-${width}`),
      );
    }
  });

  test('lab normal ranges and the out-of-range listing (issue 17), in Korean and English', async ({
    page,
  }, testInfo) => {
    // The data manager sees the manage column and the add button beside the ranges.
    await signInThroughApi(page, demoAccount('DM'));
    for (const language of ['ko', 'en'] as const) {
      await page.goto('/task-list');
      await page.getByRole('button', { name: language.toUpperCase(), exact: true }).click();
      await checkPage(
        page,
        `/lab/${STUDY_ID}`,
        (p) => p.locator('[aria-live="polite"]', { hasText: /\d/ }),
        (width) => screenshot(page, testInfo, `lab-${language}-${width}`),
      );
    }
  });

  test('subject overview: the matrix scrolls sideways under a sticky form column', async ({
    page,
  }, testInfo) => {
    await signInThroughApi(page, demoAccount('CRC'));
    const query = await aSubjectQuery(page);
    for (const language of ['ko', 'en'] as const) {
      await page.goto('/task-list');
      await page.getByRole('button', { name: language.toUpperCase(), exact: true }).click();
      await checkPage(
        page,
        `/subject-list/subject/${STUDY_ID}?${query}`,
        (p) => p.locator('[data-form-row]'),
        async (width) => {
          await screenshot(page, testInfo, `overview-${language}-${width}`);
          // The study-wide column (AE, medications, end of study, signature) is in view without
          // scrolling, at the frame's right edge (issue 43 item 8), its heading and its cells.
          const frameBox = await page.locator('table').locator('xpath=..').boundingBox();
          for (const cell of [
            page.locator('thead th[data-visit="all"]'),
            page.locator('tbody td[data-visit="all"]').first(),
          ]) {
            const box = await cell.boundingBox();
            expect(
              box && frameBox && box.x >= frameBox.x && box.x + box.width <= frameBox.x + frameBox.width + 1,
              `the "All" column is in view at ${width}px`,
            ).toBe(true);
          }
          // Visit headings read across, not one letter per line.
          for (const cell of await page.locator('thead th').all()) {
            expect((await cell.boundingBox())?.height ?? 0).toBeLessThan(80);
          }
          if (width === 1000) {
            const scroller = page.locator('table').locator('xpath=..');
            const formCell = page.locator('tbody th').first();
            const before = await formCell.boundingBox();
            await scroller.evaluate((element) => {
              element.scrollLeft = element.scrollWidth;
            });
            // The last column ("all") comes into view; the form names stay where they were.
            const frame = await scroller.boundingBox();
            const all = await page.locator('thead th').last().boundingBox();
            expect(all && frame && all.x + all.width <= frame.x + frame.width + 1).toBe(true);
            const after = await formCell.boundingBox();
            expect(Math.abs((after?.x ?? 0) - (before?.x ?? 100))).toBeLessThanOrEqual(1);
          }
        },
      );
    }
    // Unfolded by the user at 1000px, the matrix still scrolls inside its card.
    await page.setViewportSize({ width: 1000, height: 900 });
    await unfoldMenu(page);
    expect(await layoutProblems(page)).toEqual([]);
  });

  test('subject forms: several V1 forms, the visit day, adverse events and signing', async ({
    page,
  }, testInfo) => {
    test.setTimeout(480_000);
    await signInThroughApi(page, demoAccount('CRC'));
    const query = await aSubjectQuery(page);
    const detail = (visit: string, form: string) =>
      `/subject-list/subject/subject-detail/${STUDY_ID}?${query}&depth-1=${visit}&depth-2=${form}`;
    const formReady = (form: string) => (p: Page) => p.locator(`[data-form="${form}"]`);
    for (const [visit, form] of [
      ['v1', 'visitDay'],
      ['v1', 'diseaseBasicInfo'],
      ['v1', 'bodyMeasurement'],
      ['v1', 'medicalHistory'],
      ['v1', 'labTest'],
      ['v1', 'ptaTest'],
      ['v1', 'inclusionExclusionEval'],
      ['v2', 'randomizationNumber'],
      ['all', 'adverseEvent'],
      ['all', 'concomitantDrugs'],
      ['all', 'testDirectorSigning'],
    ] as const) {
      await checkPage(page, detail(visit, form), formReady(form));
    }

    // V1 demographics: the date box and its calendar button on one line, the computed age not cut off;
    // in both languages, folded and unfolded.
    const demographics = page.locator('[data-form="demographicInfo"]');
    const dateAndAgeFit = async () => {
      const date = demographics.locator('input[placeholder="YYYY-MM-DD"]');
      const calendar = demographics.getByRole('button', { name: /달력|calendar/i });
      const dateBox = await date.boundingBox();
      const calendarBox = await calendar.boundingBox();
      expect(Math.abs((calendarBox?.y ?? 0) - (dateBox?.y ?? 100)), 'calendar beside the date').toBeLessThan(
        2,
      );
      expect(calendarBox?.x ?? 0).toBeGreaterThan((dateBox?.x ?? 0) + (dateBox?.width ?? 0));
      const age = demographics.locator('input[readonly]');
      await expect(age).toHaveValue(/^\d+$/);
      expect(await age.evaluate((input) => input.scrollWidth <= input.clientWidth)).toBe(true);
    };
    for (const language of ['ko', 'en'] as const) {
      await page.goto('/task-list');
      await page.getByRole('button', { name: language.toUpperCase(), exact: true }).click();
      await checkPage(page, detail('v1', 'demographicInfo'), formReady('demographicInfo'), async (width) => {
        await dateAndAgeFit();
        await screenshot(page, testInfo, `v1-demographics-${language}-${width}`);
      });
    }
    await page.setViewportSize({ width: 1000, height: 900 });
    await unfoldMenu(page);
    expect(await layoutProblems(page)).toEqual([]);
    await dateAndAgeFit();
    await screenshot(page, testInfo, 'v1-demographics-en-1000-menu-open');
  });

  test('query list, in Korean and English', async ({ page }, testInfo) => {
    // The data manager sees every site's queries; at 1000 px kind, state and assignee lie beyond the frame.
    await signInThroughApi(page, demoAccount('DM'));
    for (const language of ['ko', 'en'] as const) {
      await page.goto('/task-list');
      await page.getByRole('button', { name: language.toUpperCase(), exact: true }).click();
      await checkPage(
        page,
        `/query/${STUDY_ID}`,
        (p) => p.locator('tbody tr'),
        async (width) => {
          await screenshot(page, testInfo, `query-list-${language}-${width}`);
          // Kind, state and assignee are in view without scrolling sideways (visit, form and item wrap).
          const frame = await page.locator('section:has(> table)').boundingBox();
          for (const [ko, en] of [
            ['유형', 'Kind'],
            ['상태', 'State'],
            ['담당', 'Assignee'],
          ] as const) {
            const box = await page
              .locator('thead th')
              .filter({ hasText: language === 'ko' ? ko : en })
              .first()
              .boundingBox();
            expect(
              box && frame && box.x + box.width <= frame.x + frame.width + 1,
              `${en} is in view at ${width}px`,
            ).toBe(true);
          }
        },
      );
    }
  });

  test('a field brought into view by the keyboard is not hidden under the form toolbar', async ({ page }) => {
    await signInThroughApi(page, demoAccount('CRC'));
    const query = await aSubjectQuery(page);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto(
        `/subject-list/subject/subject-detail/${STUDY_ID}?${query}&depth-1=v1&depth-2=inclusionExclusionEval`,
      );
      const toolbar = page.getByRole('toolbar', { name: '양식 도구' });
      await page.locator('[data-item="exc01"]').getByRole('radio').first().focus();
      // The focused field at the top of the window; then back, field by field, as Shift+Tab goes.
      await page.evaluate(() => (document.activeElement as HTMLElement).scrollIntoView({ block: 'start' }));
      const bar = await toolbar.boundingBox();
      for (let step = 0; step < 6; step += 1) {
        await page.keyboard.press('Shift+Tab');
        const top = await page.evaluate(() => document.activeElement?.getBoundingClientRect().top ?? 0);
        expect(
          bar && top >= bar.y + bar.height - 1,
          `field ${step + 1} back is below the toolbar at ${width}px`,
        ).toBe(true);
      }
    }
  });

  test('notice list', async ({ page }) => {
    await signInThroughApi(page, demoAccount('CRC'));
    await checkPage(page, `/notice/${STUDY_ID}`, (p) => p.locator('table'));
  });

  test('task alarm', async ({ page }) => {
    await signInThroughApi(page, demoAccount('CRC'));
    await checkPage(page, `/task-alarm/${STUDY_ID}`, (p) => p.locator('table'));
  });

  test('notice register, randomization and user administration (ADMIN)', async ({ page }) => {
    await signInThroughApi(page, demoAccount('ADMIN'));
    await checkPage(page, `/notice/register/${STUDY_ID}`, (p) => p.locator('.ProseMirror'));
    await checkPage(page, `/randomization/${STUDY_ID}`, heading);
    await checkPage(page, '/admin/users', (p) => p.locator('tbody tr'));
  });
});
