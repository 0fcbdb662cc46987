import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { repositoryRoot } from '../support/global-setup.ts';
import { type EmptyProductionServer, startEmptyProductionServer } from '../support/production-server.ts';
import { expect, test } from '../support/test.ts';

/**
 * Issue 45 item 8: from an empty production database to a first subject in a new study, in the
 * browser alone. The system administrator (created with the command line, as on any first day)
 * adds a coordinator's account, creates the study, its site and the coordinator's role, uploads the
 * study's definition document, and takes it live with a signature; the coordinator then sees the
 * study and registers its first subject.
 */
let server: EmptyProductionServer;

test.beforeAll(async () => {
  server = await startEmptyProductionServer();
});
test.afterAll(async () => {
  await server?.stop();
});

const definitionFile = path.join(repositoryRoot, 'packages/study/definitions/tm-perforation.json');
const coordinator = {
  email: 'coordinator@hospital.example',
  name: '첫코디',
  password: 'hanbit-ward-2027',
};

async function logIn(page: Page, email: string, password: string) {
  await page.goto(`${server.baseUrl}/`);
  await page.getByRole('button', { name: '로그인' }).click();
  const dialog = page.getByRole('dialog', { name: '로그인' });
  await dialog.getByLabel('이메일').fill(email);
  await dialog.getByLabel('비밀번호').fill(password);
  await dialog.getByLabel('비밀번호').press('Enter');
  await expect(page).toHaveURL(/\/task-list$/);
}

test('an administrator starts a new study on an empty production install and its coordinator registers a subject', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  expect(fs.existsSync(definitionFile)).toBe(true);
  await logIn(page, server.admin.email, server.admin.password);
  // Nothing yet: no study in the work list.
  await expect(page.getByRole('heading', { name: '과제 목록' })).toBeVisible();

  // The coordinator's account.
  await page.goto(`${server.baseUrl}/admin/users`);
  await page.getByRole('button', { name: '사용자 추가' }).click();
  const userDialog = page.getByRole('dialog', { name: '사용자 추가' });
  await userDialog.getByLabel('이름').fill(coordinator.name);
  await userDialog.getByLabel('이메일').fill(coordinator.email);
  await userDialog.getByLabel('초기 비밀번호').fill(coordinator.password);
  await userDialog.getByRole('button', { name: '사용자 추가' }).click();
  await expect(userDialog).toHaveCount(0);

  // The study, in design.
  await page.getByRole('link', { name: '임상시험', exact: true }).click();
  await expect(page.getByRole('cell', { name: '데이터가 없습니다.' })).toBeVisible();
  await page.getByRole('button', { name: '새 임상시험' }).click();
  const studyDialog = page.getByRole('dialog', { name: '새 임상시험' });
  await studyDialog.getByLabel('임상시험 코드').fill('EAR-2027');
  await studyDialog.getByLabel('프로토콜 번호').fill('EAR-2027-01');
  await studyDialog.getByLabel('제목(한국어)').fill('고막 재생 확증 임상시험');
  await studyDialog.getByLabel('제목(영어)').fill('Confirmatory eardrum regeneration trial');
  await studyDialog.getByLabel('의뢰자').fill('한빛메디칼');
  await studyDialog.getByLabel('종류').selectOption({ label: '의료기기' });
  await studyDialog.getByRole('button', { name: '임상시험 만들기' }).click();
  await expect(studyDialog).toHaveCount(0);
  const studyRow = page.getByRole('row').filter({ hasText: 'EAR-2027' });
  await expect(studyRow).toContainText('설계 중');
  await expect(studyRow.getByRole('button', { name: 'EAR-2027 운영 개시' })).toBeDisabled();

  // Its site, and the coordinator's role there.
  await page.getByRole('link', { name: '기관', exact: true }).click();
  await page.getByRole('button', { name: '기관 추가' }).click();
  const siteDialog = page.getByRole('dialog', { name: '기관 추가' });
  await siteDialog.getByLabel('기관 코드').fill('HOSP-01');
  await siteDialog.getByLabel('기관명').fill('한빛대학교병원');
  await siteDialog.getByLabel('기관 번호').fill('01');
  await siteDialog.getByRole('button', { name: '저장' }).click();
  await expect(page.getByRole('cell', { name: 'HOSP-01', exact: true })).toBeVisible();
  await page.getByRole('link', { name: '연구 역할' }).click();
  await page.getByRole('button', { name: '역할 추가' }).click();
  const roleDialog = page.getByRole('dialog', { name: '연구 역할 추가' });
  await roleDialog.getByLabel('사용자').selectOption({ label: `${coordinator.name} (${coordinator.email})` });
  await roleDialog.getByLabel('역할').selectOption('CRC');
  await roleDialog.getByLabel(/^HOSP-01/).check();
  await roleDialog.getByRole('button', { name: '저장' }).click();
  await expect(page.getByRole('cell', { name: coordinator.email, exact: true })).toBeVisible();

  // Its design, uploaded as a document; then the go-live signature.
  await page.getByRole('link', { name: '임상시험', exact: true }).click();
  await studyRow.getByRole('button', { name: 'EAR-2027 정의' }).click();
  const definitionDialog = page.getByRole('dialog', { name: 'EAR-2027 정의' });
  await expect(definitionDialog).toContainText('아직 올린 정의가 없습니다.');
  await definitionDialog.locator('input[type=file]').setInputFiles(definitionFile);
  // The upload's confirmation, then the current version read back with its content hash.
  await expect(definitionDialog.getByText('올린 문서가 현재 정의가 되었습니다(버전 1.0.0).')).toBeVisible();
  await expect(definitionDialog).toContainText(/[0-9a-f]{64}/);
  await definitionDialog.getByRole('button', { name: '닫기' }).click();
  await studyRow.getByRole('button', { name: 'EAR-2027 운영 개시' }).click();
  const goLiveDialog = page.getByRole('dialog', { name: 'EAR-2027 운영 개시' });
  await expect(goLiveDialog).toContainText('설계를 승인하고 자료 입력을 개시합니다');
  await goLiveDialog.getByLabel('본인 비밀번호').fill(server.admin.password);
  await goLiveDialog.getByRole('button', { name: '서명하고 운영 개시' }).click();
  await expect(goLiveDialog).toHaveCount(0);
  await expect(studyRow).toContainText('운영 중');

  // The coordinator, in a browser of their own, registers the study's first subject.
  const context = await browser.newContext();
  const crcPage = await context.newPage();
  await logIn(crcPage, coordinator.email, coordinator.password);
  await crcPage.getByRole('link', { name: '고막 재생 확증 임상시험' }).first().click();
  await crcPage.getByRole('link', { name: '대상자 목록', exact: true }).first().click();
  await crcPage.getByRole('button', { name: '+ 대상자 추가' }).click();
  const addDialog = crcPage.getByRole('dialog', { name: '대상자 추가' });
  await addDialog.getByLabel('동의서 서명일').fill('2026-12-01');
  await addDialog.getByLabel('이니셜').fill('HGD');
  await addDialog.getByRole('button', { name: '등록' }).click();
  await expect(addDialog.getByTestId('screening-number')).toHaveText('S01-001');
  await context.close();
});
