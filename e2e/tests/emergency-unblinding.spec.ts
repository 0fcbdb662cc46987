import type { Page } from '@playwright/test';
import { DEMO_PASSWORD, demoAccount, logInAs } from '../support/auth.ts';
import { expect, test } from '../support/test.ts';

const STUDY_ID = 1;

function koreanDate(daysAgo: number): string {
  return new Date(Date.now() + 9 * 3600_000 - daysAgo * 86_400_000).toISOString().slice(0, 10);
}

async function csrfOf(page: Page): Promise<string> {
  return ((await (await page.request.get('/api/auth/me')).json()) as { csrfToken: string }).csrfToken;
}

/**
 * Issue 51 item 3: the PI breaks the blind of one subject of their site in an emergency — the dialog
 * asks for a reason and the password again (a wrong one is refused inside it), the group is shown,
 * and the subject carries the "unblinded" badge on its page and in the subject list.
 */
test('the PI breaks the blind of a subject: reason and password, the group shown, the badge', async ({
  page,
  consoleGuard,
}) => {
  test.setTimeout(90_000);
  const pi = demoAccount('PI');
  await logInAs(page, pi);
  // A subject of the PI's site, eligible and randomized (through the API, as the site would).
  const me = await (await page.request.get('/api/auth/me')).json();
  const siteId = me.memberships.find((m: { studyId: number }) => m.studyId === STUDY_ID).sites[0].id;
  const csrf = await csrfOf(page);
  const created = await page.request.post(`/api/studies/${STUDY_ID}/subjects`, {
    headers: { 'X-CSRF-Token': csrf },
    data: { siteId, consentDate: koreanDate(2), initials: 'EU' },
  });
  expect(created.status(), await created.text()).toBe(201);
  const subject = (await created.json()) as { id: number; subjectId: string };
  const eligible = await page.request.put(
    `/api/studies/${STUDY_ID}/subjects/${subject.id}/forms/v2/inclusionExclusionEval`,
    { headers: { 'X-CSRF-Token': csrf }, data: { values: { eligible: 'Y' }, version: 0 } },
  );
  expect(eligible.status(), await eligible.text()).toBe(200);
  const randomized = await page.request.post(`/api/studies/${STUDY_ID}/subjects/${subject.id}/randomize`, {
    headers: { 'X-CSRF-Token': csrf },
  });
  expect(randomized.status(), await randomized.text()).toBe(201);
  const { randomizationNumber } = (await randomized.json()) as { randomizationNumber: string };

  await page.goto(
    `/subject-list/subject/${STUDY_ID}?subject-id=${subject.subjectId}&registration-number=${randomizationNumber}&subject-pk=${subject.id}`,
  );
  const header = page.getByTestId('subject-header');
  await expect(header).toContainText(subject.subjectId);
  await expect(header.getByTestId('unblinded-badge')).toHaveCount(0);
  await header.getByRole('button', { name: '응급 눈가림 해제' }).click();

  const dialog = page.getByRole('dialog', { name: '응급 눈가림 해제' });
  await expect(dialog).toContainText('의뢰자');
  const confirm = dialog.getByRole('button', { name: '눈가림 해제' });
  // Without the password nothing can be sent.
  await dialog
    .getByLabel('사유(응급 상황)')
    .fill('야간 응급실 내원, 아나필락시스 의심으로 처치 약제 결정을 위해 배정군 확인 필요');
  await expect(confirm).toBeDisabled();
  consoleGuard.allowFailedRequest(
    `/api/studies/${STUDY_ID}/subjects/${subject.id}/unblind`,
    422,
    'a wrong password, on purpose',
  );
  await dialog.getByLabel('비밀번호(전자서명과 같이 다시 입력)').fill('not-my-password-1');
  await confirm.click();
  await expect(dialog).toContainText('비밀번호가 올바르지 않습니다');
  await dialog.getByLabel('비밀번호(전자서명과 같이 다시 입력)').fill(DEMO_PASSWORD);
  await confirm.click();
  await expect(dialog).toBeHidden();

  // The group and the badge on the subject page; the action is gone (a blind breaks once).
  await expect(header.getByTestId('unblinded-badge')).toHaveText('눈가림 해제');
  await expect(header.getByTestId('subject-group')).toHaveText(/^배정군: (시험군|대조군)$/);
  await expect(header.getByRole('button', { name: '응급 눈가림 해제' })).toHaveCount(0);

  // The subject list carries the badge too.
  await page.goto(`/subject-list/${STUDY_ID}?search=${subject.subjectId}`);
  const row = page.getByRole('row').filter({ hasText: subject.subjectId });
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('unblinded-badge')).toBeVisible();
});
