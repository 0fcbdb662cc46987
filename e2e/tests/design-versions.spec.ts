import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { demoAccount, logInAs } from '../support/auth.ts';
import { axeViolations } from '../support/axe.ts';
import { expect, test } from '../support/test.ts';

/** A tiny design: one visit, one form with one item. */
const firstVersion = {
  key: 'VER',
  version: '1.0.0',
  label: { ko: '버전 시험', en: 'Versions test' },
  codeLists: [],
  visits: [
    { key: 'V1', label: { ko: '선별 방문', en: 'Screening visit' }, group: 'screening', forms: ['vitals'] },
  ],
  forms: [
    {
      key: 'vitals',
      label: { ko: '활력 징후', en: 'Vital signs' },
      sections: [
        {
          key: 'main',
          label: { ko: '기본', en: 'Main' },
          items: [{ key: 'pulse', type: 'integer', label: { ko: '맥박', en: 'Pulse' }, unit: '/min' }],
        },
      ],
    },
  ],
};

/** The next version: the form gains an item and the pulse's unit changes. */
const secondVersion = {
  ...firstVersion,
  version: '1.1.0',
  forms: [
    {
      ...firstVersion.forms[0],
      sections: [
        {
          key: 'main',
          label: { ko: '기본', en: 'Main' },
          items: [
            { key: 'pulse', type: 'integer', label: { ko: '맥박', en: 'Pulse' }, unit: 'bpm' },
            { key: 'temperature', type: 'decimal', label: { ko: '체온', en: 'Temperature' }, decimals: 1 },
          ],
        },
      ],
    },
  ],
};

/**
 * Issue 48 item 7: a designer compares two versions of a study's definition — the previous and the
 * newest chosen at first —, reads the added item and the changed unit marked in words, and downloads
 * the same comparison as a PDF that holds the line.
 */
test('an administrator compares two versions of a design and downloads the comparison as a PDF', async ({
  page,
}, testInfo) => {
  test.setTimeout(60_000);
  const admin = demoAccount('ADMIN');
  await logInAs(page, admin);
  const { csrfToken } = (await (await page.request.get('/api/auth/me')).json()) as { csrfToken: string };
  const headers = { 'x-csrf-token': csrfToken };
  const created = await page.request.post('/api/admin/studies', {
    headers,
    data: {
      code: `VER-${Date.now().toString(36)}`,
      protocolNumber: 'CDMS-VER-01',
      titleKo: '버전 시험',
      titleEn: 'Versions test',
      sponsor: '',
      kind: 'observational',
      content: '',
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const studyId = ((await created.json()) as { id: number }).id;
  for (const version of [firstVersion, secondVersion]) {
    const saved = await page.request.put(`/api/studies/${studyId}/definition`, { headers, data: version });
    expect(saved.status(), await saved.text()).toBe(200);
  }

  await page.goto(`/design/${studyId}/versions`);
  await expect(page.getByRole('heading', { name: '설계 버전 비교' })).toBeVisible();
  await expect(page.getByRole('combobox', { name: '이전 버전' })).toHaveValue('1.0.0');
  await expect(page.getByRole('combobox', { name: '새 버전' })).toHaveValue('1.1.0');
  const lines = page.getByRole('table', { name: /^변경 내용 3건/ });
  const added = lines.getByRole('row').filter({ hasText: '양식 활력 징후 › 항목 체온: 추가됨 (섹션 기본)' });
  await expect(added).toHaveCount(1);
  await expect(added).toContainText('추가');
  await expect(lines.getByRole('row').filter({ hasText: '항목 맥박: 단위 /min → bpm' })).toContainText(
    '변경',
  );
  expect.soft(await axeViolations(page), 'design versions page').toEqual([]);

  // The same two versions, the other way round: the item reads as removed.
  await page.getByRole('combobox', { name: '이전 버전' }).selectOption('1.1.0');
  await page.getByRole('combobox', { name: '새 버전' }).selectOption('1.0.0');
  await expect(lines.getByRole('row').filter({ hasText: '항목 체온: 삭제됨' })).toHaveCount(1);
  await page.getByRole('combobox', { name: '이전 버전' }).selectOption('1.0.0');
  await page.getByRole('combobox', { name: '새 버전' }).selectOption('1.1.0');
  await expect(page).toHaveURL(/\?from=1\.0\.0&to=1\.1\.0$/);

  const downloading = page.waitForEvent('download');
  await page.getByRole('link', { name: 'PDF 내려받기' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^VER-.+-definition-1\.0\.0-to-1\.1\.0\.pdf$/);
  const file = testInfo.outputPath('comparison.pdf');
  await download.saveAs(file);
  expect(fs.readFileSync(file).subarray(0, 5).toString()).toBe('%PDF-');
  const text = spawnSync('pdftotext', ['-raw', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
  expect(text.status, text.stderr).toBe(0);
  const compact = text.stdout.replace(/\s+/g, '');
  expect(compact).toContain('시험정의버전비교');
  expect(compact).toContain('양식활력징후›항목체온:추가됨(섹션기본)');
  expect(compact).toContain('1/1쪽');

  // A version the study does not have, asked by address: the page falls back to its own choice, and
  // the server refuses the comparison itself with a 404 that names the version.
  // (The API call is the test's own, not the page's: the browser logs no failed request.)
  const unknown = await page.request.get(
    `/api/studies/${studyId}/definition-versions/compare?from=1.0.0&to=9.9.9&lang=en`,
  );
  expect(unknown.status()).toBe(404);
  expect(((await unknown.json()) as { error: { message: string } }).error.message).toContain('9.9.9');
  await page.goto(`/design/${studyId}/versions?from=9.9.9&to=1.1.0`);
  await expect(page.getByRole('combobox', { name: '이전 버전' })).toHaveValue('1.0.0');
});
