import type { Page, TestInfo } from '@playwright/test';
import { demoAccount, logInAs } from '../support/auth.ts';
import { axeViolations } from '../support/axe.ts';
import { expect, test } from '../support/test.ts';

/** TMP-2026, the living demo's live study, with amendment AM-01 drafted by the data manager. */
const STUDY_ID = 1;

async function screenshot(page: Page, testInfo: TestInfo, name: string) {
  const body = await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });
  await testInfo.attach(name, { body, contentType: 'image/png' });
}

/**
 * Issue 49: a data manager drafts an amendment of the live study in the designer — the vital signs'
 * remark (소견) replaced by another item of the same type —, is asked on the amendment's page whether
 * that is a rename, answers "rename" (the values move), runs the impact analysis over every subject and
 * reads it down to the rows; the page in Korean and English at 1440 and 1000 px.
 */
test('a data manager drafts an amendment, declares a rename and reads its impact', async ({
  page,
}, testInfo) => {
  test.setTimeout(180_000);
  await logInAs(page, demoAccount('DM'));

  // The designer of the live study edits the amendment's draft.
  await page.goto(`/design/${STUDY_ID}`);
  await expect(page.getByRole('note').filter({ hasText: 'AM-01' })).toBeVisible();
  await page.getByRole('button', { name: '활력 징후 항목 편집', exact: true }).click();
  await page.getByRole('button', { name: /^소견\s*opinion ·/ }).click();
  await page.getByRole('region', { name: 'opinion 속성' }).getByRole('button', { name: '항목 삭제' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: '삭제', exact: true }).click();
  const addItem = page.getByRole('form', { name: '항목 추가' });
  await addItem.getByRole('combobox', { name: '유형', exact: true }).selectOption({ label: '긴 텍스트' });
  await addItem.getByLabel('키', { exact: true }).fill('remarks');
  await addItem.getByLabel('이름 (한국어)').fill('비고');
  await addItem.getByLabel('이름 (영어)').fill('Remarks');
  await addItem.getByRole('button', { name: '항목 추가' }).click();
  await expect(page.getByRole('status').filter({ hasText: /초안 저장됨/ })).toBeVisible({ timeout: 15_000 });

  // The amendment asks what the diff cannot guess.
  await page.getByRole('link', { name: '프로토콜 변경 AM-01 보기' }).click();
  await expect(page.getByRole('heading', { name: '프로토콜 변경 AM-01' })).toBeVisible();
  await expect(page.getByText('아직 배포할 수 없습니다')).toBeVisible();
  const question = page.getByRole('listitem').filter({ hasText: 'opinion' }).filter({ hasText: 'remarks' });
  await question.getByRole('button', { name: '이름 변경 (값 이동)' }).click();
  await expect(page.getByText('배포할 준비가 되었습니다')).toBeVisible();
  await expect(page.getByText(/항목 이름 변경: vitalSigns\/opinion → remarks/)).toBeVisible();

  // The impact: the analysis left by the demo is out of date now; run again.
  await expect(page.getByText('이 결과는 최신이 아닙니다')).toBeVisible();
  await page.getByRole('button', { name: '영향 분석 실행' }).click();
  await expect(page.getByText('이 결과는 최신이 아닙니다')).toHaveCount(0, { timeout: 60_000 });
  const incomplete = page.getByRole('button', { name: /입력 미완료가 되는 양식/ });
  await expect(incomplete).toBeEnabled();
  const counted = await page.request.get(`/api/studies/${STUDY_ID}/amendments`);
  const [draft] = (
    (await counted.json()) as { amendments: { id: number; status: string }[] }
  ).amendments.filter((amendment) => amendment.status === 'draft');
  const impact = (await (
    await page.request.get(`/api/studies/${STUDY_ID}/amendments/${draft?.id}/impact`)
  ).json()) as { impact: { current: boolean; byKind: Record<string, { rows: number; subjects: number }> } };
  expect(impact.impact.current).toBe(true);
  expect(impact.impact.byKind.formIncomplete?.rows).toBeGreaterThan(0);
  await expect(incomplete).toContainText(`${impact.impact.byKind.formIncomplete?.rows}건`);

  // Down to the rows: the saved vital signs forms the new required item leaves incomplete.
  await incomplete.click();
  await expect(page).toHaveURL(/kind=formIncomplete/);
  const table = page.getByRole('table').last();
  await expect(table.getByRole('row').nth(1)).toContainText('vitalSigns');
  expect.soft(await axeViolations(page), 'amendment page').toEqual([]);

  for (const language of ['ko', 'en'] as const) {
    await page.evaluate((code) => localStorage.setItem('cdms.language', code), language);
    await page.reload();
    for (const width of [1440, 1000]) {
      await page.setViewportSize({ width, height: 900 });
      await expect(
        page.getByRole('heading', { name: language === 'ko' ? '프로토콜 변경 AM-01' : 'Amendment AM-01' }),
      ).toBeVisible();
      await expect(page.getByRole('table').last().getByRole('row').nth(1)).toContainText('vitalSigns');
      await screenshot(page, testInfo, `amendment-${language}-${width}`);
    }
  }
  await page.evaluate(() => localStorage.setItem('cdms.language', 'ko'));
  await page.goto(`/design/${STUDY_ID}/amendments`);
  await expect(page.getByRole('table').getByRole('row').filter({ hasText: 'AM-01' })).toContainText(
    '작성 중',
  );
  await screenshot(page, testInfo, 'amendments-ko-1000');
});
