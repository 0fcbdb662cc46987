import type { Page, TestInfo } from '@playwright/test';
import { DEMO_PASSWORD, demoAccount, logInAs } from '../support/auth.ts';
import { axeViolations } from '../support/axe.ts';
import { e2eServer } from '../support/servers.ts';
import { expect, test } from '../support/test.ts';

/**
 * TMP-2026, the living demo's live study: AM-01 published (in effect at site 02, whose subjects it
 * moved), AM-02 drafted by the data manager and waiting for approval.
 */
const STUDY_ID = 1;
const crc = { email: 'crc@demo.cdms', name: '박코디', role: 'CRC' } as const;

function koreanDate(daysAgo: number): string {
  return new Date(Date.now() + 9 * 3600_000 - daysAgo * 86_400_000).toISOString().slice(0, 10);
}

async function csrfOf(page: Page): Promise<string> {
  return ((await (await page.request.get('/api/auth/me')).json()) as { csrfToken: string }).csrfToken;
}

async function screenshot(page: Page, testInfo: TestInfo, name: string) {
  const body = await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });
  await testInfo.attach(name, { body, contentType: 'image/png' });
}

/** An amendment as the list API gives it (the fields this test reads). */
interface ListedAmendment {
  id: number;
  number: string;
  status: string;
  toVersion: string | null;
  contentHash: string | null;
}

/**
 * Issue 49: a coordinator's subject at site 02 has its vital signs entered with a remark (소견); a
 * data manager drafts AM-02 further in the designer — the remark replaced by another item of the same
 * type —, is asked on the amendment's page whether that is a rename, answers "rename" (the values
 * move), runs the impact analysis over every subject and reads it down to the rows; publishes it with
 * the electronic signature (password again), migrates that one subject now and waits until the job is
 * done; the coordinator then finds the remark under its new name on the subject's follow-up visit. The
 * draft's and the published page in Korean and English at 1440 and 1000 px.
 *
 * Publishing makes AM-02's version the newest on this worker's server, but moves no subject but the
 * one this test made: the other tests' subjects stay on the version they are on.
 */
