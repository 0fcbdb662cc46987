import type { Page, TestInfo } from '@playwright/test';
import { logInAs } from '../support/auth.ts';
import { axeViolations } from '../support/axe.ts';
import { expect, test } from '../support/test.ts';

// The study summary (issue 17 item 2), as the monitor opens it: from the CRA menu, the four sections
// with the numbers the API counts (the subject total, a site's statuses, a visit's cells, the healing
// and key measures tables), no axe violation, and screenshots in ko and en at 1440 and 1000px attached.

const STUDY_ID = 1;
const cra = { email: 'cra@demo.cdms', name: '최모니' } as const;

interface Summary {
  sites: { siteId: number; siteCode: string }[];
  groups?: unknown[];
  statusBySite: { siteId: number; counts: Record<string, number> }[];
  visitMatrix: {
    visitLabel: { ko: string };
    cells: { siteId: number; counts: Record<string, number> }[];
  }[];
  healing: { visits: { visitLabel: { ko: string }; counts: Record<string, number> }[] };
  keyMeasures: { visits: { visitLabel: { ko: string }; stats: { n: number }[] }[] };
}

async function screenshot(page: Page, testInfo: TestInfo, name: string) {
  const body = await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });
  await testInfo.attach(name, { body, contentType: 'image/png' });
}

test('the monitor opens the summary from the menu and reads the numbers the API counts', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  await logInAs(page, cra);
  await page.goto(`/dashboard/${STUDY_ID}?menu-type=CRA`);
  await page.getByRole('navigation').getByRole('link', { name: '요약', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/summary/${STUDY_ID}`));
  await expect(page.getByRole('heading', { name: '과제 요약', level: 1 })).toBeVisible();

  const summary = (await (await page.request.get(`/api/studies/${STUDY_ID}/summary`)).json()) as Summary;
  const subjects = summary.statusBySite.reduce(
    (sum, site) => sum + Object.values(site.counts).reduce((a, b) => a + b, 0),
    0,
  );
  expect(subjects).toBeGreaterThan(0);
  await expect(page.getByTestId('summary-subject-total')).toHaveText(String(subjects));

  // Subjects by status: the first site's row, status by status in the table's order.
  const statusTable = page.getByRole('region', { name: '기관별·상태별 대상자 수 표' });
  const first = summary.statusBySite[0];
  const firstCode = summary.sites.find((site) => site.siteId === first?.siteId)?.siteCode ?? '';
  const statusRow = statusTable.locator('tbody tr').filter({ hasText: firstCode });
  for (const [index, status] of [
    'screening',
    'screening_failure',
    'ongoing',
    'complete',
    'dropout',
  ].entries())
    await expect(statusRow.locator('td').nth(index)).toHaveText(String(first?.counts[status]));
  await expect(page.getByRole('img', { name: /기관별 대상자 수를 상태별로/ })).toBeVisible();

  // Visit completion: the first visit's cell at the first site holds the four counts in order.
  const matrix = page.getByRole('region', { name: '방문별·기관별 방문 완료 현황' });
  const visit = summary.visitMatrix[0];
  const cell = visit?.cells[0];
  const visitRow = matrix.locator('tbody tr').filter({ hasText: visit?.visitLabel.ko ?? '' });
  await expect(visitRow.locator('td').first()).toHaveText(
    new RegExp(
      ['inWindow', 'outOfWindow', 'overdue', 'notYetDue']
        .map((state) => `${String(cell?.counts[state])}`)
        .join('\\D*'),
    ),
  );

  // Healing and the key measures: a visit's total and n as the API counts them. The monitor never gets the
  // split by arm (issue 43 item 11: data management only), whatever the study's group setting.
  expect(summary.groups).toBeUndefined();
  const healingTable = page.getByRole('region', { name: '방문별 치유 결과 표' });
  await expect(healingTable.locator('tbody tr')).not.toHaveCount(0);
  const healing = summary.healing.visits.at(-1);
  const total = Object.values(healing?.counts ?? {}).reduce((a, b) => a + b, 0);
  await expect(
    healingTable
      .locator('tbody tr')
      .filter({ hasText: healing?.visitLabel.ko ?? '' })
      .locator('td')
      .last(),
  ).toHaveText(String(total));
  const measuresTable = page.getByRole('region', { name: '방문별 주요 측정값: 대상자 수, 평균, 중앙값' });
  const measured = summary.keyMeasures.visits[0];
  // The visit's air conduction row of every subject.
  const airRow = measuresTable
    .locator('tbody tr')
    .filter({ hasText: measured?.visitLabel.ko ?? '' })
    .filter({ hasText: '기도 청력' })
    .last();
  await expect(airRow.locator('td').nth(1)).toHaveText(String(measured?.stats[0]?.n));
  await expect(
    page.getByRole('region', { name: '두 방문 모두 측정한 대상자의 주요 측정값 변화' }),
  ).toBeVisible();

  expect(await axeViolations(page)).toEqual([]);

  for (const language of ['ko', 'en'] as const) {
    if (language === 'en') {
      await page.getByRole('button', { name: 'EN', exact: true }).first().click();
      await expect(page.getByRole('heading', { name: 'Study summary', level: 1 })).toBeVisible();
    }
    for (const width of [1440, 1000]) {
      await page.setViewportSize({ width, height: 900 });
      await screenshot(page, testInfo, `summary-${language}-${width}`);
    }
  }
});
