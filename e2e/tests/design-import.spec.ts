import path from 'node:path';
import { demoAccount, logInAs } from '../support/auth.ts';
import { repositoryRoot } from '../support/global-setup.ts';
import { expect, test } from '../support/test.ts';

const examples = path.join(repositoryRoot, 'docs/examples');
const tubeDesign = path.join(repositoryRoot, 'apps/server/src/seed/redcap');

/**
 * Issue 47 item 5: a designer imports a REDCap data dictionary into the study in design through its
 * preview. A file with an error is shown with the error on its line and cannot be confirmed; a
 * sound one is confirmed and becomes the current version.
 */
test('an administrator previews REDCap dictionaries and imports the sound one into the study in design', async ({
  page,
  consoleGuard,
}) => {
  test.setTimeout(60_000);
  const admin = demoAccount('ADMIN');
  await logInAs(page, admin);
  await page.goto('/admin/studies');
  await page.getByRole('button', { name: 'TUBE-2027 정의' }).click();
  const dialog = page.getByRole('dialog', { name: 'TUBE-2027 정의' });
  // The demo's draft: the REDCap import refined in the designer (issue 48 item 9).
  await expect(dialog).toContainText('1.1.0');
  await dialog.getByRole('link', { name: '설계 가져오기…' }).click();
  await expect(page).toHaveURL(/\/admin\/studies\/import\/\d+$/);
  await expect(page.getByRole('heading', { name: 'TUBE-2027 설계 가져오기' })).toBeVisible();

  // The example has an sql field: an error on its line, and nothing can be confirmed.
  await page.getByLabel('데이터 사전(CSV)').setInputFiles(path.join(examples, 'redcap-dictionary.csv'));
  await page
    .getByLabel('양식–이벤트 대응표(CSV, 선택)')
    .setInputFiles(path.join(examples, 'redcap-event-mapping.csv'));
  await page.getByRole('button', { name: '미리 보기' }).click();
  const problems = page.getByRole('table', { name: '파일의 문제' });
  await expect(problems.getByRole('row').filter({ hasText: 'site_lookup' })).toContainText('오류');
  await expect(problems.getByRole('row').filter({ hasText: 'site_lookup' })).toContainText('28');
  await expect(page.getByText('삭제되는 양식 (2)')).toBeVisible();
  await expect(page.getByRole('button', { name: '현재 버전으로 가져오기' })).toBeDisabled();

  // A file that is no design at all: refused, its problem listed in the user's language.
  consoleGuard.allowFailedRequest(
    `/api/studies/${page.url().split('/').at(-1)}/definition-imports/preview`,
    422,
    'a file that is not XML, on purpose',
  );
  await page.getByLabel('파일 형식').selectOption({ label: 'CDISC ODM 1.3 메타데이터(XML)' });
  await page
    .getByLabel('ODM 파일(XML)')
    .setInputFiles({ name: 'not-odm.xml', mimeType: 'text/xml', buffer: Buffer.from('not XML at all') });
  await page.getByRole('button', { name: '미리 보기' }).click();
  const refusal = page.getByRole('table', { name: '파일의 문제' }).getByRole('row').nth(1);
  await expect(refusal).toContainText('오류');
  await expect(refusal).toContainText('XML');
  await page.getByLabel('파일 형식').selectOption({ label: 'REDCap 데이터 사전(CSV)' });

  // The study's own dictionary: nothing removed, confirmed, the current version again.
  await page.getByLabel('데이터 사전(CSV)').setInputFiles(path.join(tubeDesign, 'tube-2027-dictionary.csv'));
  await page
    .getByLabel('양식–이벤트 대응표(CSV, 선택)')
    .setInputFiles(path.join(tubeDesign, 'tube-2027-event-mapping.csv'));
  await page.getByRole('button', { name: '미리 보기' }).click();
  await expect(page.getByText('삭제되는 양식')).toBeHidden();
  await expect(problems.getByRole('row').filter({ hasText: 'record_id' })).toContainText('참고');
  // The dictionary holds no visit windows: the preview says the draft's windows would go.
  await expect(page.getByRole('heading', { name: /현재 버전과 다른 점 전체/ })).toBeVisible();
  await expect(
    page
      .getByRole('table', { name: /현재 버전과 다른 점 전체/ })
      .getByRole('row', { name: /window|허용/ })
      .first(),
  ).toBeVisible();
  await page.getByRole('button', { name: '현재 버전으로 가져오기' }).click();
  // The import replaces the draft of the version in design.
  await expect(page.getByRole('status')).toContainText('가져오기를 마쳤습니다. 현재 정의: 버전 1.1.0');
});

/**
 * Issue 47 items 2 and 4: the study's design leaves as ODM 1.3.2 metadata and as a workbook from the
 * definition dialog, and each file comes back through the import's preview with nothing to change.
 */
test('a design downloaded as ODM metadata and as a workbook imports back unchanged', async ({
  page,
}, testInfo) => {
  test.setTimeout(90_000);
  const admin = demoAccount('ADMIN');
  await logInAs(page, admin);
  for (const [download, format, fileLabel] of [
    ['ODM 1.3.2 메타데이터(모든 버전)', 'CDISC ODM 1.3 메타데이터(XML)', 'ODM 파일(XML)'],
    ['워크북(XLSX)', '설계 워크북(XLSX)', '워크북(XLSX)'],
  ] as const) {
    await page.goto('/admin/studies');
    await page.getByRole('button', { name: 'TUBE-2027 정의' }).click();
    const dialog = page.getByRole('dialog', { name: 'TUBE-2027 정의' });
    // Whatever version the draft is at (the test before imported one), the round trip keeps it.
    const version = ((await dialog.locator('dd').first().textContent()) ?? '').trim();
    expect(version).toMatch(/^\d+\.\d+\.\d+$/);
    const saved = page.waitForEvent('download');
    await dialog.getByRole('button', { name: download }).click();
    const file = testInfo.outputPath((await saved).suggestedFilename());
    await (await saved).saveAs(file);
    await dialog.getByRole('link', { name: '설계 가져오기…' }).click();
    await page.getByLabel('파일 형식').selectOption({ label: format });
    await page.getByLabel(fileLabel).setInputFiles(file);
    await page.getByRole('button', { name: '미리 보기' }).click();
    await expect(page.getByRole('heading', { name: '가져오면 바뀌는 것' })).toBeVisible();
    // The same design: nothing added, removed or changed, and nothing in the way of confirming.
    for (const change of [
      '추가되는 양식',
      '삭제되는 양식',
      '삭제되는 항목',
      '바뀌는 항목',
      '현재 버전과 다른 점 전체',
    ])
      await expect(page.getByText(change)).toBeHidden();
    await page.getByRole('button', { name: '현재 버전으로 가져오기' }).click();
    await expect(page.getByRole('status')).toContainText(`가져오기를 마쳤습니다. 현재 정의: 버전 ${version}`);
  }
});