test('a data manager drafts an amendment, declares a rename, reads its impact, publishes it and migrates a subject', async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(360_000);
  // The coordinator's subject, with a remark on the vital signs of V3 (through the API).
  const crcContext = await browser.newContext({
    baseURL: e2eServer().baseUrl,
    locale: 'ko-KR',
    timezoneId: 'Asia/Seoul',
  });
  const crcPage = await crcContext.newPage();
  await logInAs(crcPage, crc);
  const me = await (await crcPage.request.get('/api/auth/me')).json();
  const siteId = me.memberships.find((m: { studyId: number }) => m.studyId === STUDY_ID).sites[0].id;
  const crcCsrf = await csrfOf(crcPage);
  const created = await crcPage.request.post(`/api/studies/${STUDY_ID}/subjects`, {
    headers: { 'X-CSRF-Token': crcCsrf },
    data: { siteId, consentDate: koreanDate(40), initials: 'AM' },
  });
  expect(created.status(), await created.text()).toBe(201);
  const subject = (await created.json()) as { id: number; subjectId: string };
  const vitals = await crcPage.request.put(
    `/api/studies/${STUDY_ID}/subjects/${subject.id}/forms/v3/vitalSigns`,
    {
      headers: { 'X-CSRF-Token': crcCsrf },
      data: {
        values: {
          measurementDate: koreanDate(2),
          bloodPressureSystolic: 118,
          bloodPressureDiastolic: 76,
          heartRate: 72,
          respiratoryRate: 16,
          bodyTemperature: 36.8,
          result: 'normal',
          opinion: '안정 시 측정',
        },
        version: 0,
      },
    },
  );
  expect(vitals.status(), await vitals.text()).toBe(200);

  await logInAs(page, demoAccount('DM'));

  // The designer of the live study edits the amendment's draft.
  await page.goto(`/design/${STUDY_ID}`);
  await expect(page.getByRole('note').filter({ hasText: 'AM-02' })).toBeVisible();
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
  await page.getByRole('link', { name: '프로토콜 변경 AM-02 보기' }).click();
  await expect(page.getByRole('heading', { name: '프로토콜 변경 AM-02' })).toBeVisible();
  await expect(page.getByText('아직 배포할 수 없습니다')).toBeVisible();
  const question = page.getByRole('listitem').filter({ hasText: 'opinion' }).filter({ hasText: 'remarks' });
  await question.getByRole('button', { name: '이름 변경 (값 이동)' }).click();
  await expect(page.getByText('배포할 준비가 되었습니다')).toBeVisible();
  await expect(page.getByText(/항목 이름 변경: vitalSigns\/opinion → remarks/)).toBeVisible();

  // The impact: the analysis left by the demo is out of date now; run again.
  await expect(page.getByText('이 결과는 최신이 아닙니다')).toBeVisible();
  await page.getByRole('button', { name: '영향 분석 실행' }).click();
  await expect(page.getByText('이 결과는 최신이 아닙니다')).toHaveCount(0, { timeout: 60_000 });
  const moved = page.getByRole('button', { name: /값이 옮겨짐/ });
  await expect(moved).toBeEnabled();
  const counted = await page.request.get(`/api/studies/${STUDY_ID}/amendments`);
  const [draft] = ((await counted.json()) as { amendments: ListedAmendment[] }).amendments.filter(
    (amendment) => amendment.status === 'draft',
  );
  if (!draft) throw new Error('AM-02 is not a draft');
  const impact = (await (
    await page.request.get(`/api/studies/${STUDY_ID}/amendments/${draft.id}/impact`)
  ).json()) as { impact: { current: boolean; byKind: Record<string, { rows: number; subjects: number }> } };
  expect(impact.impact.current).toBe(true);
  expect(impact.impact.byKind.valueRenamed?.rows).toBeGreaterThan(0);
  await expect(moved).toContainText(`${impact.impact.byKind.valueRenamed?.rows}건`);

  // Down to the rows: the remarks that move to the new item, the coordinator's among them.
  await moved.click();
  await expect(page).toHaveURL(/kind=valueRenamed/);
  const table = page.getByRole('table').last();
  await expect(table.getByRole('row').nth(1)).toContainText('vitalSigns');
  expect.soft(await axeViolations(page), 'amendment page').toEqual([]);

  for (const language of ['ko', 'en'] as const) {
    await page.evaluate((code) => localStorage.setItem('cdms.language', code), language);
    await page.reload();
    for (const width of [1440, 1000]) {
      await page.setViewportSize({ width, height: 900 });
      await expect(
        page.getByRole('heading', { name: language === 'ko' ? '프로토콜 변경 AM-02' : 'Amendment AM-02' }),
      ).toBeVisible();
      await expect(page.getByRole('table').last().getByRole('row').nth(1)).toContainText('vitalSigns');
      await screenshot(page, testInfo, `amendment-${language}-${width}`);
    }
  }

  // Publish with the electronic signature: the change set is ready and the analysis current.
  const amendmentPath = `/design/${STUDY_ID}/amendments/${draft.id}`;
  await page.evaluate(() => localStorage.setItem('cdms.language', 'ko'));
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(amendmentPath);
  const publish = page.getByRole('button', { name: '배포 (전자서명)' });
  await expect(publish).toBeEnabled();
  await publish.click();
  const signDialog = page.getByRole('dialog', { name: '프로토콜 변경 AM-02 배포' });
  await expect(signDialog).toContainText(`승인: 배포하면 새 버전(${draft.toVersion})이`);
  await screenshot(page, testInfo, 'amendment-publish-dialog-ko-1440');
  await signDialog.getByLabel('비밀번호').fill(DEMO_PASSWORD);
  await signDialog.getByRole('button', { name: '서명하고 배포' }).click();
  await expect(signDialog).toBeHidden({ timeout: 60_000 });
  await expect(page.getByText('배포됨', { exact: true })).toBeVisible();
  await expect(publish).toHaveCount(0);
  await expect(page.getByRole('button', { name: '폐기' })).toHaveCount(0);
  const listed = (await (await page.request.get(`/api/studies/${STUDY_ID}/amendments`)).json()) as {
    amendments: ListedAmendment[];
  };
  const published = listed.amendments.find((amendment) => amendment.id === draft.id);
  expect(published?.status).toBe('published');
  const hash = published?.contentHash ?? '';
  expect(hash).not.toBe('');
  await expect(page.getByTitle(hash, { exact: true })).toHaveText(
    hash.length > 16 ? `${hash.slice(0, 16)}…` : hash,
  );

  // Migrate the coordinator's subject now, and wait for the job (read every 2 s) to be done.
  const migration = page.getByRole('region', { name: '대상자 이관' });
  await expect(migration).toBeVisible();
  await migration.getByLabel('스크리닝 번호').fill(subject.subjectId);
  await migration.getByRole('button', { name: '이 대상자 이관' }).click();
  const startQuestion = page.getByRole('alertdialog');
  await expect(startQuestion).toContainText(
    `대상자 ${subject.subjectId}의 데이터를 지금 새 버전(${draft.toVersion})으로 이관할까요?`,
  );
  await startQuestion.getByRole('button', { name: '이관 시작' }).click();
  const subjectProgress = migration.getByRole('progressbar', { name: `진행: 대상자 ${subject.subjectId}` });
  const subjectJob = migration
    .getByRole('row')
    .filter({ has: page.getByRole('progressbar', { name: `진행: 대상자 ${subject.subjectId}` }) });
  await expect(subjectJob).toBeVisible();
  await expect(subjectJob).toContainText('완료', { timeout: 120_000 });
  await expect(subjectProgress).toHaveAttribute('aria-valuenow', '1');
  const jobs = (await (
    await page.request.get(`/api/studies/${STUDY_ID}/amendments/${draft.id}/migrations`)
  ).json()) as {
    migrations: { scope: string; status: string; total: number; migrated: number }[];
  };
  expect(jobs.migrations.find((job) => job.scope === 'subject')).toMatchObject({
    status: 'done',
    total: 1,
    migrated: 1,
  });
  // Read fresh: the toasts of the publication and the start (a region of their own) are gone.
  await page.reload();
  await expect(subjectJob).toContainText('완료');
  expect.soft(await axeViolations(page), 'published amendment page').toEqual([]);

  // The published page, its migration and the analysis it was published on, in both languages.
  for (const language of ['ko', 'en'] as const) {
    await page.evaluate((code) => localStorage.setItem('cdms.language', code), language);
    await page.goto(amendmentPath);
    for (const width of [1440, 1000]) {
      await page.setViewportSize({ width, height: 900 });
      await expect(
        page.getByRole('heading', { name: language === 'ko' ? '프로토콜 변경 AM-02' : 'Amendment AM-02' }),
      ).toBeVisible();
      const section = page.getByRole('region', {
        name: language === 'ko' ? '대상자 이관' : 'Subject migration',
      });
      await expect(
        section.getByRole('row').filter({
          has: page.getByRole('progressbar', {
            name:
              language === 'ko'
                ? `진행: 대상자 ${subject.subjectId}`
                : `Progress: Subject ${subject.subjectId}`,
          }),
        }),
      ).toContainText(language === 'ko' ? '완료' : 'Done');
      await screenshot(page, testInfo, `amendment-published-${language}-${width}`);
    }
  }

  // The list: AM-01 and AM-02 published, with their versions.
  await page.evaluate(() => localStorage.setItem('cdms.language', 'ko'));
  await page.goto(`/design/${STUDY_ID}/amendments`);
  const row = page.getByRole('table').getByRole('row').filter({ hasText: 'AM-02' });
  await expect(row).toContainText('배포됨');
  await expect(row).toContainText(`→ ${draft.toVersion}`);
  await screenshot(page, testInfo, 'amendments-ko-1000');

  // The coordinator opens the follow-up visit's vital signs: the remark is there under its new name.
  const query = `subject-id=${subject.subjectId}&subject-pk=${subject.id}`;
  await crcPage.goto(
    `/subject-list/subject/subject-detail/${STUDY_ID}?${query}&depth-1=v3&depth-2=vitalSigns`,
  );
  const form = crcPage.locator('[data-form="vitalSigns"]');
  await expect(form.getByLabel('비고')).toHaveValue('안정 시 측정');
  await expect(form.getByLabel('소견')).toHaveCount(0);
  await screenshot(crcPage, testInfo, 'amendment-migrated-form-ko-1440');
  await crcContext.close();
});
